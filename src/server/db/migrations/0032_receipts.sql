CREATE SEQUENCE "public"."receipt_numbers" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "receipt_number" bigint;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_receipt_number_key" UNIQUE("receipt_number");--> statement-breakpoint
-- Checkouts paid before receipts had numbers get theirs in the order they were paid.
UPDATE "checkouts" SET "receipt_number" = "numbered"."n"
  FROM (SELECT "id", row_number() OVER (ORDER BY "paid_at", "id") AS "n" FROM "checkouts" WHERE "status" = 'paid') AS "numbered"
  WHERE "checkouts"."id" = "numbered"."id";--> statement-breakpoint
SELECT setval('receipt_numbers', coalesce((SELECT max("receipt_number") FROM "checkouts"), 0) + 1, false);--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_receipt_number_check" CHECK (("checkouts"."status" = 'paid') = ("checkouts"."receipt_number" is not null));--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_card_last4_check" CHECK ("checkouts"."card_last4" ~ '^[0-9]{4}$');
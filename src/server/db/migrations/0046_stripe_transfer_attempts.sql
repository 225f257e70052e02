ALTER TABLE "stripe_transfers" DROP CONSTRAINT "stripe_transfers_status_check";--> statement-breakpoint
ALTER TABLE "stripe_transfers" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stripe_transfers" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "stripe_transfers" ADD COLUMN "retries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stripe_transfers" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "stripe_transfers" ADD CONSTRAINT "stripe_transfers_status_check" CHECK ("stripe_transfers"."status" in ('waiting', 'transferred', 'cancelled', 'failed'));
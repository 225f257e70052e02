CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"object_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"claim_token" uuid,
	"claimed_until" timestamp with time zone,
	"claims" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkouts" DROP CONSTRAINT "checkouts_provider_check";--> statement-breakpoint
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_provider_check";--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "stripe_payment_intent_id" text;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "deadline" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "stripe_events_unprocessed_idx" ON "stripe_events" USING btree ("received_at") WHERE "stripe_events"."processed_at" is null;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_stripe_payment_intent_id_key" UNIQUE("stripe_payment_intent_id");--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_provider_check" CHECK ("checkouts"."provider" in ('test', 'manual', 'stripe'));--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_provider_check" CHECK ("payouts"."provider" in ('test', 'manual', 'stripe'));
ALTER TABLE "checkouts" DROP CONSTRAINT "checkouts_provider_check";--> statement-breakpoint
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_provider_check";--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "stripe_payment_intent_id" text;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_stripe_payment_intent_id_key" UNIQUE("stripe_payment_intent_id");--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_provider_check" CHECK ("checkouts"."provider" in ('test', 'manual', 'stripe'));--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_provider_check" CHECK ("payouts"."provider" in ('test', 'manual', 'stripe'));
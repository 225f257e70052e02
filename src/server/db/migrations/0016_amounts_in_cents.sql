-- Money becomes integer USD cents (docs/decisions/0038). numeric(10,2) holds at most two decimals, so x * 100 is
-- already whole and round() only changes its type: every stored amount converts exactly.
ALTER TABLE "tutor_bids" DROP CONSTRAINT "tutor_bids_amount_check";--> statement-breakpoint
ALTER TABLE "tutoring_requests" DROP CONSTRAINT "tutoring_requests_budget_min_check";--> statement-breakpoint
ALTER TABLE "tutoring_requests" DROP CONSTRAINT "tutoring_requests_budget_range_check";--> statement-breakpoint
ALTER TABLE "tutor_bids" ALTER COLUMN "amount" SET DATA TYPE integer USING round("amount" * 100)::integer;--> statement-breakpoint
ALTER TABLE "tutor_bids" RENAME COLUMN "amount" TO "amount_cents";--> statement-breakpoint
ALTER TABLE "tutoring_requests" ALTER COLUMN "budget_min" SET DATA TYPE integer USING round("budget_min" * 100)::integer;--> statement-breakpoint
ALTER TABLE "tutoring_requests" RENAME COLUMN "budget_min" TO "budget_min_cents";--> statement-breakpoint
ALTER TABLE "tutoring_requests" ALTER COLUMN "budget_max" SET DATA TYPE integer USING round("budget_max" * 100)::integer;--> statement-breakpoint
ALTER TABLE "tutoring_requests" RENAME COLUMN "budget_max" TO "budget_max_cents";--> statement-breakpoint
ALTER TABLE "student_notifications" ALTER COLUMN "bid_amount" SET DATA TYPE integer USING round("bid_amount" * 100)::integer;--> statement-breakpoint
ALTER TABLE "student_notifications" RENAME COLUMN "bid_amount" TO "bid_amount_cents";--> statement-breakpoint
-- The same rules in cents: a bid of at least one cent, a budget of 0 or more whose maximum is not below its minimum.
ALTER TABLE "tutor_bids" ADD CONSTRAINT "tutor_bids_amount_check" CHECK ("tutor_bids"."amount_cents" > 0);--> statement-breakpoint
ALTER TABLE "tutoring_requests" ADD CONSTRAINT "tutoring_requests_budget_min_check" CHECK ("tutoring_requests"."budget_min_cents" >= 0);--> statement-breakpoint
ALTER TABLE "tutoring_requests" ADD CONSTRAINT "tutoring_requests_budget_range_check" CHECK ("tutoring_requests"."budget_max_cents" >= "tutoring_requests"."budget_min_cents");

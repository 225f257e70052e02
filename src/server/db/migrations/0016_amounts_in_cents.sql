-- Money becomes integer USD cents (docs/decisions/0038). numeric(10,2) holds at most two decimals, so x * 100 is
-- already whole and round() only changes its type: every stored amount converts exactly.
-- A type change copies the whole table under a lock that stops readers too: each table's changes are one ALTER
-- TABLE, so it is copied once and its new checks are verified during that copy. Renames touch only the catalog, and
-- the old checks follow a renamed column until they are dropped.
ALTER TABLE "tutor_bids" RENAME COLUMN "amount" TO "amount_cents";--> statement-breakpoint
ALTER TABLE "tutoring_requests" RENAME COLUMN "budget_min" TO "budget_min_cents";--> statement-breakpoint
ALTER TABLE "tutoring_requests" RENAME COLUMN "budget_max" TO "budget_max_cents";--> statement-breakpoint
ALTER TABLE "student_notifications" RENAME COLUMN "bid_amount" TO "bid_amount_cents";--> statement-breakpoint
-- The same rules in cents: a bid of at least one cent, a budget of 0 or more whose maximum is not below its minimum.
ALTER TABLE "tutor_bids"
  DROP CONSTRAINT "tutor_bids_amount_check",
  ALTER COLUMN "amount_cents" SET DATA TYPE integer USING round("amount_cents" * 100)::integer,
  ADD CONSTRAINT "tutor_bids_amount_check" CHECK ("tutor_bids"."amount_cents" > 0);--> statement-breakpoint
ALTER TABLE "tutoring_requests"
  DROP CONSTRAINT "tutoring_requests_budget_min_check",
  DROP CONSTRAINT "tutoring_requests_budget_range_check",
  ALTER COLUMN "budget_min_cents" SET DATA TYPE integer USING round("budget_min_cents" * 100)::integer,
  ALTER COLUMN "budget_max_cents" SET DATA TYPE integer USING round("budget_max_cents" * 100)::integer,
  ADD CONSTRAINT "tutoring_requests_budget_min_check" CHECK ("tutoring_requests"."budget_min_cents" >= 0),
  ADD CONSTRAINT "tutoring_requests_budget_range_check" CHECK ("tutoring_requests"."budget_max_cents" >= "tutoring_requests"."budget_min_cents");--> statement-breakpoint
ALTER TABLE "student_notifications"
  ALTER COLUMN "bid_amount_cents" SET DATA TYPE integer USING round("bid_amount_cents" * 100)::integer;

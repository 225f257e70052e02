ALTER TABLE "tutoring_requests" ADD COLUMN "direct_tutor_id" uuid;--> statement-breakpoint
ALTER TABLE "tutoring_requests" ADD COLUMN "direct_state" text;--> statement-breakpoint
ALTER TABLE "tutoring_requests" ADD COLUMN "direct_declined_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tutoring_requests" ADD COLUMN "direct_decline_reason" text;--> statement-breakpoint
ALTER TABLE "tutoring_requests" ADD COLUMN "opened_to_all_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tutoring_requests" ADD CONSTRAINT "tutoring_requests_direct_tutor_id_users_id_fk" FOREIGN KEY ("direct_tutor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tutoring_requests_direct_tutor_idx" ON "tutoring_requests" USING btree ("direct_tutor_id") WHERE "tutoring_requests"."direct_tutor_id" is not null;--> statement-breakpoint
CREATE INDEX "tutoring_requests_direct_waiting_idx" ON "tutoring_requests" USING btree ("created_at") WHERE "tutoring_requests"."direct_state" = 'waiting';--> statement-breakpoint
ALTER TABLE "tutoring_requests" ADD CONSTRAINT "tutoring_requests_direct_state_check" CHECK ("tutoring_requests"."direct_state" is null or "tutoring_requests"."direct_state" in ('waiting', 'declined', 'unanswered', 'opened'));
CREATE TABLE "reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"bid_id" uuid NOT NULL,
	"tutor_id" uuid NOT NULL,
	"job_completed" boolean DEFAULT true NOT NULL,
	"rating" smallint NOT NULL,
	"body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reply" text,
	"replied_at" timestamp with time zone,
	"report_reason" text,
	"reported_at" timestamp with time zone,
	"hidden_at" timestamp with time zone,
	CONSTRAINT "reviews_request_key" UNIQUE("request_id"),
	CONSTRAINT "reviews_job_completed_check" CHECK ("reviews"."job_completed"),
	CONSTRAINT "reviews_rating_check" CHECK ("reviews"."rating" between 1 and 5),
	CONSTRAINT "reviews_body_length_check" CHECK (char_length("reviews"."body") <= 1000),
	CONSTRAINT "reviews_reply_length_check" CHECK (char_length("reviews"."reply") <= 1000)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "headline" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "about" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "jobs_completed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "review_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "review_rating_sum" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tutoring_requests" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tutoring_requests" ADD COLUMN "is_completed" boolean GENERATED ALWAYS AS (status = 'completed') STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "tutor_bids" ADD CONSTRAINT "tutor_bids_id_tutor_key" UNIQUE("id","tutor_id");--> statement-breakpoint
ALTER TABLE "tutoring_requests" ADD CONSTRAINT "tutoring_requests_job_key" UNIQUE("id","student_id","accepted_bid_id","is_completed");--> statement-breakpoint
UPDATE "tutoring_requests" SET "completed_at" = "created_at" WHERE "status" = 'completed';--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_tutor_id_users_id_fk" FOREIGN KEY ("tutor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_completed_job_fk" FOREIGN KEY ("request_id","student_id","bid_id","job_completed") REFERENCES "public"."tutoring_requests"("id","student_id","accepted_bid_id","is_completed") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_bid_tutor_fk" FOREIGN KEY ("bid_id","tutor_id") REFERENCES "public"."tutor_bids"("id","tutor_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reviews_tutor_created_idx" ON "reviews" USING btree ("tutor_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "reviews"."hidden_at" is null;--> statement-breakpoint
CREATE INDEX "reviews_reported_idx" ON "reviews" USING btree ("reported_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "reviews"."reported_at" is not null;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_headline_length_check" CHECK (char_length("users"."headline") <= 80);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_about_length_check" CHECK (char_length("users"."about") <= 1000);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_review_counters_check" CHECK ("users"."jobs_completed" >= 0 and "users"."review_count" >= 0 and "users"."review_rating_sum" between "users"."review_count" and 5 * "users"."review_count");--> statement-breakpoint
ALTER TABLE "tutoring_requests" ADD CONSTRAINT "tutoring_requests_completed_check" CHECK (("tutoring_requests"."status" = 'completed') = ("tutoring_requests"."completed_at" is not null));
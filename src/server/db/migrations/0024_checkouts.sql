CREATE TABLE "checkouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"bid_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"tutor_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'awaiting_payment' NOT NULL,
	"provider_payment_id" text,
	"claim_token" uuid,
	"claimed_until" timestamp with time zone,
	"claims" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkouts_amount_check" CHECK ("checkouts"."amount_cents" > 0),
	CONSTRAINT "checkouts_provider_check" CHECK ("checkouts"."provider" in ('test', 'manual')),
	CONSTRAINT "checkouts_status_check" CHECK ("checkouts"."status" in ('awaiting_payment', 'paid', 'lapsed', 'cancelled')),
	CONSTRAINT "checkouts_paid_check" CHECK (("checkouts"."status" = 'paid') = ("checkouts"."paid_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_request_id_tutoring_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."tutoring_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_bid_id_tutor_bids_id_fk" FOREIGN KEY ("bid_id") REFERENCES "public"."tutor_bids"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_tutor_id_users_id_fk" FOREIGN KEY ("tutor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "checkouts_one_live_per_request_key" ON "checkouts" USING btree ("request_id") WHERE "checkouts"."status" in ('awaiting_payment', 'paid');--> statement-breakpoint
CREATE INDEX "checkouts_student_created_idx" ON "checkouts" USING btree ("student_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "checkouts_awaiting_expires_idx" ON "checkouts" USING btree ("expires_at") WHERE "checkouts"."status" = 'awaiting_payment';
CREATE TABLE "payment_adjustments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"checkout_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"tutor_id" uuid NOT NULL,
	"admin_id" uuid NOT NULL,
	"note" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"tutor_cents" integer NOT NULL,
	"commission_cents" integer NOT NULL,
	"status" text DEFAULT 'refunding' NOT NULL,
	"provider_refund_id" text,
	"stripe_transfer_id" text,
	"stripe_reversal_id" text,
	"tutor_outcome" text,
	"last_error" text,
	"claim_token" uuid,
	"claimed_until" timestamp with time zone,
	"claims" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "payment_adjustments_status_check" CHECK ("payment_adjustments"."status" in ('refunding', 'reversing', 'settled', 'failed')),
	CONSTRAINT "payment_adjustments_tutor_outcome_check" CHECK ("payment_adjustments"."tutor_outcome" is null or "payment_adjustments"."tutor_outcome" in ('reversed', 'from_earnings', 'owed_by_tutor')),
	CONSTRAINT "payment_adjustments_split_check" CHECK ("payment_adjustments"."amount_cents" > 0 and "payment_adjustments"."tutor_cents" >= 0 and "payment_adjustments"."commission_cents" >= 0 and "payment_adjustments"."amount_cents" = "payment_adjustments"."tutor_cents" + "payment_adjustments"."commission_cents")
);
--> statement-breakpoint
ALTER TABLE "payment_adjustments" ADD CONSTRAINT "payment_adjustments_request_id_tutoring_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."tutoring_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_adjustments" ADD CONSTRAINT "payment_adjustments_checkout_id_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_adjustments" ADD CONSTRAINT "payment_adjustments_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_adjustments" ADD CONSTRAINT "payment_adjustments_tutor_id_users_id_fk" FOREIGN KEY ("tutor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_adjustments" ADD CONSTRAINT "payment_adjustments_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_adjustments_one_per_job_key" ON "payment_adjustments" USING btree ("request_id") WHERE "payment_adjustments"."status" <> 'failed';--> statement-breakpoint
CREATE INDEX "payment_adjustments_due_idx" ON "payment_adjustments" USING btree ("created_at") WHERE "payment_adjustments"."status" in ('refunding', 'reversing');
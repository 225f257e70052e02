CREATE TABLE "refund_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"checkout_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"tutor_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"opened_by" uuid NOT NULL,
	"meeting_id" uuid,
	"status" text NOT NULL,
	"held_cents" integer NOT NULL,
	"refund_cents" integer,
	"answer_due_at" timestamp with time zone,
	"tutor_answer" text,
	"tutor_note" text,
	"answered_at" timestamp with time zone,
	"decided_by" uuid,
	"decision_note" text,
	"decided_at" timestamp with time zone,
	"provider_refund_id" text,
	"claim_token" uuid,
	"claimed_until" timestamp with time zone,
	"claims" integer DEFAULT 0 NOT NULL,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refund_requests_reason_check" CHECK ("refund_requests"."reason" in ('missed_session', 'missed_deadline', 'tutor_withdrew', 'cancelled_by_agreement')),
	CONSTRAINT "refund_requests_status_check" CHECK ("refund_requests"."status" in ('awaiting_tutor', 'awaiting_agreement', 'with_admins', 'refunding', 'refunded', 'partially_refunded', 'declined')),
	CONSTRAINT "refund_requests_tutor_answer_check" CHECK ("refund_requests"."tutor_answer" is null or "refund_requests"."tutor_answer" in ('accepted', 'contested')),
	CONSTRAINT "refund_requests_held_check" CHECK ("refund_requests"."held_cents" > 0),
	CONSTRAINT "refund_requests_refund_check" CHECK ("refund_requests"."refund_cents" is null or ("refund_requests"."refund_cents" >= 0 and "refund_requests"."refund_cents" <= "refund_requests"."held_cents")),
	CONSTRAINT "refund_requests_meeting_check" CHECK (("refund_requests"."reason" = 'missed_session') = ("refund_requests"."meeting_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_request_id_tutoring_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."tutoring_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_checkout_id_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_tutor_id_users_id_fk" FOREIGN KEY ("tutor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_opened_by_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_meeting_id_jitsi_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."jitsi_meetings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_requests_one_open_per_job_key" ON "refund_requests" USING btree ("request_id") WHERE "refund_requests"."status" in ('awaiting_tutor', 'awaiting_agreement', 'with_admins', 'refunding');--> statement-breakpoint
CREATE INDEX "refund_requests_request_idx" ON "refund_requests" USING btree ("request_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "refund_requests_status_idx" ON "refund_requests" USING btree ("status","created_at");
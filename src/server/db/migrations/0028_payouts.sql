CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tutor_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"idempotency_key" uuid NOT NULL,
	"provider_payout_id" text,
	"recorded_by" uuid,
	"claim_token" uuid,
	"claimed_until" timestamp with time zone,
	"claims" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "payouts_tutor_idempotency_key" UNIQUE("tutor_id","idempotency_key"),
	CONSTRAINT "payouts_amount_check" CHECK ("payouts"."amount_cents" > 0),
	CONSTRAINT "payouts_provider_check" CHECK ("payouts"."provider" in ('test', 'manual')),
	CONSTRAINT "payouts_status_check" CHECK ("payouts"."status" in ('requested', 'paid')),
	CONSTRAINT "payouts_paid_check" CHECK (("payouts"."status" = 'paid') = ("payouts"."paid_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "adult_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_tutor_id_users_id_fk" FOREIGN KEY ("tutor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_one_requested_per_tutor_key" ON "payouts" USING btree ("tutor_id") WHERE "payouts"."status" = 'requested';--> statement-breakpoint
CREATE INDEX "payouts_tutor_created_idx" ON "payouts" USING btree ("tutor_id","created_at" DESC NULLS FIRST);
CREATE TABLE "stripe_connected_accounts" (
	"tutor_id" uuid PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"payouts_enabled" boolean DEFAULT false NOT NULL,
	"charges_enabled" boolean DEFAULT false NOT NULL,
	"requirements_due" text[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stripe_connected_accounts_account_id_key" UNIQUE("account_id")
);
--> statement-breakpoint
CREATE TABLE "stripe_disputes" (
	"id" text PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"checkout_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"reason" text NOT NULL,
	"stripe_status" text NOT NULL,
	"outcome" text,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "stripe_disputes_outcome_check" CHECK ("stripe_disputes"."outcome" is null or "stripe_disputes"."outcome" in ('won', 'lost')),
	CONSTRAINT "stripe_disputes_closed_check" CHECK (("stripe_disputes"."outcome" is null) = ("stripe_disputes"."closed_at" is null))
);
--> statement-breakpoint
CREATE TABLE "stripe_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"tutor_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"stripe_transfer_id" text,
	"claim_token" uuid,
	"claimed_until" timestamp with time zone,
	"claims" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"transferred_at" timestamp with time zone,
	CONSTRAINT "stripe_transfers_request_id_key" UNIQUE("request_id"),
	CONSTRAINT "stripe_transfers_stripe_transfer_id_key" UNIQUE("stripe_transfer_id"),
	CONSTRAINT "stripe_transfers_amount_check" CHECK ("stripe_transfers"."amount_cents" > 0),
	CONSTRAINT "stripe_transfers_status_check" CHECK ("stripe_transfers"."status" in ('waiting', 'transferred')),
	CONSTRAINT "stripe_transfers_transferred_check" CHECK (("stripe_transfers"."status" = 'transferred') = ("stripe_transfers"."stripe_transfer_id" is not null and "stripe_transfers"."transferred_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "stripe_connected_accounts" ADD CONSTRAINT "stripe_connected_accounts_tutor_id_users_id_fk" FOREIGN KEY ("tutor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_disputes" ADD CONSTRAINT "stripe_disputes_request_id_tutoring_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."tutoring_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_disputes" ADD CONSTRAINT "stripe_disputes_checkout_id_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_transfers" ADD CONSTRAINT "stripe_transfers_request_id_tutoring_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."tutoring_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_transfers" ADD CONSTRAINT "stripe_transfers_tutor_id_users_id_fk" FOREIGN KEY ("tutor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stripe_disputes_request_idx" ON "stripe_disputes" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "stripe_transfers_waiting_idx" ON "stripe_transfers" USING btree ("tutor_id","created_at") WHERE "stripe_transfers"."status" = 'waiting';
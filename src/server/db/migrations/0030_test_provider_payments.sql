CREATE TABLE "test_provider_payments" (
	"provider_payment_id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"fee_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_provider_payments_idempotency_key_key" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE INDEX "test_provider_payments_created_idx" ON "test_provider_payments" USING btree ("created_at");
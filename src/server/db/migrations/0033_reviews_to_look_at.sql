ALTER TABLE "reviews" ADD COLUMN "to_look_at" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "looked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "reviews_to_look_at_idx" ON "reviews" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "reviews"."to_look_at" and "reviews"."looked_at" is null;
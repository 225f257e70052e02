CREATE TABLE "moderation_attempts" (
	"user_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "moderation_attempts_user_id_hour_pk" PRIMARY KEY("user_id","hour")
);
--> statement-breakpoint
ALTER TABLE "moderation_attempts" ADD CONSTRAINT "moderation_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_attempts_hour_idx" ON "moderation_attempts" USING btree ("hour");
CREATE TABLE "meeting_joins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"meeting_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jitsi_meetings" ADD COLUMN "request_id" uuid;--> statement-breakpoint
ALTER TABLE "meeting_joins" ADD CONSTRAINT "meeting_joins_meeting_id_jitsi_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."jitsi_meetings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_joins" ADD CONSTRAINT "meeting_joins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meeting_joins_meeting_user_idx" ON "meeting_joins" USING btree ("meeting_id","user_id","joined_at");--> statement-breakpoint
ALTER TABLE "jitsi_meetings" ADD CONSTRAINT "jitsi_meetings_request_id_tutoring_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."tutoring_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jitsi_meetings_request_id_idx" ON "jitsi_meetings" USING btree ("request_id");
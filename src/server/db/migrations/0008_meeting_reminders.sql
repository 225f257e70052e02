CREATE TABLE "meeting_reminders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"meeting_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "meeting_reminders_meeting_kind_key" UNIQUE("meeting_id","kind"),
	CONSTRAINT "meeting_reminders_kind_check" CHECK ("meeting_reminders"."kind" in ('24h', '1h'))
);
--> statement-breakpoint
ALTER TABLE "jitsi_meetings" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "calendar" text;--> statement-breakpoint
ALTER TABLE "meeting_reminders" ADD CONSTRAINT "meeting_reminders_meeting_id_jitsi_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."jitsi_meetings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meeting_reminders_due_idx" ON "meeting_reminders" USING btree ("due_at") WHERE "meeting_reminders"."sent_at" is null;
ALTER TABLE "mail_outbox" ADD COLUMN "unsubscribe_user_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "unsubscribe_topic" text;
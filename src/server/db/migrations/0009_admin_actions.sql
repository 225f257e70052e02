CREATE TABLE "admin_audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_id" uuid,
	"actor_name" text NOT NULL,
	"action" text NOT NULL,
	"object_type" text NOT NULL,
	"object_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admin_permissions" DROP CONSTRAINT "admin_permissions_permission_check";--> statement-breakpoint
-- Permissions renamed to one per admin page; managing sub-admins is the super-admin's alone.
UPDATE "admin_permissions" SET "permission" = 'content' WHERE "permission" = 'illegal_content';--> statement-breakpoint
UPDATE "admin_permissions" SET "permission" = 'meetings' WHERE "permission" = 'meeting_stats';--> statement-breakpoint
DELETE FROM "admin_permissions" WHERE "permission" = 'sub_admins';--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspension_reason" text;--> statement-breakpoint
ALTER TABLE "illegal_content_flags" ADD COLUMN "decided_by" uuid;--> statement-breakpoint
ALTER TABLE "illegal_content_flags" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "illegal_content_flags" ADD COLUMN "decision_note" text;--> statement-breakpoint
ALTER TABLE "moderation_patterns" ADD COLUMN "created_by" uuid;--> statement-breakpoint
ALTER TABLE "user_reports" ADD COLUMN "decided_by" uuid;--> statement-breakpoint
ALTER TABLE "user_reports" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_reports" ADD COLUMN "decision_note" text;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "handled_by" uuid;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "handled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD CONSTRAINT "admin_audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_audit_log_created_idx" ON "admin_audit_log" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
ALTER TABLE "illegal_content_flags" ADD CONSTRAINT "illegal_content_flags_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_patterns" ADD CONSTRAINT "moderation_patterns_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_reports" ADD CONSTRAINT "user_reports_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_handled_by_users_id_fk" FOREIGN KEY ("handled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "illegal_content_flags_sender_id_idx" ON "illegal_content_flags" USING btree ("sender_id");--> statement-breakpoint
CREATE INDEX "user_reports_reporter_id_idx" ON "user_reports" USING btree ("reporter_id");--> statement-breakpoint
ALTER TABLE "admin_permissions" ADD CONSTRAINT "admin_permissions_permission_check" CHECK ("admin_permissions"."permission" in ('dashboard', 'reports', 'content', 'meetings', 'users', 'patterns', 'messages'));
CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"last_request" bigint NOT NULL,
	CONSTRAINT "rate_limits_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" uuid NOT NULL,
	CONSTRAINT "sessions_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"username" text NOT NULL,
	"role" text DEFAULT 'student' NOT NULL,
	"vh_number" smallint NOT NULL,
	"full_name" text,
	"is_system" boolean DEFAULT false NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email"),
	CONSTRAINT "users_username_unique" UNIQUE("username"),
	CONSTRAINT "users_role_check" CHECK ("users"."role" in ('student', 'teacher')),
	CONSTRAINT "users_vh_number_check" CHECK ("users"."vh_number" between 100 and 999)
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pending_specializations" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"subject_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subjects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	CONSTRAINT "subjects_category_name_key" UNIQUE("category","name")
);
--> statement-breakpoint
CREATE TABLE "teacher_specializations" (
	"teacher_id" uuid NOT NULL,
	"subject_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "teacher_specializations_pkey" PRIMARY KEY("teacher_id","subject_id")
);
--> statement-breakpoint
CREATE TABLE "chat_rooms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"participant1_id" uuid NOT NULL,
	"participant2_id" uuid NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_message_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_rooms_distinct_participants_check" CHECK ("chat_rooms"."participant1_id" <> "chat_rooms"."participant2_id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"room_id" uuid,
	"sender_id" uuid NOT NULL,
	"receiver_id" uuid NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"is_delivered" boolean DEFAULT false NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	"file_url" text,
	"file_type" text,
	"original_filename" text,
	"file_size" integer,
	"action_type" text,
	CONSTRAINT "messages_client_id_unique" UNIQUE("client_id")
);
--> statement-breakpoint
CREATE TABLE "jitsi_meetings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"creator_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"meeting_id" text NOT NULL,
	"join_url" text NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"is_instant" boolean DEFAULT false NOT NULL,
	"chat_room_id" uuid,
	"chat_message_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tutor_bids" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"tutor_id" uuid NOT NULL,
	"amount" numeric(10, 2) NOT NULL,
	"message" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tutor_bids_request_tutor_key" UNIQUE("request_id","tutor_id"),
	CONSTRAINT "tutor_bids_amount_check" CHECK ("tutor_bids"."amount" > 0),
	CONSTRAINT "tutor_bids_status_check" CHECK ("tutor_bids"."status" in ('pending', 'accepted', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "tutoring_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"description" text NOT NULL,
	"budget_min" numeric(10, 2) NOT NULL,
	"budget_max" numeric(10, 2) NOT NULL,
	"student_id" uuid NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"deadline" timestamp with time zone,
	"level" text,
	"topic" text,
	"requirements" text,
	"schedule" text,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_bid_id" uuid,
	CONSTRAINT "tutoring_requests_type_check" CHECK ("tutoring_requests"."type" in ('tutoring', 'assignment')),
	CONSTRAINT "tutoring_requests_status_check" CHECK ("tutoring_requests"."status" in ('open', 'pending', 'assigned', 'accepted', 'completed', 'closed')),
	CONSTRAINT "tutoring_requests_level_check" CHECK ("tutoring_requests"."level" is null or "tutoring_requests"."level" in ('high_school', 'undergraduate', 'graduate', 'phd')),
	CONSTRAINT "tutoring_requests_budget_min_check" CHECK ("tutoring_requests"."budget_min" >= 0),
	CONSTRAINT "tutoring_requests_budget_range_check" CHECK ("tutoring_requests"."budget_max" >= "tutoring_requests"."budget_min")
);
--> statement-breakpoint
CREATE TABLE "email_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"recipient_email" text NOT NULL,
	"notification_type" text NOT NULL,
	"status" text NOT NULL,
	"notification_id" uuid,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "mail_outbox_status_check" CHECK ("mail_outbox"."status" in ('pending', 'sent', 'failed')),
	CONSTRAINT "mail_outbox_attempts_check" CHECK ("mail_outbox"."attempts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"message" text NOT NULL,
	"link" text,
	"read" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "student_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"student_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"tutor_id" uuid,
	"tutor_name" text NOT NULL,
	"tutor_avatar" text,
	"tutor_vh_number" smallint,
	"bid_amount" numeric(10, 2) NOT NULL,
	"bid_message" text,
	"read" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "teacher_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"teacher_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"subject_title" text NOT NULL,
	"budget" text NOT NULL,
	"description" text NOT NULL,
	"job_url" text NOT NULL,
	"read" boolean DEFAULT false NOT NULL,
	"teacher_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "teacher_notifications_teacher_request_key" UNIQUE("teacher_id","request_id")
);
--> statement-breakpoint
CREATE TABLE "illegal_content_flags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"flag_type" text NOT NULL,
	"content" text NOT NULL,
	"description" text,
	"sender_id" uuid,
	"chat_room_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "illegal_content_flags_flag_type_check" CHECK ("illegal_content_flags"."flag_type" in ('phone', 'email', 'link', 'offensive', 'hate_speech', 'harassment', 'other')),
	CONSTRAINT "illegal_content_flags_status_check" CHECK ("illegal_content_flags"."status" in ('pending', 'reviewed', 'resolved', 'dismissed'))
);
--> statement-breakpoint
CREATE TABLE "moderation_patterns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"pattern" text NOT NULL,
	"category" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "moderation_patterns_pattern_category_key" UNIQUE("pattern","category"),
	CONSTRAINT "moderation_patterns_category_check" CHECK ("moderation_patterns"."category" in ('phone', 'email', 'link', 'offensive', 'hate_speech', 'harassment', 'other'))
);
--> statement-breakpoint
CREATE TABLE "user_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reporter_id" uuid,
	"reported_user_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"description" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_reports_reason_check" CHECK ("user_reports"."reason" in ('inappropriate_content', 'harassment', 'spam', 'scam', 'other')),
	CONSTRAINT "user_reports_status_check" CHECK ("user_reports"."status" in ('pending', 'reviewed', 'resolved', 'dismissed')),
	CONSTRAINT "user_reports_not_self_check" CHECK ("user_reports"."reporter_id" <> "user_reports"."reported_user_id")
);
--> statement-breakpoint
CREATE TABLE "admin_permissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"admin_role_id" uuid NOT NULL,
	"permission" text NOT NULL,
	CONSTRAINT "admin_permissions_role_permission_key" UNIQUE("admin_role_id","permission"),
	CONSTRAINT "admin_permissions_permission_check" CHECK ("admin_permissions"."permission" in ('dashboard', 'reports', 'illegal_content', 'meeting_stats', 'sub_admins'))
);
--> statement-breakpoint
CREATE TABLE "admin_roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"role_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_roles_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "contact_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"handled" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_specializations" ADD CONSTRAINT "pending_specializations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teacher_specializations" ADD CONSTRAINT "teacher_specializations_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teacher_specializations" ADD CONSTRAINT "teacher_specializations_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_participant1_id_users_id_fk" FOREIGN KEY ("participant1_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_participant2_id_users_id_fk" FOREIGN KEY ("participant2_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_last_message_id_messages_id_fk" FOREIGN KEY ("last_message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_room_id_chat_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."chat_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_receiver_id_users_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jitsi_meetings" ADD CONSTRAINT "jitsi_meetings_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jitsi_meetings" ADD CONSTRAINT "jitsi_meetings_chat_room_id_chat_rooms_id_fk" FOREIGN KEY ("chat_room_id") REFERENCES "public"."chat_rooms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jitsi_meetings" ADD CONSTRAINT "jitsi_meetings_chat_message_id_messages_id_fk" FOREIGN KEY ("chat_message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tutor_bids" ADD CONSTRAINT "tutor_bids_request_id_tutoring_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."tutoring_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tutor_bids" ADD CONSTRAINT "tutor_bids_tutor_id_users_id_fk" FOREIGN KEY ("tutor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tutoring_requests" ADD CONSTRAINT "tutoring_requests_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tutoring_requests" ADD CONSTRAINT "tutoring_requests_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tutoring_requests" ADD CONSTRAINT "tutoring_requests_accepted_bid_id_tutor_bids_id_fk" FOREIGN KEY ("accepted_bid_id") REFERENCES "public"."tutor_bids"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_notifications" ADD CONSTRAINT "student_notifications_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_notifications" ADD CONSTRAINT "student_notifications_request_id_tutoring_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."tutoring_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_notifications" ADD CONSTRAINT "student_notifications_tutor_id_users_id_fk" FOREIGN KEY ("tutor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teacher_notifications" ADD CONSTRAINT "teacher_notifications_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teacher_notifications" ADD CONSTRAINT "teacher_notifications_request_id_tutoring_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."tutoring_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "illegal_content_flags" ADD CONSTRAINT "illegal_content_flags_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "illegal_content_flags" ADD CONSTRAINT "illegal_content_flags_chat_room_id_chat_rooms_id_fk" FOREIGN KEY ("chat_room_id") REFERENCES "public"."chat_rooms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_reports" ADD CONSTRAINT "user_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_reports" ADD CONSTRAINT "user_reports_reported_user_id_users_id_fk" FOREIGN KEY ("reported_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_permissions" ADD CONSTRAINT "admin_permissions_admin_role_id_admin_roles_id_fk" FOREIGN KEY ("admin_role_id") REFERENCES "public"."admin_roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_roles" ADD CONSTRAINT "admin_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_user_id_idx" ON "accounts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "users_vh_number_idx" ON "users" USING btree ("vh_number");--> statement-breakpoint
CREATE INDEX "verifications_identifier_idx" ON "verifications" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "teacher_specializations_subject_id_idx" ON "teacher_specializations" USING btree ("subject_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_rooms_pair_key" ON "chat_rooms" USING btree (least("participant1_id", "participant2_id"),greatest("participant1_id", "participant2_id"));--> statement-breakpoint
CREATE INDEX "chat_rooms_participant1_idx" ON "chat_rooms" USING btree ("participant1_id","last_message_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "chat_rooms_participant2_idx" ON "chat_rooms" USING btree ("participant2_id","last_message_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "messages_room_created_idx" ON "messages" USING btree ("room_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "messages_pair_created_idx" ON "messages" USING btree ("sender_id","receiver_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "messages_unread_idx" ON "messages" USING btree ("receiver_id","sender_id") WHERE "messages"."is_read" = false;--> statement-breakpoint
CREATE INDEX "jitsi_meetings_creator_id_idx" ON "jitsi_meetings" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "jitsi_meetings_chat_message_id_idx" ON "jitsi_meetings" USING btree ("chat_message_id");--> statement-breakpoint
CREATE INDEX "jitsi_meetings_start_time_idx" ON "jitsi_meetings" USING btree ("start_time");--> statement-breakpoint
CREATE INDEX "tutor_bids_tutor_created_idx" ON "tutor_bids" USING btree ("tutor_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "tutor_bids_one_accepted_key" ON "tutor_bids" USING btree ("request_id") WHERE "tutor_bids"."status" = 'accepted';--> statement-breakpoint
CREATE INDEX "tutoring_requests_student_created_idx" ON "tutoring_requests" USING btree ("student_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tutoring_requests_open_subject_idx" ON "tutoring_requests" USING btree ("subject_id","created_at" DESC NULLS FIRST) WHERE "tutoring_requests"."status" = 'open';--> statement-breakpoint
CREATE INDEX "tutoring_requests_status_created_idx" ON "tutoring_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "email_logs_created_idx" ON "email_logs" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("next_attempt_at") WHERE "mail_outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "student_notifications_student_created_idx" ON "student_notifications" USING btree ("student_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "teacher_notifications_teacher_created_idx" ON "teacher_notifications" USING btree ("teacher_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "illegal_content_flags_created_idx" ON "illegal_content_flags" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "user_reports_created_idx" ON "user_reports" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "user_reports_reported_user_id_idx" ON "user_reports" USING btree ("reported_user_id");--> statement-breakpoint
CREATE INDEX "contact_messages_created_idx" ON "contact_messages" USING btree ("created_at" DESC NULLS FIRST);
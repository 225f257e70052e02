CREATE TABLE "notification_settings" (
	"user_id" uuid NOT NULL,
	"topic" text NOT NULL,
	"in_app" boolean NOT NULL,
	"email" boolean NOT NULL,
	"push" boolean NOT NULL,
	CONSTRAINT "notification_settings_user_id_topic_pk" PRIMARY KEY("user_id","topic"),
	CONSTRAINT "notification_settings_topic_check" CHECK ("notification_settings"."topic" in ('messages', 'jobs', 'offers', 'meetings', 'reviews', 'payments', 'news'))
);
--> statement-breakpoint
CREATE TABLE "visible_tabs" (
	"socket_id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visible_tabs" ADD CONSTRAINT "visible_tabs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visible_tabs_user_idx" ON "visible_tabs" USING btree ("user_id");
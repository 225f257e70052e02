CREATE TABLE "guru_question_turns" (
	"student_id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "guru_question_turns" ADD CONSTRAINT "guru_question_turns_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
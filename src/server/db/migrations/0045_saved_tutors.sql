CREATE TABLE "saved_tutors" (
	"student_id" uuid NOT NULL,
	"tutor_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_tutors_student_id_tutor_id_pk" PRIMARY KEY("student_id","tutor_id")
);
--> statement-breakpoint
ALTER TABLE "saved_tutors" ADD CONSTRAINT "saved_tutors_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_tutors" ADD CONSTRAINT "saved_tutors_tutor_id_users_id_fk" FOREIGN KEY ("tutor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_tutors_student_created_idx" ON "saved_tutors" USING btree ("student_id","created_at" DESC NULLS FIRST,"tutor_id" DESC NULLS FIRST);
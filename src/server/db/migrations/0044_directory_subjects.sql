ALTER TABLE "users" ADD COLUMN "subject_ids" uuid[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "subject_names" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
CREATE INDEX "users_subject_ids_idx" ON "users" USING gin ("subject_ids");--> statement-breakpoint
-- A teacher's search document, subject ids and subject names, from their subjects: what the triggers on
-- teacher_specializations and subjects keep current (the trigger on users keeps the document at each profile edit).
CREATE FUNCTION "tutor_subjects_keep"("teacher" uuid) RETURNS void LANGUAGE sql AS $$
  UPDATE users SET
    search_document = tutor_search_document(id, headline, about),
    subject_ids = coalesce((SELECT array_agg(ts.subject_id ORDER BY ts.subject_id) FROM teacher_specializations ts
      WHERE ts.teacher_id = teacher), '{}'),
    subject_names = coalesce((SELECT array_agg(s.name ORDER BY s.name) FROM teacher_specializations ts
      JOIN subjects s ON s.id = ts.subject_id WHERE ts.teacher_id = teacher), '{}')
  WHERE id = teacher
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "teacher_specializations_search_document_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tutor_subjects_keep(CASE WHEN TG_OP = 'DELETE' THEN OLD.teacher_id ELSE NEW.teacher_id END);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "subjects_search_document_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tutor_subjects_keep(teacher_id) FROM teacher_specializations WHERE subject_id = NEW.id;
  RETURN NULL;
END;
$$;--> statement-breakpoint
SELECT tutor_subjects_keep("id") FROM "users" WHERE "role" = 'teacher';

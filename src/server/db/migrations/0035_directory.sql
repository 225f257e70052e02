ALTER TABLE "users" ADD COLUMN "response_minutes" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "hourly_rate_cents" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_visible_to_visitors" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "match_score" integer GENERATED ALWAYS AS (100 * ("review_rating_sum" + 20) / ("review_count" + 5)
    + 2 * least("jobs_completed", 100)
    + case when "response_minutes" <= 60 then 100 when "response_minutes" <= 360 then 60 when "response_minutes" <= 1440 then 30 else 0 end) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_document" "tsvector";--> statement-breakpoint
CREATE INDEX "users_search_document_idx" ON "users" USING gin ("search_document");--> statement-breakpoint
CREATE INDEX "users_directory_best_match_idx" ON "users" USING btree ("match_score" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "users"."role" = 'teacher';--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_hourly_rate_check" CHECK ("users"."hourly_rate_cents" between 800 and 1500);--> statement-breakpoint
-- The directory's search document: headline and subject names weigh more than the about text. Kept by the database
-- so that every writer (profile edits, subject changes, first sign-in, seeds) leaves it current.
CREATE FUNCTION "tutor_search_document"("user_id" uuid, "headline" text, "about" text) RETURNS tsvector
  LANGUAGE sql STABLE AS $$
  SELECT setweight(to_tsvector('english', coalesce(headline, '')), 'A')
    || setweight(to_tsvector('english', coalesce((
      SELECT string_agg(s.name, ' ') FROM teacher_specializations ts JOIN subjects s ON s.id = ts.subject_id
      WHERE ts.teacher_id = user_id), '')), 'A')
    || setweight(to_tsvector('english', coalesce(about, '')), 'B')
$$;--> statement-breakpoint
CREATE FUNCTION "users_search_document_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_document := tutor_search_document(NEW.id, NEW.headline, NEW.about);
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "users_search_document" BEFORE INSERT OR UPDATE OF "headline", "about" ON "users"
  FOR EACH ROW EXECUTE FUNCTION "users_search_document_keep"();--> statement-breakpoint
CREATE FUNCTION "teacher_specializations_search_document_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE teacher uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.teacher_id ELSE NEW.teacher_id END;
BEGIN
  UPDATE users SET search_document = tutor_search_document(id, headline, about) WHERE id = teacher;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "teacher_specializations_search_document" AFTER INSERT OR DELETE ON "teacher_specializations"
  FOR EACH ROW EXECUTE FUNCTION "teacher_specializations_search_document_keep"();--> statement-breakpoint
CREATE FUNCTION "subjects_search_document_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users SET search_document = tutor_search_document(id, headline, about)
  WHERE id IN (SELECT teacher_id FROM teacher_specializations WHERE subject_id = NEW.id);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "subjects_search_document" AFTER UPDATE OF "name" ON "subjects"
  FOR EACH ROW EXECUTE FUNCTION "subjects_search_document_keep"();--> statement-breakpoint
UPDATE "users" SET "search_document" = tutor_search_document("id", "headline", "about") WHERE "role" = 'teacher';--> statement-breakpoint
-- The median first response of every tutor's latest 100 bids, as the code keeps it from now on at each bid.
UPDATE "users" u SET "response_minutes" = (
  SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY minutes)) FROM (
    SELECT extract(epoch from least(bid.created_at, coalesce((
        SELECT min(message.created_at) FROM messages message
        WHERE message.sender_id = bid.tutor_id AND message.receiver_id = job.student_id AND message.created_at >= job.created_at
      ), bid.created_at)) - job.created_at) / 60 AS minutes
    FROM tutor_bids bid JOIN tutoring_requests job ON job.id = bid.request_id
    WHERE bid.tutor_id = u.id
    ORDER BY bid.created_at DESC LIMIT 100) AS responses)
WHERE u."role" = 'teacher';

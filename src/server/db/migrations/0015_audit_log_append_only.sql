ALTER TABLE "admin_audit_log" DROP CONSTRAINT "admin_audit_log_actor_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "admin_audit_log" DROP COLUMN "actor_name";--> statement-breakpoint
-- The audit log is append-only in the database itself, whatever the code or a console session tries.
CREATE FUNCTION "admin_audit_log_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'admin_audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "admin_audit_log_append_only" BEFORE UPDATE OR DELETE ON "admin_audit_log"
  FOR EACH ROW EXECUTE FUNCTION "admin_audit_log_refuse_change"();--> statement-breakpoint
CREATE TRIGGER "admin_audit_log_no_truncate" BEFORE TRUNCATE ON "admin_audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "admin_audit_log_refuse_change"();

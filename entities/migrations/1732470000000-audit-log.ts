import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (`audit_log`) and the trigger that keeps it append-only: UPDATE, DELETE and TRUNCATE are refused
 * unless the transaction set `SET LOCAL mlsvc.audit_retention = 'on'`, which only the retention job does
 * (`services/audit/retention.ts`). plpgsql is in every PostgreSQL build, the embedded one and PGlite included.
 */
export class AuditLog1732470000000 implements MigrationInterface {
  name = 'AuditLog1732470000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE audit_log (
      id uuid PRIMARY KEY,
      created_at timestamptz NOT NULL DEFAULT now(),
      actor_user_id uuid,
      actor_key_prefix text,
      action text NOT NULL,
      resource_type text NOT NULL,
      resource_id text,
      project_id uuid,
      changes jsonb,
      ip text,
      user_agent text,
      request_id text,
      route text)`);
    await q.query('CREATE INDEX idx_audit_log_created ON audit_log(created_at DESC, id DESC)');
    await q.query('CREATE INDEX idx_audit_log_project_created ON audit_log(project_id, created_at DESC) WHERE project_id IS NOT NULL');
    await q.query('CREATE INDEX idx_audit_log_actor_created ON audit_log(actor_user_id, created_at DESC) WHERE actor_user_id IS NOT NULL');
    await q.query('CREATE INDEX idx_audit_log_resource ON audit_log(resource_type, resource_id)');
    await q.query('CREATE INDEX idx_audit_log_request ON audit_log(request_id)');
    await q.query(`CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF coalesce(current_setting('mlsvc.audit_retention', true), '') = 'on' THEN
          IF TG_OP = 'UPDATE' THEN
            RETURN NEW;
          END IF;
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = '42501';
      END $$`);
    await q.query('CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()');
    await q.query('CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS audit_log');
    await q.query('DROP FUNCTION IF EXISTS audit_log_append_only()');
  }
}

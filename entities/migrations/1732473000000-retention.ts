import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Retention policies (issue 34): one per kind of record, instance-wide. Jobs may now belong to no project: the
 * `retention` job acts on the whole instance, so its row has no project (it is seen through the admin routes only).
 */
export class Retention1732473000000 implements MigrationInterface {
  name = 'Retention1732473000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE retention_policies (
      kind text PRIMARY KEY CHECK (kind IN ('inference_logs','experiment_logs','dataset_versions','reports','synthetic_outputs','audit_entries')),
      keep_days integer CHECK (keep_days BETWEEN 1 AND 36500),
      keep_latest integer CHECK (keep_latest BETWEEN 1 AND 1000000),
      action text NOT NULL CHECK (action IN ('delete','anonymize')),
      enabled boolean NOT NULL DEFAULT true,
      updated_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((keep_days IS NULL) <> (keep_latest IS NULL)))`);
    await q.query('ALTER TABLE jobs ALTER COLUMN project_id DROP NOT NULL');
    // The admin page lists the last runs of the one instance-wide kind.
    await q.query(`CREATE INDEX idx_jobs_instance_kind ON jobs(kind, created_at) WHERE project_id IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS idx_jobs_instance_kind');
    await q.query('DELETE FROM jobs WHERE project_id IS NULL');
    await q.query('ALTER TABLE jobs ALTER COLUMN project_id SET NOT NULL');
    await q.query('DROP TABLE IF EXISTS retention_policies');
  }
}

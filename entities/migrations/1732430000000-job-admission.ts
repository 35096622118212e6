import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a job was admitted to run its work under its user's share of the ml-cpu workers (MAX_RUNNING_JOBS_PER_USER);
 * null while it waits. Jobs that existed before count as admitted: they are already running or queued in Temporal.
 */
export class JobAdmission1732430000000 implements MigrationInterface {
  name = 'JobAdmission1732430000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE jobs ADD COLUMN admitted_at timestamptz NULL');
    await q.query(`UPDATE jobs SET admitted_at = coalesce(started_at, created_at) WHERE status IN ('queued', 'running')`);
    await q.query(`CREATE INDEX idx_jobs_open_by_user ON jobs(created_by, created_at) WHERE status IN ('queued', 'running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS idx_jobs_open_by_user');
    await q.query('ALTER TABLE jobs DROP COLUMN IF EXISTS admitted_at');
  }
}

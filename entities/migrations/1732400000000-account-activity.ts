import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The account activity log (`GET /api/auth/my-activity`), invitation links (a secret stored as its SHA-256 only),
 * and an index for the per-user count of open jobs (the `MAX_OPEN_JOBS_PER_USER` quota and `GET /api/auth/plan`).
 */
export class AccountActivity1732400000000 implements MigrationInterface {
  name = 'AccountActivity1732400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE account_events (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      type text NOT NULL,
      ip text,
      user_agent text,
      details jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query('CREATE INDEX idx_account_events_user_created ON account_events(user_id, created_at DESC, id DESC)');
    await q.query('CREATE INDEX idx_account_events_created ON account_events(created_at)');
    await q.query('ALTER TABLE project_invitations ADD COLUMN token_hash text UNIQUE');
    await q.query(`CREATE INDEX idx_jobs_open_by_creator ON jobs(created_by) WHERE status IN ('queued','running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS idx_jobs_open_by_creator');
    await q.query('ALTER TABLE project_invitations DROP COLUMN IF EXISTS token_hash');
    await q.query('DROP TABLE IF EXISTS account_events');
  }
}

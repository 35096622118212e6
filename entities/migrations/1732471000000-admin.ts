import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin area: suspended users, the instance settings (one row), and the warn/error entries of the processes'
 * logs (`service_log_entries`).
 */
export class Admin1732471000000 implements MigrationInterface {
  name = 'Admin1732471000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users ADD COLUMN suspended_at timestamptz');
    await q.query('CREATE INDEX idx_users_superuser ON users(id) WHERE is_superuser');
    await q.query(`CREATE TABLE instance_settings (
      id smallint PRIMARY KEY CHECK (id = 1),
      registration text CHECK (registration IN ('open', 'invite_only', 'closed')),
      default_plan text,
      allowed_email_domains text[],
      session_lifetime_hours integer CHECK (session_lifetime_hours > 0),
      updated_by uuid REFERENCES users(id) ON DELETE SET NULL,
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE TABLE service_log_entries (
      id bigserial PRIMARY KEY,
      time timestamptz NOT NULL,
      level text NOT NULL,
      process text NOT NULL,
      pid integer,
      msg text NOT NULL,
      fields jsonb NOT NULL DEFAULT '{}')`);
    await q.query('CREATE INDEX idx_service_log_entries_time ON service_log_entries(time DESC)');
    await q.query('CREATE INDEX idx_account_events_type_created ON account_events(type, created_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS idx_account_events_type_created');
    await q.query('DROP TABLE IF EXISTS service_log_entries');
    await q.query('DROP TABLE IF EXISTS instance_settings');
    await q.query('DROP INDEX IF EXISTS idx_users_superuser');
    await q.query('ALTER TABLE users DROP COLUMN IF EXISTS suspended_at');
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A privacy session's stored reports, one per content (`GET /api/privacy/sessions/{id}/report` renders a content
 * once and serves the stored file after), and per-recipient mail counts (at most `MAIL_MAX_PER_RECIPIENT_PER_HOUR`
 * mails to one address an hour; the address is kept as its SHA-256 only).
 */
export class ReportOnceMailThrottle1732420000000 implements MigrationInterface {
  name = 'ReportOnceMailThrottle1732420000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE privacy_session_reports (
      session_id uuid NOT NULL REFERENCES privacy_sessions(id) ON DELETE CASCADE,
      content_key text NOT NULL,
      artifact_id uuid NOT NULL REFERENCES artifacts(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (session_id, content_key))`);
    await q.query('CREATE INDEX idx_privacy_session_reports_artifact ON privacy_session_reports(artifact_id)');
    await q.query(`CREATE TABLE mail_recipient_windows (
      recipient_hash text NOT NULL,
      window_start timestamptz NOT NULL,
      count integer NOT NULL,
      PRIMARY KEY (recipient_hash, window_start))`);
    await q.query('CREATE INDEX idx_mail_recipient_windows_start ON mail_recipient_windows(window_start)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS mail_recipient_windows');
    await q.query('DROP TABLE IF EXISTS privacy_session_reports');
  }
}

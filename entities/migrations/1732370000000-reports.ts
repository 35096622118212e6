import { MigrationInterface, QueryRunner } from 'typeorm';

/** Reports: one row per document asked for, moved by its `report_generate` job. */
export class Reports1732370000000 implements MigrationInterface {
  name = 'Reports1732370000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE reports (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('experiment','model','project','deployment','synthgen')),
      entity_id uuid NOT NULL,
      status text NOT NULL CHECK (status IN ('queued','running','succeeded','failed','canceled')),
      options jsonb NOT NULL,
      summary jsonb NOT NULL DEFAULT '{}',
      artifact_id uuid REFERENCES artifacts(id) ON DELETE SET NULL,
      job_id uuid REFERENCES jobs(id) ON DELETE SET NULL,
      error text,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query('CREATE INDEX idx_reports_project_created ON reports(project_id, created_at)');
    await q.query('CREATE INDEX idx_reports_entity ON reports(entity_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS reports');
  }
}

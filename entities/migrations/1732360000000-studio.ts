import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The what-if studio: sessions (a baseline scored by a deployment) and their scenarios. Both go
 * with their project and their deployment (which goes with its model), so no delete leaves a
 * session behind.
 */
export class Studio1732360000000 implements MigrationInterface {
  name = 'Studio1732360000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE studio_sessions (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      deployment_id uuid NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      feature_schema jsonb NOT NULL,
      baseline_input jsonb NOT NULL,
      baseline_output jsonb NOT NULL,
      baseline_contributions jsonb NOT NULL DEFAULT '[]'::jsonb,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_studio_sessions_project ON studio_sessions(project_id, created_at)`);
    await q.query(`CREATE INDEX idx_studio_sessions_deployment ON studio_sessions(deployment_id)`);

    await q.query(`CREATE TABLE studio_scenarios (
      id uuid PRIMARY KEY,
      session_id uuid NOT NULL REFERENCES studio_sessions(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text,
      changes jsonb NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','running','succeeded','failed')),
      scenario_input jsonb NOT NULL,
      output jsonb,
      contributions jsonb,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_studio_scenarios_session ON studio_scenarios(session_id, created_at)`);
    await q.query(`CREATE INDEX idx_studio_scenarios_project ON studio_scenarios(project_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS studio_scenarios');
    await q.query('DROP TABLE IF EXISTS studio_sessions');
  }
}

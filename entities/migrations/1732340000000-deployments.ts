import { MigrationInterface, QueryRunner } from 'typeorm';

/** Deployments, their append-only transition history, inference logs and drift results. */
export class Deployments1732340000000 implements MigrationInterface {
  name = 'Deployments1732340000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE deployments (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      model_id uuid NOT NULL REFERENCES models(id) ON DELETE CASCADE,
      name text NOT NULL,
      stage text NOT NULL CHECK (stage IN ('staging','production','archived')),
      is_active boolean NOT NULL DEFAULT true,
      traffic_percent integer NOT NULL DEFAULT 100 CHECK (traffic_percent BETWEEN 1 AND 100),
      config jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (stage <> 'archived' OR NOT is_active))`);
    await q.query(`CREATE INDEX idx_deployments_project ON deployments(project_id, created_at)`);
    await q.query(`CREATE INDEX idx_deployments_model ON deployments(model_id)`);
    // The database, not the service, guarantees one serving production deployment per project:
    // two promotes racing each other cannot both commit.
    await q.query(`CREATE UNIQUE INDEX uq_deployments_one_production ON deployments(project_id) WHERE stage = 'production' AND is_active`);

    await q.query(`CREATE TABLE deployment_transitions (
      id bigserial PRIMARY KEY,
      deployment_id uuid NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      from_stage text,
      to_stage text NOT NULL,
      model_id uuid NOT NULL,
      actor_id uuid REFERENCES users(id) ON DELETE SET NULL,
      reason text NOT NULL,
      at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_deployment_transitions_deployment ON deployment_transitions(deployment_id, id)`);
    await q.query(`CREATE INDEX idx_deployment_transitions_project ON deployment_transitions(project_id, at)`);

    await q.query(`CREATE TABLE inference_logs (
      id bigserial PRIMARY KEY,
      deployment_id uuid NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      requested_deployment_id uuid NOT NULL,
      model_id uuid NOT NULL,
      project_id uuid NOT NULL,
      request_id text NOT NULL,
      latency_ms double precision NOT NULL,
      status_code integer NOT NULL,
      prediction jsonb,
      inputs jsonb,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_inference_logs_deployment ON inference_logs(deployment_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS inference_logs');
    await q.query('DROP TABLE IF EXISTS deployment_transitions');
    await q.query('DROP TABLE IF EXISTS deployments');
  }
}

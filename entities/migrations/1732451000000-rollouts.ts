import { MigrationInterface, QueryRunner } from 'typeorm';

/** Rollout strategies (canary, blue-green, shadow): one open rollout per deployment, held by a partial unique index. */
export class Rollouts1732451000000 implements MigrationInterface {
  name = 'Rollouts1732451000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE rollouts (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      deployment_id uuid NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      candidate_model_id uuid NOT NULL REFERENCES models(id) ON DELETE CASCADE,
      version_id uuid,
      candidate_deployment_id uuid REFERENCES deployments(id) ON DELETE SET NULL,
      kind text NOT NULL CHECK (kind IN ('canary','blue_green','shadow')),
      state text NOT NULL CHECK (state IN ('running','paused','promoted','rolled_back','aborted','completed','failed')),
      step_index integer NOT NULL DEFAULT 0,
      steps jsonb NOT NULL DEFAULT '[]',
      options jsonb NOT NULL DEFAULT '{}',
      current_traffic_percent integer NOT NULL DEFAULT 0,
      gates_last jsonb NOT NULL DEFAULT '[]',
      history jsonb NOT NULL DEFAULT '[]',
      reason text,
      workflow_id text NOT NULL,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz)`);
    await q.query(`CREATE INDEX idx_rollouts_deployment ON rollouts(deployment_id, created_at)`);
    await q.query(`CREATE INDEX idx_rollouts_project ON rollouts(project_id, created_at)`);
    await q.query(`CREATE UNIQUE INDEX uq_rollouts_one_open ON rollouts(deployment_id) WHERE state IN ('running','paused')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE rollouts`);
  }
}

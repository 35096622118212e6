import { MigrationInterface, QueryRunner } from 'typeorm';

/** Retraining (issue 31): policies of a registered model, their jobs, and every trigger they received (started or skipped). */
export class Retraining1732453000000 implements MigrationInterface {
  name = 'Retraining1732453000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE retraining_policies (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      registered_model_id uuid NOT NULL REFERENCES registered_models(id) ON DELETE CASCADE,
      name text NOT NULL,
      enabled boolean NOT NULL DEFAULT true,
      triggers jsonb NOT NULL,
      experiment jsonb NOT NULL DEFAULT '{}',
      gate jsonb NOT NULL,
      outcome text NOT NULL CHECK (outcome IN ('register','shadow','canary','auto_promote','approval')),
      canary jsonb,
      cooldown_secs integer NOT NULL CHECK (cooldown_secs >= 0),
      slice_dataset_id uuid REFERENCES datasets(id) ON DELETE SET NULL,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_retraining_policies_project ON retraining_policies(project_id, created_at)`);
    await q.query(`CREATE INDEX idx_retraining_policies_model ON retraining_policies(registered_model_id)`);

    // Versions, experiments and rollouts a job names may be deleted later: the job keeps its story (plain uuids).
    await q.query(`CREATE TABLE retraining_jobs (
      id uuid PRIMARY KEY,
      policy_id uuid NOT NULL REFERENCES retraining_policies(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      registered_model_id uuid NOT NULL,
      trigger jsonb NOT NULL,
      state text NOT NULL CHECK (state IN ('queued','training','evaluating','awaiting_approval','promoted','rejected','registered','failed')),
      job_id uuid,
      experiment_id uuid,
      dataset_version_id uuid,
      training_version_id uuid,
      holdout_seed integer NOT NULL,
      holdout_rows integer,
      champion_version_id uuid,
      challenger_version_id uuid,
      rollout_id uuid,
      transition_request_id uuid,
      evaluation jsonb,
      reason text,
      status text NOT NULL,
      error text,
      started_at timestamptz,
      finished_at timestamptz,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_retraining_jobs_policy ON retraining_jobs(policy_id, created_at)`);
    await q.query(`CREATE INDEX idx_retraining_jobs_project ON retraining_jobs(project_id, created_at)`);

    await q.query(`CREATE TABLE retraining_triggers (
      id bigserial PRIMARY KEY,
      policy_id uuid NOT NULL REFERENCES retraining_policies(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      kind text NOT NULL,
      detail jsonb NOT NULL DEFAULT '{}',
      outcome text NOT NULL CHECK (outcome IN ('started','skipped')),
      reason text,
      retraining_job_id uuid,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_retraining_triggers_policy ON retraining_triggers(policy_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE retraining_triggers');
    await q.query('DROP TABLE retraining_jobs');
    await q.query('DROP TABLE retraining_policies');
  }
}

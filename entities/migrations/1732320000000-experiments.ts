import { MigrationInterface, QueryRunner } from 'typeorm';

/** Experiments, their models and their logs. */
export class Experiments1732320000000 implements MigrationInterface {
  name = 'Experiments1732320000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE experiments (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      dataset_version_id uuid NOT NULL REFERENCES dataset_versions(id) ON DELETE RESTRICT,
      name text NOT NULL,
      target_column text NOT NULL,
      problem_type text NOT NULL,
      problem_kind text NOT NULL,
      status text NOT NULL CHECK (status IN ('queued','running','succeeded','failed','canceled')),
      config jsonb NOT NULL,
      use_gpu boolean NOT NULL DEFAULT false,
      job_id uuid,
      best_model_id uuid,
      error text,
      progress jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_experiments_project ON experiments(project_id)`);
    await q.query(`CREATE INDEX idx_experiments_version ON experiments(dataset_version_id)`);
    await q.query(`CREATE TABLE models (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      experiment_id uuid NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
      name text NOT NULL,
      algo text NOT NULL,
      is_best boolean NOT NULL DEFAULT false,
      is_production boolean NOT NULL DEFAULT false,
      is_staging boolean NOT NULL DEFAULT false,
      staging_deployment_id uuid,
      metrics jsonb NOT NULL,
      parameters jsonb NOT NULL,
      explain jsonb NOT NULL,
      artifact_id uuid NOT NULL REFERENCES artifacts(id),
      onnx_artifact_id uuid REFERENCES artifacts(id),
      training_time_ms integer NOT NULL,
      predict_time_per_row_ms double precision NOT NULL,
      sequence integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (experiment_id, name))`);
    await q.query(`CREATE INDEX idx_models_project ON models(project_id)`);
    await q.query(`CREATE INDEX idx_models_experiment ON models(experiment_id)`);
    await q.query(`CREATE TABLE experiment_logs (
      id bigserial PRIMARY KEY,
      experiment_id uuid NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
      source text NOT NULL,
      level text NOT NULL,
      message text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_experiment_logs ON experiment_logs(experiment_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS experiment_logs');
    await q.query('DROP TABLE IF EXISTS models');
    await q.query('DROP TABLE IF EXISTS experiments');
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SynthGen: generative models trained on a dataset version, and their train and generate jobs. A synthgen job
 * shares its id with its `jobs` row and goes with it; models go with their project, and keep their training data
 * (a version a model was trained on cannot be deleted under it, as for experiments).
 */
export class Synthgen1732390000000 implements MigrationInterface {
  name = 'Synthgen1732390000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE synthgen_models (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      dataset_id uuid NOT NULL REFERENCES datasets(id) ON DELETE RESTRICT,
      dataset_version_id uuid NOT NULL REFERENCES dataset_versions(id) ON DELETE RESTRICT,
      name text NOT NULL,
      model_type text NOT NULL CHECK (model_type IN ('ctgan','copulagan','tvae','gaussian_copula')),
      status text NOT NULL CHECK (status IN ('pending','ready','failed')),
      config jsonb NOT NULL DEFAULT '{}',
      use_gpu boolean NOT NULL DEFAULT false,
      error text,
      artifact_id uuid REFERENCES artifacts(id) ON DELETE SET NULL,
      checkpoint_artifact_id uuid REFERENCES artifacts(id) ON DELETE SET NULL,
      checkpoint_epoch integer,
      train_job_id uuid REFERENCES jobs(id) ON DELETE SET NULL,
      training_rows integer,
      holdout_rows integer,
      columns jsonb,
      training_secs double precision,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query('CREATE INDEX idx_synthgen_models_project_created ON synthgen_models(project_id, created_at)');
    await q.query('CREATE INDEX idx_synthgen_models_version ON synthgen_models(dataset_version_id)');

    await q.query(`CREATE TABLE synthgen_jobs (
      id uuid PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      model_id uuid NOT NULL REFERENCES synthgen_models(id) ON DELETE CASCADE,
      job_type text NOT NULL CHECK (job_type IN ('train','generate')),
      status text NOT NULL CHECK (status IN ('pending','running','completed','failed')),
      config jsonb NOT NULL DEFAULT '{}',
      error text,
      output_artifact_id uuid REFERENCES artifacts(id) ON DELETE SET NULL,
      parquet_artifact_id uuid REFERENCES artifacts(id) ON DELETE SET NULL,
      rows_generated integer,
      quality jsonb,
      privacy jsonb,
      log jsonb NOT NULL DEFAULT '[]',
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query('CREATE INDEX idx_synthgen_jobs_project_created ON synthgen_jobs(project_id, created_at)');
    await q.query('CREATE INDEX idx_synthgen_jobs_model ON synthgen_jobs(model_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS synthgen_jobs');
    await q.query('DROP TABLE IF EXISTS synthgen_models');
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/** Datasets, their versions and the per-project quality policy. */
export class Datasets1732310000000 implements MigrationInterface {
  name = 'Datasets1732310000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE datasets (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_datasets_project ON datasets(project_id)`);
    await q.query(`CREATE TABLE dataset_versions (
      id uuid PRIMARY KEY,
      dataset_id uuid NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      version integer NOT NULL CHECK (version >= 0),
      description text NOT NULL DEFAULT '',
      row_count bigint NOT NULL,
      column_count integer NOT NULL,
      columns jsonb NOT NULL,
      artifact_id uuid NOT NULL REFERENCES artifacts(id),
      source jsonb NOT NULL,
      quality jsonb NOT NULL,
      statistics jsonb,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (dataset_id, version))`);
    await q.query(`CREATE TABLE project_quality_policies (
      project_id uuid PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
      policy jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS project_quality_policies');
    await q.query('DROP TABLE IF EXISTS dataset_versions');
    await q.query('DROP TABLE IF EXISTS datasets');
  }
}

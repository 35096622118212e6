import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The builder (issue 35): sessions on a dataset version, their five steps and their chat. Everything goes with its
 * project, and a session with its source version (its steps' input); the version a session produced only loses the
 * link. Step outputs are artifacts owned by the session (`owner_type` `builder_session`), removed with it by the service.
 */
export class Builder1732480000000 implements MigrationInterface {
  name = 'Builder1732480000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE builder_sessions (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      dataset_id uuid NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      source_version_id uuid NOT NULL REFERENCES dataset_versions(id) ON DELETE CASCADE,
      name text NOT NULL,
      target_column text,
      allow_sample boolean NOT NULL DEFAULT false,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open','finalizing','finalized','failed')),
      error text,
      result_version_id uuid REFERENCES dataset_versions(id) ON DELETE SET NULL,
      recipe jsonb,
      replayable boolean,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query('CREATE INDEX idx_builder_sessions_project ON builder_sessions(project_id, created_at)');
    await q.query('CREATE INDEX idx_builder_sessions_dataset ON builder_sessions(dataset_id)');
    await q.query('CREATE INDEX idx_builder_sessions_source ON builder_sessions(source_version_id)');

    await q.query(`CREATE TABLE builder_steps (
      id uuid PRIMARY KEY,
      session_id uuid NOT NULL REFERENCES builder_sessions(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name text NOT NULL,
      position int NOT NULL,
      status text NOT NULL DEFAULT 'proposed' CHECK (status IN ('proposed','executing','executed','failed','rejected')),
      error text,
      operations jsonb NOT NULL DEFAULT '[]'::jsonb,
      proposed_by text,
      preview jsonb,
      summary jsonb,
      output_artifact_id uuid REFERENCES artifacts(id) ON DELETE SET NULL,
      output_columns jsonb,
      output_rows bigint,
      uploaded boolean NOT NULL DEFAULT false,
      executed_operations jsonb,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query('CREATE UNIQUE INDEX idx_builder_steps_position ON builder_steps(session_id, position)');

    await q.query(`CREATE TABLE builder_messages (
      id uuid PRIMARY KEY,
      session_id uuid NOT NULL REFERENCES builder_sessions(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      step text NOT NULL,
      role text NOT NULL CHECK (role IN ('user','assistant')),
      content text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query('CREATE INDEX idx_builder_messages_session ON builder_messages(session_id, created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS builder_messages');
    await q.query('DROP TABLE IF EXISTS builder_steps');
    await q.query('DROP TABLE IF EXISTS builder_sessions');
  }
}

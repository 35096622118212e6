import { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts, projects, jobs, artifacts and rate-limit windows. */
export class InitialSchema1732300000000 implements MigrationInterface {
  name = 'InitialSchema1732300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE users (
      id uuid PRIMARY KEY,
      email text NOT NULL UNIQUE,
      name text NOT NULL,
      password_hash text NOT NULL,
      is_superuser boolean NOT NULL DEFAULT false,
      email_verified_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE TABLE auth_sessions (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      csrf_token text NOT NULL,
      remember boolean NOT NULL DEFAULT false,
      user_agent text,
      ip text,
      expires_at timestamptz NOT NULL,
      last_seen_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_auth_sessions_user ON auth_sessions(user_id)`);
    await q.query(`CREATE TABLE api_keys (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name text NOT NULL,
      prefix text NOT NULL UNIQUE,
      secret_hash text NOT NULL,
      scopes jsonb NOT NULL,
      last_used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_api_keys_user ON api_keys(user_id)`);
    await q.query(`CREATE TABLE email_tokens (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      purpose text NOT NULL,
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_email_tokens_user ON email_tokens(user_id)`);
    await q.query(`CREATE TABLE projects (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      status text NOT NULL DEFAULT 'active',
      owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_projects_owner ON projects(owner_id)`);
    await q.query(`CREATE TABLE project_members (
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('viewer','editor','admin','owner')),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (project_id, user_id))`);
    await q.query(`CREATE INDEX idx_project_members_user ON project_members(user_id)`);
    await q.query(`CREATE TABLE jobs (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      kind text NOT NULL,
      entity_id uuid,
      status text NOT NULL CHECK (status IN ('queued','running','succeeded','failed','canceled')),
      progress integer NOT NULL DEFAULT 0,
      message text,
      error text,
      input jsonb NOT NULL DEFAULT '{}'::jsonb,
      result jsonb,
      workflow_id text NOT NULL UNIQUE,
      run_id text,
      task_queue text NOT NULL,
      attempt integer NOT NULL DEFAULT 0,
      created_by uuid,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_jobs_project ON jobs(project_id)`);
    await q.query(`CREATE INDEX idx_jobs_status ON jobs(status)`);
    await q.query(`CREATE TABLE artifacts (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      kind text NOT NULL,
      owner_type text,
      owner_id uuid,
      filename text NOT NULL,
      content_type text NOT NULL,
      size_bytes bigint NOT NULL,
      sha256 text,
      storage_key text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_artifacts_project ON artifacts(project_id)`);
    await q.query(`CREATE TABLE rate_limit_windows (
      bucket_key text NOT NULL,
      window_start timestamptz NOT NULL,
      count integer NOT NULL,
      PRIMARY KEY (bucket_key, window_start))`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['rate_limit_windows', 'artifacts', 'jobs', 'project_members', 'projects', 'email_tokens', 'api_keys', 'auth_sessions', 'users']) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}

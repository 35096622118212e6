import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The privacy suite: policies with their rules, sessions with their detection results, and each
 * project's key material. Everything goes with its project; rules and results with their policy
 * and session.
 */
export class Privacy1732380000000 implements MigrationInterface {
  name = 'Privacy1732380000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE privacy_policies (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text,
      profile text NOT NULL CHECK (profile IN ('hipaa','gdpr','pci_dss','ccpa','custom')),
      status text NOT NULL CHECK (status IN ('draft','active')),
      settings jsonb NOT NULL DEFAULT '{}',
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query('CREATE INDEX idx_privacy_policies_project_created ON privacy_policies(project_id, created_at)');

    await q.query(`CREATE TABLE privacy_rules (
      id uuid PRIMARY KEY,
      policy_id uuid NOT NULL REFERENCES privacy_policies(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      pii_type text NOT NULL,
      action text NOT NULL CHECK (action IN ('mask','hash','redact','encrypt','generalize','suppress','pseudonymize')),
      is_enabled boolean NOT NULL DEFAULT true,
      priority integer NOT NULL DEFAULT 0,
      config jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query('CREATE INDEX idx_privacy_rules_policy ON privacy_rules(policy_id)');

    await q.query(`CREATE TABLE privacy_sessions (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      policy_id uuid NOT NULL REFERENCES privacy_policies(id) ON DELETE CASCADE,
      dataset_id uuid NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      dataset_version_id uuid NOT NULL REFERENCES dataset_versions(id) ON DELETE CASCADE,
      sample_size integer CHECK (sample_size > 0),
      deep_scan boolean NOT NULL DEFAULT false,
      status text NOT NULL CHECK (status IN ('created','detecting','detected','transforming','completed','failed','canceled')),
      error text,
      rows_scanned integer NOT NULL DEFAULT 0,
      columns_analyzed integer NOT NULL DEFAULT 0,
      pii_columns integer NOT NULL DEFAULT 0,
      pii_instances integer NOT NULL DEFAULT 0,
      detected boolean NOT NULL DEFAULT false,
      output_artifact_id uuid REFERENCES artifacts(id) ON DELETE SET NULL,
      job_id uuid REFERENCES jobs(id) ON DELETE SET NULL,
      detect_job_id uuid REFERENCES jobs(id) ON DELETE SET NULL,
      transform_job_id uuid REFERENCES jobs(id) ON DELETE SET NULL,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query('CREATE INDEX idx_privacy_sessions_project_created ON privacy_sessions(project_id, created_at)');
    await q.query('CREATE INDEX idx_privacy_sessions_policy ON privacy_sessions(policy_id)');

    await q.query(`CREATE TABLE privacy_results (
      id uuid PRIMARY KEY,
      session_id uuid NOT NULL REFERENCES privacy_sessions(id) ON DELETE CASCADE,
      "column" text NOT NULL,
      pii_type text NOT NULL,
      scope text NOT NULL CHECK (scope IN ('column','cells')),
      confidence double precision NOT NULL,
      instances integer NOT NULL,
      samples jsonb NOT NULL DEFAULT '[]',
      evidence jsonb NOT NULL DEFAULT '[]',
      action text,
      transformed boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query('CREATE INDEX idx_privacy_results_session ON privacy_results(session_id)');

    await q.query(`CREATE TABLE privacy_project_secrets (
      project_id uuid PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
      hmac_secret bytea NOT NULL,
      encryption_key bytea NOT NULL,
      key_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS privacy_project_secrets');
    await q.query('DROP TABLE IF EXISTS privacy_results');
    await q.query('DROP TABLE IF EXISTS privacy_sessions');
    await q.query('DROP TABLE IF EXISTS privacy_rules');
    await q.query('DROP TABLE IF EXISTS privacy_policies');
  }
}

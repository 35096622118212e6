import { MigrationInterface, QueryRunner } from 'typeorm';

/** A/B tests: the tests, the requests each assigned to a variant, and posted business outcomes. */
export class AbTests1732452000000 implements MigrationInterface {
  name = 'AbTests1732452000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE ab_tests (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      state text NOT NULL CHECK (state IN ('draft','running','concluded')),
      variants jsonb NOT NULL,
      primary_metric text NOT NULL CHECK (primary_metric IN ('accuracy','log_loss','conversion','revenue')),
      alpha double precision NOT NULL CHECK (alpha > 0 AND alpha < 1),
      min_samples integer NOT NULL CHECK (min_samples >= 1),
      conclusion jsonb,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      started_at timestamptz,
      concluded_at timestamptz,
      promoted_at timestamptz,
      promoted_deployment_id uuid REFERENCES deployments(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_ab_tests_project ON ab_tests(project_id, created_at)`);

    await q.query(`CREATE TABLE ab_assignments (
      test_id uuid NOT NULL REFERENCES ab_tests(id) ON DELETE CASCADE,
      request_id text NOT NULL,
      variant text NOT NULL,
      deployment_id uuid NOT NULL,
      predictions jsonb,
      probabilities jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (test_id, request_id))`);
    await q.query(`CREATE INDEX idx_ab_assignments_variant ON ab_assignments(test_id, variant)`);

    await q.query(`CREATE TABLE ab_outcomes (
      test_id uuid NOT NULL REFERENCES ab_tests(id) ON DELETE CASCADE,
      request_id text NOT NULL,
      value double precision NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (test_id, request_id))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ab_outcomes`);
    await q.query(`DROP TABLE ab_assignments`);
    await q.query(`DROP TABLE ab_tests`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/** Drift results of deployments (one row per `drift_compute` job). */
export class Drift1732350000000 implements MigrationInterface {
  name = 'Drift1732350000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE drift_results (
      id bigserial PRIMARY KEY,
      deployment_id uuid NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      job_id uuid UNIQUE REFERENCES jobs(id) ON DELETE SET NULL,
      model_id uuid NOT NULL,
      dataset_version_id uuid NOT NULL,
      overall_status text NOT NULL CHECK (overall_status IN ('low','moderate','high')),
      max_psi double precision NOT NULL,
      features jsonb NOT NULL,
      inference_rows integer NOT NULL,
      reference_rows bigint NOT NULL,
      window_start timestamptz,
      window_end timestamptz,
      computed_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX idx_drift_results_deployment ON drift_results(deployment_id, computed_at)`);
    // The drift job asks for a deployment's newest logged payloads.
    await q.query(`CREATE INDEX idx_inference_logs_payloads ON inference_logs(deployment_id, id) WHERE inputs IS NOT NULL AND status_code = 200`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS idx_inference_logs_payloads');
    await q.query('DROP TABLE IF EXISTS drift_results');
  }
}

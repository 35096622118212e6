import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Inference logs keep the warnings of their request: keys that are not input columns of the model, and features the
 * rows did not send (services/model-serving.ts `schemaWarnings`), as the predict answer named them.
 */
export class InferenceLogWarnings1732410000000 implements MigrationInterface {
  name = 'InferenceLogWarnings1732410000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE inference_logs ADD COLUMN warnings jsonb');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE inference_logs DROP COLUMN IF EXISTS warnings');
  }
}

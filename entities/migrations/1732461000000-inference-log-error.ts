import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `detail` a refused predict request was answered with (issue 33): a log row with status 422 and a null
 * prediction said nothing of why. Stored as the answer's JSON (a text, or the validation issues `[{loc, msg, type}]`).
 */
export class InferenceLogError1732461000000 implements MigrationInterface {
  name = 'InferenceLogError1732461000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE inference_logs ADD COLUMN error jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE inference_logs DROP COLUMN error');
  }
}

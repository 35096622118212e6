import { MigrationInterface, QueryRunner } from 'typeorm';

/** Leakage warnings found before training (issue 33): one entry per feature that alone predicts the target. */
export class ExperimentWarnings1732460000000 implements MigrationInterface {
  name = 'ExperimentWarnings1732460000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE experiments ADD COLUMN warnings jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE experiments DROP COLUMN warnings');
  }
}

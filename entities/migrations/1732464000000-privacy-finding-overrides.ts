import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-session overrides of a privacy finding (issue 33): a finding left out of one session (`excluded`), or given
 * another action than its policy's (`action_override`). A new detection of the session carries them over by column,
 * type and scope (activities/privacy-detect/detect.ts).
 */
export class PrivacyFindingOverrides1732464000000 implements MigrationInterface {
  name = 'PrivacyFindingOverrides1732464000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE privacy_results ADD COLUMN excluded boolean NOT NULL DEFAULT false');
    await q.query('ALTER TABLE privacy_results ADD COLUMN action_override text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE privacy_results DROP COLUMN action_override');
    await q.query('ALTER TABLE privacy_results DROP COLUMN excluded');
  }
}

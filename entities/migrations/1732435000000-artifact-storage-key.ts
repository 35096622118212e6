import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Artifacts found by storage key: the sweep of unreferenced stored files (services/artifact-sweep.ts) asks which of a
 * batch of keys any row names, once per batch of the whole store.
 */
export class ArtifactStorageKey1732435000000 implements MigrationInterface {
  name = 'ArtifactStorageKey1732435000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX IF NOT EXISTS idx_artifacts_storage_key ON artifacts(storage_key)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS idx_artifacts_storage_key');
  }
}

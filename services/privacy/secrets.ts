import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { ProjectSecrets } from '../../engine/privacy';
import { PrivacyProjectSecret } from '../../entities';

/**
 * A project's privacy key material, made on first use (concurrent first uses agree: the insert
 * that loses keeps the winner's). It lives only in the database and in the workers' memory while
 * a transform runs; no endpoint answers it.
 */
export async function projectSecrets(ds: DataSource, projectId: string): Promise<ProjectSecrets> {
  await ds.query(`INSERT INTO privacy_project_secrets (project_id, hmac_secret, encryption_key, key_id) VALUES ($1, $2, $3, $4) ON CONFLICT (project_id) DO NOTHING`, [
    projectId,
    randomBytes(32),
    randomBytes(32),
    `p${randomBytes(4).toString('hex')}`,
  ]);
  const row = await ds.getRepository(PrivacyProjectSecret).findOneByOrFail({ projectId });
  return { hmacSecret: row.hmacSecret, encryptionKey: row.encryptionKey, keyId: row.keyId };
}

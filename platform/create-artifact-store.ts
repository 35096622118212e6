import type { ArtifactStore, StoreLog } from './artifact-store';
import type { Config } from './config';
import { LocalArtifactStore } from './local-artifact-store';
import type * as S3Store from './s3-artifact-store';

/**
 * The artifact store the configuration names (`ARTIFACT_STORE`): the local folder by default, else the S3 bucket.
 * The S3 implementation (and the AWS SDK, ~170 ms to load) is loaded only when configured.
 */
export function createArtifactStore(config: Pick<Config, 'artifactDir' | 'artifactStore'>, log?: StoreLog): ArtifactStore {
  const { s3, cacheDir, cacheMaxBytes } = config.artifactStore;
  if (!s3) return new LocalArtifactStore(config.artifactDir, log);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { S3ArtifactStore } = require('./s3-artifact-store') as typeof S3Store;
  return new S3ArtifactStore({ ...s3, cacheDir, cacheMaxBytes, log });
}

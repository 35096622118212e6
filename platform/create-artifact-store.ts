import type { ArtifactStore, StoreLog } from './artifact-store';
import type { Config } from './config';
import { LocalArtifactStore } from './local-artifact-store';
import { S3ArtifactStore } from './s3-artifact-store';

/** The artifact store the configuration names (`ARTIFACT_STORE`): the local folder by default, else the S3 bucket. */
export function createArtifactStore(config: Pick<Config, 'artifactDir' | 'artifactStore'>, log?: StoreLog): ArtifactStore {
  const { s3, cacheDir, cacheMaxBytes } = config.artifactStore;
  if (!s3) return new LocalArtifactStore(config.artifactDir, log);
  return new S3ArtifactStore({ ...s3, cacheDir, cacheMaxBytes, log });
}

import { IsNull, type DataSource } from 'typeorm';
import { analyze } from '../engine/data';
import { Artifact, DatasetVersion } from '../entities';
import type { ArtifactStore } from './artifact-store';

/** What profiling a version did: `computed` when it stored the profile; `skipped` says why it had nothing to do. */
export type ProfileResult = {
  version_id: string;
  row_count: number;
  computed: boolean;
  skipped?: string;
};

/** How often `heartbeat` is called while DuckDB computes (it reports no progress of its own). */
const HEARTBEAT_MS = 5000;

/**
 * The exact profile of a dataset version (what `GET /api/datasets/{id}/analyze` answers), stored on the version
 * unless someone stored it first. Shared by the `dataset_profile` job and a request's analyze. A version deleted in
 * the meantime leaves nothing to do, which is not a failure.
 */
export async function profileVersion(ds: DataSource, store: ArtifactStore, versionId: string, heartbeat: () => void = () => undefined): Promise<ProfileResult> {
  const version = await ds.getRepository(DatasetVersion).findOneBy({ id: versionId });
  const artifact = version ? await ds.getRepository(Artifact).findOneBy({ id: version.artifactId }) : null;
  if (!version || !artifact) return { version_id: versionId, row_count: 0, computed: false, skipped: 'the dataset version was deleted' };
  if (version.statistics) return { version_id: versionId, row_count: version.rowCount, computed: false, skipped: 'already profiled' };
  const beat = setInterval(heartbeat, HEARTBEAT_MS);
  try {
    const statistics = await analyze(store.pathOf(artifact.storageKey));
    const written = await ds.getRepository(DatasetVersion).update({ id: versionId, statistics: IsNull() }, { statistics: statistics as never });
    return { version_id: versionId, row_count: version.rowCount, computed: (written.affected ?? 0) > 0 };
  } finally {
    clearInterval(beat);
  }
}

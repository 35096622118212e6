import { Context } from '@temporalio/activity';
import { IsNull, type DataSource } from 'typeorm';
import { analyze } from '../engine/data';
import { Artifact, DatasetVersion, Job } from '../entities';
import type { ArtifactStore } from '../platform/artifact-store';
import { createProgressWriter } from './jobs';

/** What the job did: `computed` when it stored the profile; `skipped` says why it had nothing to do. */
export type ProfileResult = {
  version_id: string;
  row_count: number;
  computed: boolean;
  skipped?: string;
};

export interface ProfileActivities {
  profileDatasetVersion(input: { jobId: string; versionId: string }): Promise<ProfileResult>;
}

/** How often the activity heartbeats while DuckDB computes (it reports no progress of its own). */
const HEARTBEAT_MS = 5000;

/**
 * The exact profile of a dataset version, stored on the version unless a request's analyze stored it first. A version
 * deleted in the meantime leaves nothing to do, which is not a failure. `heartbeat` is called every few seconds
 * while DuckDB computes.
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

/**
 * The `dataset_profile` job's activity (see {@link profileVersion}). DuckDB's queries are not interruptible from
 * here, so a canceled job's profile runs to its end and is still kept (it is the same profile a request would compute).
 */
export function createProfileActivities(ds: DataSource, store: ArtifactStore): ProfileActivities {
  return {
    async profileDatasetVersion({ jobId, versionId }) {
      const ctx = Context.current();
      await ds.getRepository(Job).update({ id: jobId }, { attempt: ctx.info.attempt });
      const report = createProgressWriter(ds, jobId, (d) => ctx.heartbeat(d));
      await report(0, `attempt ${ctx.info.attempt}: profiling`, true);
      return profileVersion(ds, store, versionId, () => ctx.heartbeat({ progress: 0, message: 'profiling' }));
    },
  };
}

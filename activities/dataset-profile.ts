import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { IsNull, type DataSource } from 'typeorm';
import { analyze } from '../engine/data';
import { Artifact, DatasetVersion, Job } from '../entities';
import type { ArtifactStore } from '../platform/artifact-store';
import { createProgressWriter } from './jobs';

export interface ProfileActivities {
  profileDatasetVersion(input: { jobId: string; versionId: string }): Promise<{ version_id: string; row_count: number; computed: boolean }>;
}

/** How often the activity heartbeats while DuckDB computes (it reports no progress of its own). */
const HEARTBEAT_MS = 5000;

/**
 * The `dataset_profile` job's activity: the exact profile of a version, stored on the version unless a request's
 * analyze stored it first. DuckDB's queries are not interruptible from here, so a canceled job's profile runs to its
 * end and is still kept (it is the same profile a request would compute).
 */
export function createProfileActivities(ds: DataSource, store: ArtifactStore): ProfileActivities {
  return {
    async profileDatasetVersion({ jobId, versionId }) {
      const ctx = Context.current();
      const version = await ds.getRepository(DatasetVersion).findOneBy({ id: versionId });
      if (!version) throw ApplicationFailure.nonRetryable(`Dataset version ${versionId} no longer exists`, 'NotFoundError');
      await ds.getRepository(Job).update({ id: jobId }, { attempt: ctx.info.attempt });
      if (version.statistics) return { version_id: versionId, row_count: version.rowCount, computed: false };
      const artifact = await ds.getRepository(Artifact).findOneBy({ id: version.artifactId });
      if (!artifact) throw ApplicationFailure.nonRetryable(`The data of dataset version ${versionId} no longer exists`, 'NotFoundError');
      const report = createProgressWriter(ds, jobId, (d) => ctx.heartbeat(d));
      await report(0, `attempt ${ctx.info.attempt}: profiling ${version.rowCount} rows`, true);
      const beat = setInterval(() => ctx.heartbeat({ progress: 0, message: 'profiling' }), HEARTBEAT_MS);
      try {
        const statistics = await analyze(store.pathOf(artifact.storageKey));
        const written = await ds.getRepository(DatasetVersion).update({ id: versionId, statistics: IsNull() }, { statistics: statistics as never });
        return { version_id: versionId, row_count: version.rowCount, computed: (written.affected ?? 0) > 0 };
      } finally {
        clearInterval(beat);
      }
    },
  };
}

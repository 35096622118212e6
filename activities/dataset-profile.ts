import { Context } from '@temporalio/activity';
import type { DataSource } from 'typeorm';
import { Job } from '../entities';
import type { ArtifactStore } from '../platform/artifact-store';
import { ProfileResult, profileVersion } from '../platform/dataset-profile';
import { createProgressWriter } from './jobs';

export interface ProfileActivities {
  profileDatasetVersion(input: { jobId: string; versionId: string }): Promise<ProfileResult>;
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

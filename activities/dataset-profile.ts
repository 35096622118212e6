import { Context } from '@temporalio/activity';
import type { Services } from '../services';
import type { ProfileResult } from '../services/dataset-versions';
import { domainFailures } from './failures';

export interface DatasetProfileActivities {
  profileDatasetVersion(input: { jobId: string; versionId: string }): Promise<ProfileResult>;
}

/**
 * The `dataset_profile` job's activity (see `DatasetVersions.profile`). DuckDB's queries are not
 * interruptible from here, so a canceled job's profile runs to its end and is still kept (it is
 * the same profile a request would compute).
 */
export function createDatasetProfileActivities({ jobs, datasetVersions }: Services): DatasetProfileActivities {
  return {
    profileDatasetVersion: ({ jobId, versionId }) =>
      domainFailures(async () => {
        const ctx = Context.current();
        await jobs.recordAttempt(jobId, ctx.info.attempt);
        const report = jobs.progressWriter(jobId, (d) => ctx.heartbeat(d));
        await report(0, `attempt ${ctx.info.attempt}: profiling`, true);
        return datasetVersions.profile(versionId, () => ctx.heartbeat({ progress: 0, message: 'profiling' }));
      }),
  };
}

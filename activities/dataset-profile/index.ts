import type { ProfileResult } from '../../services/dataset-versions';
import type { ActivityDeps } from '../deps';
import { jobActivity } from '../job-activity';

export interface DatasetProfileActivities {
  profileDatasetVersion(input: { jobId: string; versionId: string }): Promise<ProfileResult>;
}

/**
 * The `dataset_profile` job's worker side: the exact profile of a large new version, computed ahead of the first
 * analyze. The profiling itself is `DatasetVersions.profile`, shared with the analyze request that finds no profile
 * yet. DuckDB's queries are not interruptible from here and report nothing, so the step keeps its attempt alive
 * (`keepAlive`) and a canceled job's profile runs to its end and is still kept (it is the same profile a request
 * would compute).
 */
export function createDatasetProfileActivities({ services: { jobs, datasetVersions } }: ActivityDeps): DatasetProfileActivities {
  return {
    profileDatasetVersion: ({ jobId, versionId }) => jobActivity(jobs, jobId, 'profiling', (_progress, frame) => datasetVersions.profile(versionId, frame.keepAlive)),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createDatasetProfileActivities;

import type { ActivityDeps } from '../deps';
import { jobActivity } from '../job-activity';
import { transformPii, type PrivacyTransformResult } from './transform';

export type { PrivacyTransformResult };

export interface PrivacyTransformActivities {
  transformPii(input: { jobId: string; sessionId: string }): Promise<PrivacyTransformResult>;
}

/**
 * The `privacy_transform` job's worker side (`PrivacySessionService.transform` queues it; the work is transform.ts): a
 * canceled run stops between batches and keeps no file.
 */
export function createPrivacyTransformActivities({ services, dataSource, store }: ActivityDeps): PrivacyTransformActivities {
  const deps = { ds: dataSource, store, datasetVersions: services.datasetVersions, policies: services.privacyPolicies };
  return {
    transformPii: ({ jobId, sessionId }) => jobActivity(services.jobs, jobId, 'reading the dataset', (progress) => transformPii(deps, jobId, sessionId, progress)),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createPrivacyTransformActivities;

import type { ActivityDeps } from '../deps';
import { jobActivity } from '../job-activity';
import { detectPii, type PrivacyDetectResult } from './detect';

export type { PrivacyDetectResult };

export interface PrivacyDetectActivities {
  detectPii(input: { jobId: string; sessionId: string }): Promise<PrivacyDetectResult>;
}

/**
 * The `privacy_detect` job's worker side (`PrivacySessionService.detect` queues it; the work is detect.ts): a canceled
 * run stops between columns and stores nothing.
 */
export function createPrivacyDetectActivities({ services, dataSource }: ActivityDeps): PrivacyDetectActivities {
  const deps = { ds: dataSource, datasetVersions: services.datasetVersions, policies: services.privacyPolicies };
  return {
    detectPii: ({ jobId, sessionId }) => jobActivity(services.jobs, jobId, 'reading the dataset', (progress) => detectPii(deps, jobId, sessionId, progress)),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createPrivacyDetectActivities;

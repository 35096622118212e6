import type { ActivityDeps } from '../deps';
import type { PrivacyTransformResult } from '../../services/privacy/sessions';
import { jobActivity } from '../job-activity';

export interface PrivacyTransformActivities {
  transformPii(input: { jobId: string; sessionId: string }): Promise<PrivacyTransformResult>;
}

/** The `privacy_transform` job's activity (see `PrivacySessionService.runTransform`); a canceled run stops between batches and keeps no file. */
export function createPrivacyTransformActivities({ services: { jobs, privacySessions } }: ActivityDeps): PrivacyTransformActivities {
  return {
    transformPii: ({ jobId, sessionId }) => jobActivity(jobs, jobId, 'reading the dataset', (progress) => privacySessions.runTransform(jobId, sessionId, progress)),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createPrivacyTransformActivities;

import type { Services } from '../services';
import type { PrivacyTransformResult } from '../services/privacy/sessions';
import { jobActivity } from './job-activity';

export interface PrivacyTransformActivities {
  transformPii(input: { jobId: string; sessionId: string }): Promise<PrivacyTransformResult>;
}

/** The `privacy_transform` job's activity (see `PrivacySessionService.runTransform`); a canceled run stops between batches and keeps no file. */
export function createPrivacyTransformActivities({ jobs, privacySessions }: Services): PrivacyTransformActivities {
  return {
    transformPii: ({ jobId, sessionId }) => jobActivity(jobs, jobId, 'reading the dataset', (progress) => privacySessions.runTransform(jobId, sessionId, progress)),
  };
}

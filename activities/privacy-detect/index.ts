import type { ActivityDeps } from '../deps';
import type { PrivacyDetectResult } from '../../services/privacy/sessions';
import { jobActivity } from '../job-activity';

export interface PrivacyDetectActivities {
  detectPii(input: { jobId: string; sessionId: string }): Promise<PrivacyDetectResult>;
}

/** The `privacy_detect` job's activity (see `PrivacySessionService.runDetect`); a canceled run stops between columns and stores nothing. */
export function createPrivacyDetectActivities({ services: { jobs, privacySessions } }: ActivityDeps): PrivacyDetectActivities {
  return {
    detectPii: ({ jobId, sessionId }) => jobActivity(jobs, jobId, 'reading the dataset', (progress) => privacySessions.runDetect(jobId, sessionId, progress)),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createPrivacyDetectActivities;

import type { Services } from '../services';
import type { PrivacyDetectResult } from '../services/privacy/sessions';
import { jobActivity } from './job-activity';

export interface PrivacyDetectActivities {
  detectPii(input: { jobId: string; sessionId: string }): Promise<PrivacyDetectResult>;
}

/** The `privacy_detect` job's activity (see `PrivacySessionService.runDetect`); a canceled run stops between columns and stores nothing. */
export function createPrivacyDetectActivities({ jobs, privacySessions }: Services): PrivacyDetectActivities {
  return {
    detectPii: ({ jobId, sessionId }) => jobActivity(jobs, jobId, 'reading the dataset', (progress) => privacySessions.runDetect(jobId, sessionId, progress)),
  };
}

import { proxyActivities } from '@temporalio/workflow';
import type { PrivacyDetectActivities, PrivacyDetectResult } from '../activities/privacy-detect';
import { JobWorkflowInput, NON_RETRYABLE_ERROR_TYPES } from './job-input';
import { runJob } from './job-lifecycle';

export interface PrivacyDetectInput extends JobWorkflowInput {
  sessionId: string;
}

/** PII detection of a privacy session's dataset version (`POST /api/privacy/sessions/{id}/detect`); findings are read from `GET …/results`. */
export async function privacyDetectWorkflow(input: PrivacyDetectInput): Promise<PrivacyDetectResult> {
  const privacy = proxyActivities<PrivacyDetectActivities>({
    taskQueue: input.queues.cpu,
    startToCloseTimeout: '2h',
    // A killed worker stops heartbeating; the attempt then times out and another worker retries.
    heartbeatTimeout: '30s',
    retry: { maximumAttempts: 3, initialInterval: '2s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
  });
  return runJob(input, async (state) => {
    state.step = 'detecting';
    const result = await privacy.detectPii({ jobId: input.jobId, sessionId: input.sessionId });
    state.step = 'done';
    return result;
  });
}

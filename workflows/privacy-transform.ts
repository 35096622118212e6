import { proxyActivities } from '@temporalio/workflow';
import type { PrivacyTransformActivities, PrivacyTransformResult } from '../activities/privacy-transform';
import { JobWorkflowInput, NON_RETRYABLE_ERROR_TYPES } from './job-input';
import { runJob } from './job-lifecycle';

export interface PrivacyTransformInput extends JobWorkflowInput {
  sessionId: string;
}

/** A privacy session's dataset version through its policy into a new CSV artifact (`POST /api/privacy/sessions/{id}/transform`); `GET …/download` serves it. */
export async function privacyTransformWorkflow(input: PrivacyTransformInput): Promise<PrivacyTransformResult> {
  const privacy = proxyActivities<PrivacyTransformActivities>({
    taskQueue: input.queues.cpu,
    startToCloseTimeout: '2h',
    // A killed worker stops heartbeating; the attempt then times out and another worker retries.
    heartbeatTimeout: '30s',
    retry: { maximumAttempts: 3, initialInterval: '2s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
  });
  return runJob(input, async (state) => {
    state.step = 'transforming';
    const result = await privacy.transformPii({ jobId: input.jobId, sessionId: input.sessionId });
    state.step = 'done';
    return result;
  });
}

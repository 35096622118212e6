import { proxyActivities } from '@temporalio/workflow';
import type { RetentionActivities, RetentionJobResult } from '../activities/retention';
import { JobWorkflowInput, NON_RETRYABLE_ERROR_TYPES } from './job-input';
import { runJob } from './job-lifecycle';

const retention = proxyActivities<RetentionActivities>({
  startToCloseTimeout: '6h',
  // Every batch reports; a killed worker stops heartbeating and another attempt resumes from the rules.
  heartbeatTimeout: '30s',
  retry: { maximumAttempts: 5, initialInterval: '5s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
});

/** Applies the instance's retention policies (a snapshot taken when the job was queued): deletes or anonymizes what they no longer keep. */
export async function retentionWorkflow(input: JobWorkflowInput): Promise<RetentionJobResult> {
  return runJob(input, async (state) => {
    state.step = 'applying retention policies';
    const result = await retention.applyRetention({ jobId: input.jobId });
    state.step = 'done';
    return result;
  });
}

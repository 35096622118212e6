import { proxyActivities } from '@temporalio/workflow';
import type { DriftScheduleActivities } from '../activities/drift-compute';
import { NON_RETRYABLE_ERROR_TYPES } from './job-input';

/**
 * One run of a deployment's drift schedule (`drift_schedule`, services/drift-schedule.ts): queues a `drift_compute`
 * job as `POST …/drift/run` does, unless one is open or nothing logged can be compared yet. The job itself is its own
 * workflow, so a run of the schedule ends at once.
 */
export async function driftScheduleWorkflow(input: { deploymentId: string }): Promise<{ jobId: string | null }> {
  const drift = proxyActivities<DriftScheduleActivities>({
    startToCloseTimeout: '1m',
    retry: { maximumAttempts: 5, initialInterval: '2s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
  });
  return { jobId: await drift.startScheduledDrift(input.deploymentId) };
}

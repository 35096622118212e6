import { proxyActivities } from '@temporalio/workflow';
import type { RetrainingScheduleActivities } from '../activities/retraining-run';
import { NON_RETRYABLE_ERROR_TYPES } from './job-input';

/**
 * One run of a retraining policy's cron schedule (services/retraining/schedule.ts): triggers the policy, which starts a
 * `retraining_run` job unless its cooldown or an open job skips it (recorded). Ends at once.
 */
export async function retrainingScheduleWorkflow(input: { policyId: string }): Promise<{ retrainingJobId: string | null }> {
  const acts = proxyActivities<RetrainingScheduleActivities>({
    startToCloseTimeout: '1m',
    retry: { maximumAttempts: 5, initialInterval: '2s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
  });
  return { retrainingJobId: await acts.startScheduledRetraining(input.policyId) };
}

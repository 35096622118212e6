import { proxyActivities } from '@temporalio/workflow';
import type { RetentionScheduleActivities } from '../activities/retention';
import { NON_RETRYABLE_ERROR_TYPES } from './job-input';

/**
 * One run of the daily retention schedule (services/retention/schedule.ts): queues a `retention` job with the enabled
 * policies, unless one is open. The job is its own workflow, so a run of the schedule ends at once.
 */
export async function retentionScheduleWorkflow(): Promise<{ jobId: string | null }> {
  const acts = proxyActivities<RetentionScheduleActivities>({
    startToCloseTimeout: '1m',
    retry: { maximumAttempts: 5, initialInterval: '2s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
  });
  return { jobId: await acts.startScheduledRetention() };
}

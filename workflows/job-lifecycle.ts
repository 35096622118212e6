import { ApplicationFailure, CancellationScope, isCancellation, proxyActivities, setHandler } from '@temporalio/workflow';
import type { JobLifecycleActivities } from '../activities/job-lifecycle';
import { JobProgress, progressQuery } from './progress';

const jobs = proxyActivities<JobLifecycleActivities>({
  startToCloseTimeout: '30s',
  retry: { maximumAttempts: 10, initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
});

/**
 * Runs a job body between the status writes every job needs: running on start, then
 * succeeded, failed (readable error) or canceled. Status writes survive cancellation.
 */
export async function runJob<T extends Record<string, unknown>>(jobId: string, body: (state: JobProgress) => Promise<T>): Promise<T> {
  const state: JobProgress = { status: 'running', step: 'starting', progress: 0 };
  setHandler(progressQuery, () => state);
  try {
    // Inside the try: a cancel that arrives while the job is being marked running still closes the job as canceled.
    await jobs.markJobRunning(jobId);
    const result = await body(state);
    state.status = 'succeeded';
    state.progress = 100;
    await jobs.markJobFinished(jobId, { status: 'succeeded', result });
    return result;
  } catch (err) {
    if (isCancellation(err)) {
      state.status = 'canceled';
      await CancellationScope.nonCancellable(() => jobs.markJobFinished(jobId, { status: 'canceled', error: null }));
      throw err;
    }
    state.status = 'failed';
    const message = describeFailure(err);
    await CancellationScope.nonCancellable(() => jobs.markJobFinished(jobId, { status: 'failed', error: message }));
    throw ApplicationFailure.nonRetryable(message, 'JobFailed');
  }
}

/** The innermost readable message of an activity or application failure. */
function describeFailure(err: unknown): string {
  let e: unknown = err;
  let message = 'Job failed';
  while (e && typeof e === 'object') {
    const m = (e as { message?: unknown }).message;
    if (typeof m === 'string' && m.length > 0 && !m.startsWith('Activity task failed')) message = m;
    e = (e as { cause?: unknown }).cause;
  }
  return message;
}

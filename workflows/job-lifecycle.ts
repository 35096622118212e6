import { ApplicationFailure, CancellationScope, condition, defineSignal, isCancellation, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { ActivityOptions } from '@temporalio/common';
import type { JobLifecycleActivities } from '../activities/job-lifecycle';
import { ADMISSION_WAKE_SIGNAL, JobWorkflowInput } from './job-input';
import { JobProgress, progressQuery } from './progress';

const STATUS_WRITES: ActivityOptions = {
  startToCloseTimeout: '30s',
  retry: { maximumAttempts: 10, initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
};

/**
 * Patch id: status writes go to the light status queue ahead of any backlog, and a job of a fair-share kind waits for its
 * user's share of the workers before its work. Histories recorded before it wrote status on the job's own queue (where
 * they waited behind heavy work) and started at once.
 */
const LIGHT_STATUS_AND_FAIR_SHARE = 'light-status-and-fair-share';

/** How long a waiting job sleeps between admission checks when no finished job wakes it. */
const ADMISSION_POLL = '30s';

const admissionWake = defineSignal(ADMISSION_WAKE_SIGNAL);

/**
 * Runs a job body between the status writes every job needs: running on start, then
 * succeeded, failed (readable error) or canceled. Status writes survive cancellation.
 */
export async function runJob<T extends Record<string, unknown>>(input: JobWorkflowInput, body: (state: JobProgress) => Promise<T>): Promise<T> {
  const { jobId } = input;
  const state: JobProgress = { status: 'running', step: 'starting', progress: 0 };
  setHandler(progressQuery, () => state);
  const light = patched(LIGHT_STATUS_AND_FAIR_SHARE);
  // On the status queue (every worker process polls it, twenty slots, no heavy work) at the highest priority: a job's
  // status never waits for a CPU slot.
  const statusQueue = input.statusQueue ?? input.queues.io;
  const jobs = proxyActivities<JobLifecycleActivities>(light ? { ...STATUS_WRITES, taskQueue: statusQueue, priority: { priorityKey: 1 } } : STATUS_WRITES);
  let woken = false;
  setHandler(admissionWake, () => void (woken = true));
  try {
    // Inside the try: a cancel that arrives while the job waits or is being marked running still closes it as canceled.
    if (light) {
      state.status = 'queued';
      state.step = 'waiting for a share of the workers';
      while (!(await jobs.admitJob(jobId))) {
        woken = false;
        await condition(() => woken, ADMISSION_POLL);
      }
      state.status = 'running';
      state.step = 'starting';
    }
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

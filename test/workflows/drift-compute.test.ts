import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundle } from '@temporalio/worker';
import type { DriftComputeActivities, DriftJobResult } from '../../activities/drift-compute';
import type { JobLifecycleActivities } from '../../activities/job-lifecycle';
import type { driftComputeWorkflow } from '../../workflows/drift-compute';
import { ADMISSION_WAKE_SIGNAL } from '../../workflows/job-input';
import type { JobProgress } from '../../workflows/progress';
import { createWorker, HeartbeatsUntilCanceled, jobInput, maybeRecordHistory, recording, replaySavedHistories, startTimeSkipping, waitFor } from './support/time-skipping';

/** The drift_compute job's workflow with mocked activities; PSI itself is tested in engine/data and test/deployment-drift.test.ts. */

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
});

afterAll(async () => {
  await env?.teardown();
});

type Mocks = JobLifecycleActivities & DriftComputeActivities;
const RESULT: DriftJobResult = { drift_result_id: '7', overall_status: 'high', max_psi: 1.3, inference_rows: 400 };

function mocks(overrides: Partial<Mocks> = {}): Mocks {
  return {
    async admitJob() {
      return true;
    },
    async markJobRunning() {},
    async markJobFinished() {},
    async computeDrift() {
      return RESULT;
    },
    ...overrides,
  };
}

function startDrift(input: ReturnType<typeof jobInput> & { deploymentId: string }) {
  return env.client.workflow.start<typeof driftComputeWorkflow>('driftComputeWorkflow', { taskQueue: input.queues.cpu, workflowId: input.workflowId, args: [input] });
}

type Handle = Awaited<ReturnType<typeof startDrift>>;

/** Runs one drift job; `during` acts while it runs, `after` once it settled (queries need the worker still running). */
async function runDrift(activities: Mocks, during?: (handle: Handle) => Promise<void>, after?: (handle: Handle) => Promise<void>) {
  const input = { ...jobInput(), deploymentId: 'deployment-1' };
  const worker = await createWorker(env, { taskQueue: input.queues.cpu, activities, bundle, maxHeartbeatThrottleInterval: '50ms' });
  const outcome = await worker.runUntil(async () => {
    const handle = await startDrift(input);
    const pending = handle.result().then(
      (value) => ({ value, error: undefined }),
      (error: unknown) => ({ value: undefined, error }),
    );
    await during?.(handle);
    const settled = await pending;
    await after?.(handle);
    return settled;
  });
  return { input, ...outcome };
}

describe('driftComputeWorkflow', () => {
  it('runs on the cpu queue, computes the drift and keeps the summary on the job', async () => {
    const rec = recording<Mocks>(mocks());
    let progress: JobProgress | undefined;
    const { input, value } = await runDrift(rec.activities, undefined, async (handle) => {
      progress = await handle.query<JobProgress>('progress');
      await maybeRecordHistory(handle, 'drift-compute-succeeded');
    });

    expect(value).toEqual(RESULT);
    expect(rec.calls).toEqual([
      { name: 'admitJob', args: [input.jobId] },
      { name: 'markJobRunning', args: [input.jobId] },
      { name: 'computeDrift', args: [{ jobId: input.jobId, deploymentId: 'deployment-1' }] },
      { name: 'markJobFinished', args: [input.jobId, { status: 'succeeded', result: RESULT }] },
    ]);
    expect(progress).toEqual({ status: 'succeeded', step: 'done', progress: 100 });
  });

  it('retries a transient failure (a database restart) and succeeds', async () => {
    let attempts = 0;
    const rec = recording<Mocks>(
      mocks({
        async computeDrift() {
          if (++attempts === 1) throw new Error('Connection terminated unexpectedly');
          return RESULT;
        },
      }),
    );
    const { value } = await runDrift(rec.activities);

    expect(value).toEqual(RESULT);
    expect(attempts).toBe(2);
  });

  it('fails once, with the text, when nothing logged can be compared (ConflictError is not retried)', async () => {
    const message = 'No logged inputs to compare: drift needs predict requests logged with store_payload';
    const rec = recording<Mocks>(
      mocks({
        async computeDrift() {
          throw ApplicationFailure.nonRetryable(message, 'ConflictError');
        },
      }),
    );
    const { input, error } = await runDrift(rec.activities);

    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect((error as WorkflowFailedError).cause).toMatchObject({ type: 'JobFailed', message });
    expect(rec.argsOf('computeDrift')).toHaveLength(1);
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'failed', error: message }]]);
  });

  it('on cancel stops the computing activity and marks the job canceled', async () => {
    const activity = new HeartbeatsUntilCanceled({ progress: 10, message: 'reference distribution: feature 1 of 9' });
    const rec = recording<Mocks>(
      mocks({
        computeDrift: activity.run,
      }),
    );
    const { input, error } = await runDrift(rec.activities, async (handle) => {
      await waitFor(() => activity.started, 'the drift activity to start');
      await handle.cancel();
    });

    expect((error as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    await waitFor(() => activity.sawCancel, 'the drift activity to see the cancel');
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'canceled', error: null }]]);
  });

  it("waits for its user's share of the workers without holding a slot, and starts when a finished job wakes it", async () => {
    let admissions = 0;
    const rec = recording<Mocks>(
      mocks({
        async admitJob() {
          return ++admissions > 1;
        },
      }),
    );
    let waiting: JobProgress | undefined;
    const { input, value } = await runDrift(
      rec.activities,
      async (handle) => {
        await waitFor(() => admissions === 1, 'the first admission check');
        waiting = await handle.query<JobProgress>('progress');
        await handle.signal(ADMISSION_WAKE_SIGNAL);
      },
      (handle) => maybeRecordHistory(handle, 'drift-compute-waited-for-share'),
    );

    expect(value).toEqual(RESULT);
    expect(waiting).toEqual({ status: 'queued', step: 'waiting for a share of the workers', progress: 0 });
    expect(rec.calls.map((c) => c.name)).toEqual(['admitJob', 'admitJob', 'markJobRunning', 'computeDrift', 'markJobFinished']);
    expect(rec.argsOf('admitJob')).toEqual([[input.jobId], [input.jobId]]);
  });

  it('a cancel while it waits for its share closes the job as canceled, its work never scheduled', async () => {
    // Time skipping fires the 30 s admission poll at once, so a check that always refuses at once spins the loop as fast as
    // the test server goes (thousands of events before the cancel lands; under CI's load once past the test's timeout).
    // Refusing after a real pause keeps the history short.
    let checks = 0;
    const rec = recording<Mocks>(
      mocks({
        async admitJob() {
          if (checks++ > 0) await new Promise((r) => setTimeout(r, 100));
          return false;
        },
      }),
    );
    const { input, error } = await runDrift(rec.activities, async (handle) => {
      await waitFor(() => rec.argsOf('admitJob').length > 0, 'the admission check');
      await handle.cancel();
    });

    expect((error as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    expect(rec.argsOf('computeDrift')).toEqual([]);
    expect(rec.argsOf('markJobRunning')).toEqual([]);
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'canceled', error: null }]]);
  });

  it('replays the saved histories with the current workflow code', async () => {
    expect(await replaySavedHistories(bundle, 'drift-compute-')).toEqual(['drift-compute-succeeded.json', 'drift-compute-waited-for-share.json']);
  });
});

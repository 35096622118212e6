import { Context } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundle } from '@temporalio/worker';
import type { JobLifecycleActivities } from '../../activities/job-lifecycle';
import type { RetentionActivities, RetentionJobResult, RetentionScheduleActivities } from '../../activities/retention';
import type { RetentionResume } from '../../activities/retention/run';
import type { retentionWorkflow } from '../../workflows/retention';
import type { retentionScheduleWorkflow } from '../../workflows/retention-schedule';
import { createWorker, HeartbeatsUntilCanceled, jobInput, maybeRecordHistory, recording, replaySavedHistories, startTimeSkipping, waitFor } from './support/time-skipping';

/**
 * The `retention` job's workflow and its daily schedule's, with mocked activities: status writes, cancel, a retried
 * attempt that gets where the last one stood, and replay of the saved histories. What the rules take is tested
 * through HTTP in test/admin-retention.test.ts.
 */

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
});

afterAll(async () => {
  await env?.teardown();
});

type Mocks = JobLifecycleActivities & RetentionActivities & RetentionScheduleActivities;

const RESULT: RetentionJobResult = { as_of: '2026-01-01T00:00:00.000Z', kinds: [{ kind: 'inference_logs', action: 'delete', rows: 1200 }], files_removed: 0 };

function mocks(overrides: Partial<Mocks> = {}): Mocks {
  return {
    async admitJob() {
      return true;
    },
    async markJobRunning() {},
    async markJobFinished() {},
    async applyRetention() {
      return RESULT;
    },
    async startScheduledRetention() {
      return 'job-1';
    },
    ...overrides,
  };
}

async function runRetentionJob(activities: Mocks, during?: (handle: { cancel(): Promise<unknown> }) => Promise<void>, history?: string) {
  const input = jobInput();
  const worker = await createWorker(env, { taskQueue: input.queues.io, activities, bundle });
  const outcome = await worker.runUntil(async () => {
    const handle = await env.client.workflow.start<typeof retentionWorkflow>('retentionWorkflow', { taskQueue: input.queues.io, workflowId: input.workflowId, args: [input] });
    await during?.(handle);
    const settled = await handle.result().then(
      (value) => ({ value, error: undefined }),
      (error: unknown) => ({ value: undefined, error }),
    );
    if (history) await maybeRecordHistory(handle, history);
    return settled;
  });
  return { input, ...outcome };
}

describe('retentionWorkflow', () => {
  it('marks the job running, applies the policies and stores the counts on the job', async () => {
    const rec = recording<Mocks>(mocks());
    const { input, value } = await runRetentionJob(rec.activities, undefined, 'retention-succeeded');

    expect(value).toEqual(RESULT);
    expect(rec.calls).toEqual([
      { name: 'admitJob', args: [input.jobId] },
      { name: 'markJobRunning', args: [input.jobId] },
      { name: 'applyRetention', args: [{ jobId: input.jobId }] },
      { name: 'markJobFinished', args: [input.jobId, { status: 'succeeded', result: RESULT }] },
    ]);
  });

  it('a retried attempt gets where the last one stood (the heartbeat carries the counts) and finishes', async () => {
    const seen: { attempt: number; resume: RetentionResume | undefined }[] = [];
    const rec = recording<Mocks>(
      mocks({
        async applyRetention() {
          const ctx = Context.current();
          const resume = (ctx.info.heartbeatDetails as { resume?: RetentionResume } | undefined)?.resume;
          seen.push({ attempt: ctx.info.attempt, resume });
          if (ctx.info.attempt === 1) {
            // Two batches committed, then the worker's connection drops.
            ctx.heartbeat({ progress: 10, message: 'inference_logs: 1000 deleted', resume: { rows: { inference_logs: 1000 }, files: 0 } });
            await ctx.sleep(10);
            throw new Error('connection terminated unexpectedly');
          }
          return { ...RESULT, kinds: [{ kind: 'inference_logs', action: 'delete', rows: (resume?.rows.inference_logs ?? 0) + 200 }] };
        },
      }),
    );
    const { input, value } = await runRetentionJob(rec.activities, undefined, 'retention-retried');

    expect(seen).toEqual([
      { attempt: 1, resume: undefined },
      { attempt: 2, resume: { rows: { inference_logs: 1000 }, files: 0 } },
    ]);
    expect(value?.kinds).toEqual([{ kind: 'inference_logs', action: 'delete', rows: 1200 }]);
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'succeeded', result: value }]]);
  });

  it('on cancel stops the activity between batches and marks the job canceled', async () => {
    const activity = new HeartbeatsUntilCanceled({ progress: 20, message: 'dataset_versions: 40 deleted', resume: { rows: { dataset_versions: 40 }, files: 40 } });
    const rec = recording<Mocks>(mocks({ applyRetention: activity.run }));
    const { input, error } = await runRetentionJob(rec.activities, async (handle) => {
      await waitFor(() => activity.started, 'the retention activity to start');
      await handle.cancel();
    });

    expect((error as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    await waitFor(() => activity.sawCancel, 'the retention activity to see the cancel');
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'canceled', error: null }]]);
  });

  it('fails once, with the message, on a fault retrying cannot fix', async () => {
    const message = 'Retention run not found';
    const rec = recording<Mocks>(
      mocks({
        async applyRetention() {
          throw ApplicationFailure.nonRetryable(message, 'NotFoundError');
        },
      }),
    );
    const { input, error } = await runRetentionJob(rec.activities);

    expect((error as WorkflowFailedError).cause).toMatchObject({ type: 'JobFailed', message });
    expect(rec.argsOf('applyRetention')).toHaveLength(1);
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'failed', error: message }]]);
  });

  it('the daily schedule run queues a job and ends', async () => {
    const rec = recording<Mocks>(mocks());
    const queue = jobInput().queues.io;
    const worker = await createWorker(env, { taskQueue: queue, activities: rec.activities, bundle });
    const value = await worker.runUntil(async () => {
      const handle = await env.client.workflow.start<typeof retentionScheduleWorkflow>('retentionScheduleWorkflow', { taskQueue: queue, workflowId: `retention-schedule-${queue}`, args: [] });
      const result = await handle.result();
      await maybeRecordHistory(handle, 'retention-schedule-queued');
      return result;
    });
    expect(value).toEqual({ jobId: 'job-1' });
    expect(rec.calls).toEqual([{ name: 'startScheduledRetention', args: [] }]);
  });

  it('replays the saved histories with the current workflow code', async () => {
    expect((await replaySavedHistories(bundle, 'retention-')).sort()).toEqual([
      'retention-generic-canceled.json',
      'retention-generic-failed.json',
      'retention-retried.json',
      'retention-schedule-queued.json',
      'retention-succeeded.json',
    ]);
  });
});

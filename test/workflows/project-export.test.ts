import { Context } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundle } from '@temporalio/worker';
import type { JobLifecycleActivities } from '../../activities/job-lifecycle';
import type { ProjectExportActivities } from '../../activities/project-export';
import type { projectExportWorkflow } from '../../workflows/project-export';
import type { JobProgress } from '../../workflows/progress';
import { createWorker, jobInput, maybeRecordHistory, recording, replaySavedHistories, startTimeSkipping } from './support/time-skipping';

/** The export job's workflow with mocked activities; the ZIP itself is tested end to end in test/projects.test.ts. */

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
});

afterAll(async () => {
  await env?.teardown();
});

type Mocks = JobLifecycleActivities & ProjectExportActivities;

const EXPORTED = { artifact_id: 'artifact-1', size_bytes: 2048, files: 3 };

function mocks(overrides: Partial<Mocks> = {}): Mocks {
  return {
    async admitJob() {
      return true;
    },
    async markJobRunning() {},
    async markJobFinished() {},
    async buildProjectExport() {
      return EXPORTED;
    },
    ...overrides,
  };
}

/** Runs one export job on its `io` queue (where JOB_ROUTES sends it) and settles with its outcome. */
async function runExport(activities: Mocks, afterResult?: (handle: Awaited<ReturnType<typeof startExport>>) => Promise<void>) {
  const input = jobInput();
  const worker = await createWorker(env, { taskQueue: input.queues.io, activities, bundle });
  const outcome = await worker.runUntil(async () => {
    const handle = await startExport(input);
    const settled = await handle.result().then(
      (value) => ({ value, error: undefined }),
      (error: unknown) => ({ value: undefined, error }),
    );
    await afterResult?.(handle);
    return settled;
  });
  return { input, ...outcome };
}

function startExport(input: ReturnType<typeof jobInput>) {
  return env.client.workflow.start<typeof projectExportWorkflow>('projectExportWorkflow', { taskQueue: input.queues.io, workflowId: input.workflowId, args: [input] });
}

describe('projectExportWorkflow', () => {
  it('marks the job running, builds the export and stores its result on the job', async () => {
    const rec = recording<Mocks>(mocks());
    let progress: JobProgress | undefined;
    const { input, value } = await runExport(rec.activities, async (handle) => {
      progress = await handle.query<JobProgress>('progress');
      await maybeRecordHistory(handle, 'project-export-succeeded');
    });

    expect(value).toEqual(EXPORTED);
    expect(rec.calls).toEqual([
      { name: 'admitJob', args: [input.jobId] },
      { name: 'markJobRunning', args: [input.jobId] },
      { name: 'buildProjectExport', args: [{ jobId: input.jobId, projectId: input.projectId }] },
      { name: 'markJobFinished', args: [input.jobId, { status: 'succeeded', result: EXPORTED }] },
    ]);
    expect(progress).toEqual({ status: 'succeeded', step: 'done', progress: 100 });
  });

  it('closes the job as canceled when the cancel arrives while it is being marked running', async () => {
    const rec = recording<Mocks>(mocks({ markJobRunning: () => new Promise((resolve) => setTimeout(resolve, 3000)) }));
    const input = jobInput();
    const worker = await createWorker(env, { taskQueue: input.queues.io, activities: rec.activities, bundle });
    const error = await worker.runUntil(async () => {
      const handle = await startExport(input);
      while (!rec.calls.some((c) => c.name === 'markJobRunning')) await new Promise((r) => setTimeout(r, 20));
      await handle.cancel();
      return handle.result().then(
        () => null,
        (err: unknown) => err,
      );
    });
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect(rec.argsOf('buildProjectExport')).toEqual([]);
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'canceled', error: null }]]);
  });

  it('retries a status write that fails, so a database hiccup does not lose the outcome', async () => {
    let finishAttempts = 0;
    const rec = recording<Mocks>(
      mocks({
        async markJobFinished() {
          if (++finishAttempts < 3) throw new Error('connection terminated unexpectedly');
        },
      }),
    );
    const { value } = await runExport(rec.activities);

    expect(value).toEqual(EXPORTED);
    expect(finishAttempts).toBe(3);
  });

  it('fails the job once, with the activity message, when the project is gone (NotFoundError)', async () => {
    const rec = recording<Mocks>(
      mocks({
        async buildProjectExport({ projectId }) {
          throw ApplicationFailure.nonRetryable(`Project ${projectId} no longer exists`, 'NotFoundError');
        },
      }),
    );
    const { input, error } = await runExport(rec.activities);

    const message = `Project ${input.projectId} no longer exists`;
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect((error as WorkflowFailedError).cause).toMatchObject({ type: 'JobFailed', message });
    expect(rec.argsOf('buildProjectExport')).toHaveLength(1);
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'failed', error: message }]]);
  });

  it('gives up after five attempts at a retryable fault and fails the job with its message', async () => {
    const attempts: number[] = [];
    const rec = recording<Mocks>(
      mocks({
        async buildProjectExport() {
          attempts.push(Context.current().info.attempt);
          throw new Error('ENOSPC: no space left on device');
        },
      }),
    );
    const { input, error } = await runExport(rec.activities);

    expect(attempts).toEqual([1, 2, 3, 4, 5]);
    expect((error as WorkflowFailedError).cause).toMatchObject({ type: 'JobFailed', message: 'ENOSPC: no space left on device' });
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'failed', error: 'ENOSPC: no space left on device' }]]);
  });

  it('replays the saved histories with the current workflow code', async () => {
    expect(await replaySavedHistories(bundle, 'project-export-')).toEqual(['project-export-succeeded.json']);
  });
});

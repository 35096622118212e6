import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundle } from '@temporalio/worker';
import type { DatasetProfileActivities } from '../../activities/dataset-profile';
import type { JobLifecycleActivities } from '../../activities/job-lifecycle';
import type { ProfileResult } from '../../services/dataset-versions';
import type { datasetProfileWorkflow } from '../../workflows/dataset-profile';
import type { JobProgress } from '../../workflows/progress';
import { createWorker, jobInput, maybeRecordHistory, recording, replaySavedHistories, startTimeSkipping } from './support/time-skipping';

/** The dataset_profile job's workflow with mocked activities; profiling itself is tested in test/datasets.test.ts. */

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
});

afterAll(async () => {
  await env?.teardown();
});

type Mocks = JobLifecycleActivities & DatasetProfileActivities;

function mocks(overrides: Partial<Mocks> = {}): Mocks {
  return {
    async admitJob() {
      return true;
    },
    async markJobRunning() {},
    async markJobFinished() {},
    async profileDatasetVersion({ versionId }): Promise<ProfileResult> {
      return { version_id: versionId, row_count: 10_000_000, computed: true };
    },
    ...overrides,
  };
}

/** Runs one profile job on its `cpu` queue (where JOB_ROUTES sends it) and settles with its outcome. */
async function runProfile(activities: Mocks, afterResult?: (handle: Awaited<ReturnType<typeof startProfile>>) => Promise<void>) {
  const input = { ...jobInput(), versionId: 'version-1' };
  const worker = await createWorker(env, { taskQueue: input.queues.cpu, activities, bundle });
  const outcome = await worker.runUntil(async () => {
    const handle = await startProfile(input);
    const settled = await handle.result().then(
      (value) => ({ value, error: undefined }),
      (error: unknown) => ({ value: undefined, error }),
    );
    await afterResult?.(handle);
    return settled;
  });
  return { input, ...outcome };
}

function startProfile(input: ReturnType<typeof jobInput> & { versionId: string }) {
  return env.client.workflow.start<typeof datasetProfileWorkflow>('datasetProfileWorkflow', { taskQueue: input.queues.cpu, workflowId: input.workflowId, args: [input] });
}

describe('datasetProfileWorkflow', () => {
  it('marks the job running, profiles the version and stores the result on the job', async () => {
    const rec = recording<Mocks>(mocks());
    let progress: JobProgress | undefined;
    const { input, value } = await runProfile(rec.activities, async (handle) => {
      progress = await handle.query<JobProgress>('progress');
      await maybeRecordHistory(handle, 'dataset-profile-succeeded');
    });

    const result = { version_id: 'version-1', row_count: 10_000_000, computed: true };
    expect(value).toEqual(result);
    expect(rec.calls).toEqual([
      { name: 'admitJob', args: [input.jobId] },
      { name: 'markJobRunning', args: [input.jobId] },
      { name: 'profileDatasetVersion', args: [{ jobId: input.jobId, versionId: 'version-1' }] },
      { name: 'markJobFinished', args: [input.jobId, { status: 'succeeded', result }] },
    ]);
    expect(progress).toEqual({ status: 'succeeded', step: 'done', progress: 100 });
  });

  it('succeeds with nothing to do when the version was deleted first (the activity says why)', async () => {
    const skipped = { version_id: 'version-1', row_count: 0, computed: false, skipped: 'the dataset version was deleted' };
    const rec = recording<Mocks>(mocks({ profileDatasetVersion: async () => skipped }));
    const { input, value } = await runProfile(rec.activities);

    expect(value).toEqual(skipped);
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'succeeded', result: skipped }]]);
  });

  it('fails the job once, with the activity message, on unreadable data (DataError)', async () => {
    const message = 'Could not read the CSV: unterminated quoted field at line 12';
    const rec = recording<Mocks>(
      mocks({
        async profileDatasetVersion() {
          throw ApplicationFailure.nonRetryable(message, 'DataError');
        },
      }),
    );
    const { input, error } = await runProfile(rec.activities);

    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect((error as WorkflowFailedError).cause).toMatchObject({ type: 'JobFailed', message });
    expect(rec.argsOf('profileDatasetVersion')).toHaveLength(1);
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'failed', error: message }]]);
  });

  it('replays the saved histories with the current workflow code', async () => {
    expect(await replaySavedHistories(bundle, 'dataset-profile-')).toEqual(['dataset-profile-succeeded.json']);
  });
});

import { WorkflowFailedError } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundle } from '@temporalio/worker';
import type { JobLifecycleActivities } from '../../activities/job-lifecycle';
import type { PrivacyDetectActivities, PrivacyDetectResult } from '../../activities/privacy-detect';
import type { PrivacyTransformActivities, PrivacyTransformResult } from '../../activities/privacy-transform';
import { createWorker, HeartbeatsUntilCanceled, jobInput, maybeRecordHistory, recording, replaySavedHistories, startTimeSkipping, waitFor } from './support/time-skipping';

/** The privacy_detect and privacy_transform workflows with mocked activities; the work itself is tested through HTTP in test/privacy.test.ts. */

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
});

afterAll(async () => {
  await env?.teardown();
});

type Mocks = JobLifecycleActivities & PrivacyDetectActivities & PrivacyTransformActivities;
const DETECTED: PrivacyDetectResult = { session_id: 's-1', rows_scanned: 120, columns_analyzed: 9, pii_columns: 8, pii_instances: 960 };
const TRANSFORMED: PrivacyTransformResult = { session_id: 's-1', artifact_id: 'a-1', rows: 120, size_bytes: 4096 };

function mocks(overrides: Partial<Mocks> = {}): Mocks {
  return {
    async admitJob() {
      return true;
    },
    async markJobRunning() {},
    async markJobFinished() {},
    async detectPii() {
      return DETECTED;
    },
    async transformPii() {
      return TRANSFORMED;
    },
    ...overrides,
  };
}

type Kind = 'privacyDetectWorkflow' | 'privacyTransformWorkflow';

async function run(kind: Kind, activities: Mocks, during?: (handle: { cancel(): Promise<unknown> }) => Promise<void>, history?: string) {
  const input = { ...jobInput(), sessionId: 's-1' };
  const worker = await createWorker(env, { taskQueue: input.queues.cpu, activities, bundle, maxHeartbeatThrottleInterval: '50ms' });
  const outcome = await worker.runUntil(async () => {
    const handle = await env.client.workflow.start(kind, { taskQueue: input.queues.cpu, workflowId: input.workflowId, args: [input] });
    const pending = handle.result().then(
      (value) => ({ value, error: undefined }),
      (error: unknown) => ({ value: undefined, error }),
    );
    await during?.(handle);
    const settled = await pending;
    if (history) await maybeRecordHistory(handle, history);
    return settled;
  });
  return { input, ...outcome };
}

describe('privacy workflows', () => {
  it('privacy_detect runs its activity on the cpu queue and keeps the counts on the job', async () => {
    const rec = recording<Mocks>(mocks());
    const { input, value } = await run('privacyDetectWorkflow', rec.activities, undefined, 'privacy-detect-succeeded');
    expect(value).toEqual(DETECTED);
    expect(rec.calls).toEqual([
      { name: 'admitJob', args: [input.jobId] },
      { name: 'markJobRunning', args: [input.jobId] },
      { name: 'detectPii', args: [{ jobId: input.jobId, sessionId: 's-1' }] },
      { name: 'markJobFinished', args: [input.jobId, { status: 'succeeded', result: DETECTED }] },
    ]);
  });

  it('privacy_transform runs its activity and keeps the artifact on the job', async () => {
    const rec = recording<Mocks>(mocks());
    const { input, value } = await run('privacyTransformWorkflow', rec.activities, undefined, 'privacy-transform-succeeded');
    expect(value).toEqual(TRANSFORMED);
    expect(rec.argsOf('transformPii')).toEqual([[{ jobId: input.jobId, sessionId: 's-1' }]]);
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'succeeded', result: TRANSFORMED }]]);
  });

  it('a canceled transform stops its activity and marks the job canceled', async () => {
    const activity = new HeartbeatsUntilCanceled({ progress: 40, message: 'transformed 2048 of 40000 rows' });
    const rec = recording<Mocks>(
      mocks({
        transformPii: activity.run,
      }),
    );
    const { input, error } = await run('privacyTransformWorkflow', rec.activities, async (handle) => {
      await waitFor(() => activity.started, 'the transform activity to start');
      await handle.cancel();
    });
    expect((error as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    await waitFor(() => activity.sawCancel, 'the transform activity to see the cancel');
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'canceled', error: null }]]);
  });

  it('replays the saved histories with the current workflow code', async () => {
    expect(await replaySavedHistories(bundle, 'privacy-')).toEqual(['privacy-detect-succeeded.json', 'privacy-transform-succeeded.json']);
  });
});

import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundle } from '@temporalio/worker';
import type { JobLifecycleActivities } from '../../activities/job-lifecycle';
import type { RetrainingRunActivities } from '../../activities/retraining-run';
import type { retrainingRunWorkflow } from '../../workflows/retraining-run';
import { createWorker, jobInput, maybeRecordHistory, recording, replaySavedHistories, startTimeSkipping } from './support/time-skipping';

/**
 * The retraining workflow's paths with mocked activities (time skipped, so its 3 s polls cost nothing): a failed gate
 * rejects without an outcome, a passed one applies it, and a canary rollout is followed to its end. The work itself is
 * tested end to end in test/retraining.test.ts and test/retraining-loop.test.ts.
 */

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
});

afterAll(async () => {
  await env?.teardown();
});

type Mocks = JobLifecycleActivities & RetrainingRunActivities;

/** Mocks whose experiment trains for `trainingPolls` looks and whose rollout ends after `rolloutPolls`. */
function mocks(o: { passed: boolean; rolloutId?: string | null; trainingPolls?: number; rolloutPolls?: number }): Mocks {
  let polls = 0;
  let follows = 0;
  return {
    async admitJob() {
      return true;
    },
    async markJobRunning() {},
    async markJobFinished() {},
    async startRetrainingExperiment() {
      return { experimentId: 'exp-1' };
    },
    async retrainingExperimentStatus() {
      return ++polls > (o.trainingPolls ?? 0) ? 'trained' : 'training';
    },
    async evaluateRetraining() {
      return { passed: o.passed, reason: o.passed ? 'better' : 'not better' };
    },
    async rejectRetraining() {},
    async applyRetrainingOutcome() {
      return { rolloutId: o.rolloutId ?? null };
    },
    async followRetrainingRollout() {
      return ++follows > (o.rolloutPolls ?? 0) ? 'promoted' : null;
    },
  };
}

async function run(activities: Mocks, history: string) {
  const input = { ...jobInput(), retrainingJobId: 'rj-1' };
  const worker = await createWorker(env, { taskQueue: input.queues.io, activities, bundle });
  const value = await worker.runUntil(async () => {
    const handle = await env.client.workflow.start<typeof retrainingRunWorkflow>('retrainingRunWorkflow', { taskQueue: input.queues.io, workflowId: input.workflowId, args: [input] });
    const result = await handle.result();
    await maybeRecordHistory(handle, history);
    return result;
  });
  return { input, value };
}

describe('retrainingRunWorkflow', () => {
  it('waits for the experiment, and a failed gate ends rejected without an outcome', async () => {
    const rec = recording<Mocks>(mocks({ passed: false, trainingPolls: 2 }));
    const { input, value } = await run(rec.activities, 'retraining-run-rejected');
    expect(value).toEqual({ state: 'rejected' });
    expect(rec.calls.map((c) => c.name)).toEqual([
      'admitJob',
      'markJobRunning',
      'startRetrainingExperiment',
      'retrainingExperimentStatus',
      'retrainingExperimentStatus',
      'retrainingExperimentStatus',
      'evaluateRetraining',
      'rejectRetraining',
      'markJobFinished',
    ]);
    expect(rec.argsOf('rejectRetraining')).toEqual([['rj-1', 'not better']]);
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'succeeded', result: { state: 'rejected' } }]]);
  });

  it('a passed gate applies the outcome and ends when no rollout follows', async () => {
    const rec = recording<Mocks>(mocks({ passed: true }));
    const { value } = await run(rec.activities, 'retraining-run-decided');
    expect(value).toEqual({ state: 'decided' });
    expect(rec.calls.map((c) => c.name)).toEqual([
      'admitJob',
      'markJobRunning',
      'startRetrainingExperiment',
      'retrainingExperimentStatus',
      'evaluateRetraining',
      'applyRetrainingOutcome',
      'markJobFinished',
    ]);
  });

  it('follows a canary rollout to its end', async () => {
    const rec = recording<Mocks>(mocks({ passed: true, rolloutId: 'rollout-1', rolloutPolls: 3 }));
    const { value } = await run(rec.activities, 'retraining-run-canary');
    expect(value).toEqual({ state: 'promoted' });
    expect(rec.argsOf('followRetrainingRollout')).toHaveLength(4);
  });

  it('replays the saved histories (RECORD_WORKFLOW_HISTORIES=1 records them)', async () => {
    expect((await replaySavedHistories(bundle, 'retraining-run-')).length).toBeGreaterThanOrEqual(0);
  });
});

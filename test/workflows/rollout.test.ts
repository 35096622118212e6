import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundle } from '@temporalio/worker';
import type { RolloutActivities, RolloutPlan } from '../../activities/rollout';
import type { GateResult } from '../../entities/rollout.entity';
import type { rolloutWorkflow } from '../../workflows/rollout';
import { ROLLOUT_STATE_QUERY, type RolloutLiveState } from '../../workflows/rollout-input';
import { createWorker, maybeRecordHistory, recording, replaySavedHistories, startTimeSkipping } from './support/time-skipping';

/**
 * The rollout workflow with mocked activities: a canary's steps, gates every interval and promotion; a failing gate
 * rolling back at once with the gate named; pause, resume and promote signals; blue-green's window and rollback;
 * a shadow's duration; a step that cannot be made ending `failed`. The moves themselves are tested against the
 * database through HTTP (test/rollouts.test.ts).
 */

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
});

afterAll(async () => {
  await env?.teardown();
});

const gate = { metric: 'error_rate' as const, op: 'lt' as const, threshold: 0.1, min_samples: 5 };
const passing: GateResult[] = [{ metric: 'error_rate', op: 'lt', observed: 0, threshold: 0.1, passed: true, samples: 20 }];
const failing: GateResult[] = [{ metric: 'error_rate', op: 'lt', observed: 0.9, threshold: 0.1, passed: false, samples: 20 }];

function plan(p: Partial<RolloutPlan>): RolloutPlan {
  return {
    kind: 'canary',
    done: false,
    state: 'running',
    steps: [
      { traffic_percent: 10, pause_secs: 60, gates: [gate] },
      { traffic_percent: 50, pause_secs: 60, gates: [gate] },
    ],
    stepIndex: 0,
    gateIntervalSecs: 20,
    onSuccess: 'promote',
    keepPreviousSecs: 600,
    warmupRequests: 1,
    durationSecs: null,
    ...p,
  };
}

function mocks(p: RolloutPlan, overrides: Partial<RolloutActivities> = {}): RolloutActivities {
  return {
    rolloutPlan: async () => p,
    rolloutCreateCandidate: async () => 'candidate',
    rolloutSetStep: async () => undefined,
    rolloutEvaluateGates: async () => passing,
    rolloutWarmUp: async () => undefined,
    rolloutSwitch: async () => undefined,
    rolloutPromote: async () => 'promoted',
    rolloutRollBack: async (_id, x) => x.state,
    rolloutComplete: async () => 'completed',
    rolloutFail: async () => 'failed',
    rolloutRecord: async () => undefined,
    ...overrides,
  };
}

/** Runs a rollout on a fresh queue; `steer` may signal it (through the handle) from inside the mocks. */
async function run(activities: RolloutActivities, record?: string) {
  const taskQueue = `wf-test-${randomUUID()}-io`;
  const worker = await createWorker(env, { taskQueue, activities, bundle });
  return worker.runUntil(async () => {
    const handle = await env.client.workflow.start<typeof rolloutWorkflow>('rolloutWorkflow', {
      taskQueue,
      workflowId: `rollout-${randomUUID()}`,
      args: [{ rolloutId: 'r1' }],
      workflowExecutionTimeout: '1 day',
    });
    handles.push(handle);
    const result = await handle.result();
    const live = await handle.query<RolloutLiveState>(ROLLOUT_STATE_QUERY);
    if (record) await maybeRecordHistory(handle, record);
    return { result, live };
  });
}

/** The handle of the rollout running now, for mocks that signal it. */
const handles: { signal(name: string, arg?: unknown): Promise<void> }[] = [];
const current = () => handles[handles.length - 1];

describe('rolloutWorkflow', () => {
  it('walks a canary through its steps, checks the gates every interval and promotes', async () => {
    const rec = recording(mocks(plan({})));
    const { result, live } = await run(rec.activities, 'rollout-canary-promoted');
    expect(result).toEqual({ state: 'promoted' });
    expect(live).toMatchObject({ state: 'promoted', step_index: 1, current_traffic_percent: 50, gates_last: passing });
    expect(rec.argsOf('rolloutSetStep').map((a) => [a[1], a[2]])).toEqual([
      [0, 10],
      [1, 50],
    ]);
    // 60 s of pause at a 20 s interval: three evaluations per step, each since its step's start.
    const evaluations = rec.argsOf('rolloutEvaluateGates');
    expect(evaluations.map((a) => a[1])).toEqual([0, 0, 0, 1, 1, 1]);
    expect(new Date(evaluations[3][2] as string).getTime()).toBeGreaterThanOrEqual(new Date(evaluations[0][2] as string).getTime() + 60_000);
    expect(rec.calls.map((c) => c.name).filter((n) => n !== 'rolloutEvaluateGates')).toEqual(['rolloutPlan', 'rolloutCreateCandidate', 'rolloutSetStep', 'rolloutSetStep', 'rolloutPromote']);
  });

  it('rolls back at the first failing gate, the reason naming the gate and what it observed', async () => {
    let n = 0;
    const rec = recording(mocks(plan({}), { rolloutEvaluateGates: async () => (++n >= 4 ? failing : passing) }));
    const { result } = await run(rec.activities, 'rollout-canary-rolled-back');
    expect(result).toEqual({ state: 'rolled_back' });
    expect(rec.argsOf('rolloutPromote')).toEqual([]);
    const [[, undo]] = rec.argsOf('rolloutRollBack') as [string, { state: string; reason: string }][];
    expect(undo.state).toBe('rolled_back');
    expect(undo.reason).toMatch(/^Gate error_rate lt 0\.1 failed at step 2 \(50%\): observed 0\.9 over 20 requests/);
    expect(rec.argsOf('rolloutEvaluateGates')).toHaveLength(4);
  });

  it('holds a paused step until resumed, then promotes at once on a promote signal', async () => {
    let n = 0;
    const rec = recording(
      mocks(plan({}), {
        rolloutEvaluateGates: async () => {
          n += 1;
          if (n === 1) await current().signal('pause', { by: 'u1' });
          if (n === 2) await current().signal('promote', { by: 'u2' });
          return passing;
        },
        rolloutRecord: async (_id, p) => {
          if (p.state === 'paused') await current().signal('resume', { by: 'u1' });
        },
      }),
    );
    const { result } = await run(rec.activities);
    expect(result).toEqual({ state: 'promoted' });
    expect(rec.argsOf('rolloutRecord').map((a) => (a[1] as { event: string }).event)).toEqual(['paused', 'resumed']);
    expect(rec.argsOf('rolloutPromote')).toEqual([['r1', { reason: 'Promoted by a user before the last step', by: 'u2' }]]);
    // Promoted during step 1: step 2 never began.
    expect(rec.argsOf('rolloutSetStep')).toHaveLength(1);
  });

  it('aborts on an abort signal, taking the candidate out', async () => {
    const rec = recording(
      mocks(plan({}), {
        rolloutEvaluateGates: async () => {
          await current().signal('abort', { by: 'u1' });
          return passing;
        },
      }),
    );
    const { result } = await run(rec.activities);
    expect(result).toEqual({ state: 'aborted' });
    expect(rec.argsOf('rolloutRollBack')).toEqual([['r1', { state: 'aborted', reason: 'Aborted by a user', by: 'u1' }]]);
  });

  it('holds after the last step with on_success hold, until promoted', async () => {
    const rec = recording(
      mocks(plan({ onSuccess: 'hold', steps: [{ traffic_percent: 20, pause_secs: 0, gates: [] }] }), {
        rolloutRecord: async (_id, p) => {
          if (p.event === 'held') await current().signal('promote', { by: 'u1' });
        },
      }),
    );
    const { result } = await run(rec.activities);
    expect(result).toEqual({ state: 'promoted' });
    expect(rec.argsOf('rolloutPromote')).toEqual([['r1', { reason: 'Promoted by a user after all steps passed', by: 'u1' }]]);
  });

  it('blue-green: warms, switches, and completes once the previous deployment was kept its window', async () => {
    const rec = recording(mocks(plan({ kind: 'blue_green', keepPreviousSecs: 600 })));
    const { result } = await run(rec.activities, 'rollout-blue-green-completed');
    expect(result).toEqual({ state: 'completed' });
    expect(rec.calls.map((c) => c.name)).toEqual(['rolloutPlan', 'rolloutCreateCandidate', 'rolloutWarmUp', 'rolloutSwitch', 'rolloutComplete']);
  });

  it('blue-green: a rollback inside the window restores the previous deployment', async () => {
    const rec = recording(
      mocks(plan({ kind: 'blue_green', keepPreviousSecs: 600 }), {
        rolloutSwitch: async () => {
          await current().signal('rollback', { by: 'u1' });
        },
      }),
    );
    const { result } = await run(rec.activities);
    expect(result).toEqual({ state: 'rolled_back' });
    expect(rec.argsOf('rolloutRollBack')).toEqual([['r1', { state: 'rolled_back', reason: 'Rolled back by a user', by: 'u1' }]]);
    expect(rec.argsOf('rolloutComplete')).toEqual([]);
  });

  it('shadow: mirrors for its duration, then completes', async () => {
    const rec = recording(mocks(plan({ kind: 'shadow', durationSecs: 3600 })));
    const { result } = await run(rec.activities);
    expect(result).toEqual({ state: 'completed' });
    expect(rec.calls.map((c) => c.name)).toEqual(['rolloutPlan', 'rolloutCreateCandidate', 'rolloutComplete']);
  });

  it('ends failed when a step cannot be made, after taking the candidate out', async () => {
    const rec = recording(
      mocks(plan({}), {
        rolloutSetStep: async () => {
          throw ApplicationFailure.nonRetryable('Deployment prod is no longer in production', 'ConflictError');
        },
      }),
    );
    const { result } = await run(rec.activities);
    expect(result).toEqual({ state: 'failed' });
    expect(rec.argsOf('rolloutFail')).toEqual([['r1', 'Deployment prod is no longer in production']]);
  });

  it('does nothing for a rollout that already ended', async () => {
    const rec = recording(mocks(plan({ done: true, state: 'aborted' })));
    const { result } = await run(rec.activities);
    expect(result).toEqual({ state: 'aborted' });
    expect(rec.calls.map((c) => c.name)).toEqual(['rolloutPlan']);
  });

  it('replays the saved histories', async () => {
    expect(await replaySavedHistories(bundle, 'rollout-')).toEqual(['rollout-blue-green-completed.json', 'rollout-canary-promoted.json', 'rollout-canary-rolled-back.json']);
  });
});

import path from 'node:path';
import { Context } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundle } from '@temporalio/worker';
import type { JobLifecycleActivities } from '../../activities/job-lifecycle';
import type { JobKind } from '../../entities';
import { JOB_KINDS_REGISTRY, REGISTERED_JOB_KINDS } from '../../services/job-kinds';
import { assertRegisteredWorkflows } from '../../workers/workflow-check';
import { createWorker, jobInput, maybeRecordHistory, replaySavedHistories, startTimeSkipping } from './support/time-skipping';

/**
 * Every registered kind's workflow, from the registry alone: started by its registry name from the workers' real bundle
 * (workflows/index.ts finds the modules), on its registry queue, framed by runJob (admission, running, then failed or
 * canceled). So a new kind's workflow is covered without a test file of its own; its body's own paths are covered end
 * to end by its HTTP test through the real worker, and a kind with a workflow of many steps adds a test beside this one
 * (automl-train.test.ts). Each kind's body activities are stood in for by one `default` activity (Temporal's dynamic
 * activity), whatever their names.
 */

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
});

afterAll(async () => {
  await env?.teardown();
});

interface Call {
  name: string;
  queue: string;
  args: unknown[];
}

/** The lifecycle's status writes, recorded, and every other activity through `body`. */
function activities(body: () => Promise<unknown>) {
  const calls: Call[] = [];
  const record = (name: string, args: unknown[]) => calls.push({ name, queue: Context.current().info.taskQueue, args });
  const lifecycle: JobLifecycleActivities = {
    async admitJob(...args) {
      record('admitJob', args);
      return true;
    },
    async markJobRunning(...args) {
      record('markJobRunning', args);
    },
    async markJobFinished(...args) {
      record('markJobFinished', args);
    },
  };
  const fallback = async (...args: unknown[]) => {
    record(Context.current().info.activityType, args);
    return body();
  };
  return { calls, activities: { ...lifecycle, default: fallback } };
}

/** Runs one job of `kind` on a worker of its registry queue (and the io queue its status writes go to). */
async function runKind(kind: JobKind, acts: ReturnType<typeof activities>, whileRunning?: (handle: Awaited<ReturnType<typeof env.client.workflow.start>>) => Promise<void>) {
  const def = JOB_KINDS_REGISTRY[kind];
  const input = jobInput();
  const taskQueue = input.queues[def.queue];
  // Heartbeats reach the server (and a cancel the activity) within a fraction of a second, whatever the kind's heartbeat timeout.
  const worker = await createWorker(env, { taskQueue, activities: acts.activities, bundle, maxHeartbeatThrottleInterval: '200ms' });
  const error = await worker.runUntil(async () => {
    // A broken workflow would retry its task for ever: the execution timeout makes it a failure here instead.
    const handle = await env.client.workflow.start(def.workflowType, { taskQueue, workflowId: input.workflowId, args: [input], workflowExecutionTimeout: '1 hour' });
    await whileRunning?.(handle);
    const outcome = await handle.result().then(
      () => null,
      (err: unknown) => err,
    );
    await maybeRecordHistory(handle, `${kind.replace(/_/g, '-')}-generic-${outcome instanceof WorkflowFailedError && outcome.cause instanceof CancelledFailure ? 'canceled' : 'failed'}`);
    return outcome;
  });
  return { input, taskQueue, error };
}

describe('every registered job kind', () => {
  it('names a workflow that a module of workflows/ exports (the check the worker makes at start)', () => {
    expect(() => assertRegisteredWorkflows(path.join(__dirname, '..', '..', 'workflows'))).not.toThrow();
  });

  it.each(REGISTERED_JOB_KINDS)('%s: runs on its queue, marks the job running and fails it with its activity message', async (kind) => {
    const acts = activities(async () => {
      throw ApplicationFailure.nonRetryable('the input is gone', 'NotFoundError');
    });
    const { input, taskQueue, error } = await runKind(kind, acts);

    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect((error as WorkflowFailedError).cause).toMatchObject({ type: 'JobFailed', message: 'the input is gone' });
    const body = acts.calls.filter((c) => !['admitJob', 'markJobRunning', 'markJobFinished'].includes(c.name));
    expect(acts.calls.map((c) => c.name)).toEqual(['admitJob', 'markJobRunning', body[0]?.name, 'markJobFinished']);
    expect(body).toHaveLength(1);
    expect(body[0].queue).toBe(taskQueue);
    expect(acts.calls.at(-1)?.args).toEqual([input.jobId, { status: 'failed', error: 'the input is gone' }]);
  });

  it.each(REGISTERED_JOB_KINDS)('%s: a cancel while its first activity runs closes the job as canceled', async (kind) => {
    let bodyStarted = false;
    const acts = activities(async () => {
      bodyStarted = true;
      // Heartbeats until the cancel arrives with a heartbeat's answer, as the real activities do (jobActivity).
      for (const ctx = Context.current(); ; await ctx.sleep(50)) ctx.heartbeat();
    });
    const { input, error } = await runKind(kind, acts, async (handle) => {
      while (!bodyStarted) await new Promise((r) => setTimeout(r, 20));
      await handle.cancel();
    });

    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect((error as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    expect(acts.calls.at(-1)).toMatchObject({ name: 'markJobFinished', args: [input.jobId, { status: 'canceled', error: null }] });
  });

  it('replays the histories this test recorded (RECORD_WORKFLOW_HISTORIES=1: `<kind>-generic-failed`, `-canceled`)', async () => {
    for (const kind of REGISTERED_JOB_KINDS) await replaySavedHistories(bundle, `${kind.replace(/_/g, '-')}-generic-`);
  });
});

import { Context } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundle } from '@temporalio/worker';
import type { JobLifecycleActivities } from '../../activities/job-lifecycle';
import type { AutomlTrainActivities, PreparedPlan, TrainOutcome } from '../../activities/automl-train';
import type { ModelSpec } from '../../engine/automl';
import type { AutomlTrainInput, automlTrainWorkflow } from '../../workflows/automl-train';
import type { JobProgress } from '../../workflows/progress';
import { WorkerMetrics } from '../../workers/metrics';
import { createWorker, HeartbeatsUntilCanceled, jobInput, maybeRecordHistory, recording, replaySavedHistories, startTimeSkipping, waitFor } from './support/time-skipping';

/**
 * The AutoML workflow's own logic (budgets, GPU routing, cancel, failures) against the time-skipping test server,
 * with mocked activities. What the activities do is tested end to end in test/experiments.test.ts.
 *
 * How time moves on this server (measured with test server 1.38.0): timers and retry backoffs are skipped while the
 * client awaits a result, but the server holds its clock while an activity is scheduled or running. `env.sleep` inside
 * a running activity releases that hold for its duration, so a mock can "take" server time; keep it shorter than the
 * heartbeat timeout (20 s), or that timeout fires during the skip. A schedule-to-start timeout (no GPU worker) is
 * not skipped, so the GPU test uses a one-second one.
 */

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
});

afterAll(async () => {
  await env?.teardown();
});

type Mocks = JobLifecycleActivities & AutomlTrainActivities;

function spec(name: string, algo: ModelSpec['algo'] = 'GBM'): ModelSpec {
  return { name, algo, params: {}, origin: 'default' };
}

function specs(n: number): ModelSpec[] {
  return Array.from({ length: n }, (_, i) => spec(`GBM_${i + 1}`));
}

function prepared(overrides: Partial<PreparedPlan>): PreparedPlan {
  return { kind: 'binary', rows: 1000, plan: specs(3), maxRuntimeSecs: 3600, maxModels: 100, perModelSecs: null, excludeEnsembles: false, ...overrides };
}

/** Activities that succeed at once; a test overrides the ones it is about. */
function mocks(prep: PreparedPlan, overrides: Partial<Mocks> = {}): Mocks {
  return {
    async admitJob() {
      return true;
    },
    async markJobRunning() {},
    async markJobFinished() {},
    async prepareExperimentData() {
      return prep;
    },
    async trainModel({ spec: s }): Promise<TrainOutcome> {
      return { status: 'trained', modelId: `model-${s.name}` };
    },
    async trainEnsembles() {
      return { trained: 2 };
    },
    async finishExperiment() {
      return { best_model_id: 'model-best', model_count: 3 };
    },
    async logExperiment() {},
    ...overrides,
  };
}

function automlInput(extra: Partial<AutomlTrainInput> = {}): AutomlTrainInput & { workflowId: string } {
  return { ...jobInput(), experimentId: 'exp-1', useGpu: false, gpuScheduleToStartSecs: 30, ...extra };
}

function start(input: AutomlTrainInput & { workflowId: string }) {
  return env.client.workflow.start<typeof automlTrainWorkflow>('automlTrainWorkflow', { taskQueue: input.queues.cpu, workflowId: input.workflowId, args: [input] });
}

/** The cause a failed job workflow ends with (runJob's `JobFailed`), or the error itself if it is not one. */
async function failureOf(result: Promise<unknown>): Promise<Error> {
  const err = await result.then(
    () => {
      throw new Error('the workflow succeeded');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorkflowFailedError);
  return (err as WorkflowFailedError).cause ?? (err as Error);
}

describe('automlTrainWorkflow budgets', () => {
  it('gives the first model no budget deadline, so a budget shorter than one model still ends with that model', async () => {
    const input = automlInput();
    const rec = recording<Mocks>(
      mocks(prepared({ plan: specs(3), maxRuntimeSecs: 1 }), {
        async trainModel({ spec: s }) {
          await env.sleep('5s');
          return { status: 'trained', modelId: `model-${s.name}` };
        },
      }),
    );
    const worker = await createWorker(env, { taskQueue: input.queues.cpu, activities: rec.activities, bundle });
    const result = await worker.runUntil(start(input).then((h) => h.result()));

    const trained = rec.argsOf('trainModel').map(([a]) => a as Parameters<Mocks['trainModel']>[0]);
    expect(trained.map((a) => a.spec.name)).toEqual(['GBM_1']);
    expect(trained[0].deadlineMs).toBeUndefined();
    expect(result.best_model_id).toBe('model-best');
    expect(rec.argsOf('logExperiment')).toEqual([[{ experimentId: 'exp-1', lines: ['time budget of 1s reached after 1 models'] }]]);
  });

  it('stops at the time budget, logs it, still builds the ensembles and succeeds', async () => {
    const input = automlInput();
    // Each model takes 15 s of server time (under the 20 s heartbeat timeout): the 5th would start at 60 s.
    const rec = recording<Mocks>(
      mocks(prepared({ plan: specs(6), maxRuntimeSecs: 60, perModelSecs: 20 }), {
        async trainModel({ spec: s }) {
          await env.sleep('15s');
          return { status: 'trained', modelId: `model-${s.name}` };
        },
      }),
    );
    const worker = await createWorker(env, { taskQueue: input.queues.cpu, activities: rec.activities, bundle });
    const handle = await start(input);
    const result = await worker.runUntil(handle.result());

    expect(result).toEqual({ best_model_id: 'model-best', model_count: 3 });
    const trained = rec.argsOf('trainModel').map(([a]) => a as Parameters<Mocks['trainModel']>[0]);
    expect(trained.map((a) => a.spec.name)).toEqual(['GBM_1', 'GBM_2', 'GBM_3', 'GBM_4']);
    expect(trained.map((a) => a.sequence)).toEqual([1, 2, 3, 4]);
    expect(rec.argsOf('logExperiment')).toEqual([[{ experimentId: 'exp-1', lines: ['time budget of 60s reached after 4 models'] }]]);
    // Ensembles get the budget's end plus their 30 s grace; each model the earlier of the budget and its own 20 s.
    const [[ensembles]] = rec.argsOf('trainEnsembles') as [[{ deadlineMs: number }]];
    const budgetEnd = ensembles.deadlineMs - 30_000;
    expect(trained[0].deadlineMs).toBe(budgetEnd - 60_000 + 20_000);
    expect(trained[3].deadlineMs).toBe(budgetEnd);
    expect(rec.calls.slice(-2).map((c) => [c.name, c.args.at(-1)])).toEqual([
      ['finishExperiment', { experimentId: 'exp-1', outcome: 'succeeded' }],
      ['markJobFinished', { status: 'succeeded', result }],
    ]);
    await maybeRecordHistory(handle, 'automl-train-time-budget');
  });

  it('stops at max_models', async () => {
    const input = automlInput();
    const rec = recording<Mocks>(mocks(prepared({ plan: specs(5), maxModels: 2 })));
    const worker = await createWorker(env, { taskQueue: input.queues.cpu, activities: rec.activities, bundle });
    await worker.runUntil(start(input).then((h) => h.result()));

    expect(rec.argsOf('trainModel')).toHaveLength(2);
    expect(rec.argsOf('logExperiment')).toEqual([]);
    expect(rec.argsOf('trainEnsembles')).toHaveLength(1);
    expect(rec.argsOf('finishExperiment')).toEqual([[{ experimentId: 'exp-1', outcome: 'succeeded' }]]);
  });

  it('counts only trained models against max_models and builds no ensemble from fewer than two', async () => {
    const input = automlInput();
    const rec = recording<Mocks>(
      mocks(prepared({ plan: specs(3), maxModels: 2 }), {
        async trainModel({ spec: s }) {
          return s.name === 'GBM_3' ? { status: 'trained', modelId: 'model-3' } : { status: 'failed', message: 'diverged' };
        },
      }),
    );
    const worker = await createWorker(env, { taskQueue: input.queues.cpu, activities: rec.activities, bundle });
    await worker.runUntil(start(input).then((h) => h.result()));

    expect(rec.argsOf('trainModel')).toHaveLength(3);
    expect(rec.argsOf('trainEnsembles')).toEqual([]);
  });
});

describe('automlTrainWorkflow GPU routing', () => {
  it('trains a DeepLearning model on the CPU training queue when no GPU worker takes it in time, and says so', async () => {
    // Nothing polls the gpu queue. The server holds its clock while an activity is scheduled, so this one timeout
    // runs in wall-clock time: keep it at a second.
    const input = automlInput({ useGpu: true, gpuScheduleToStartSecs: 1 });
    const rec = recording<Mocks>(mocks(prepared({ plan: [spec('DeepLearning_1', 'DeepLearning'), spec('GBM_1')] })));
    const worker = await createWorker(env, { taskQueue: input.queues.cpu, activities: rec.activities, bundle });
    await worker.runUntil(async () => {
      const handle = await start(input);
      await handle.result();
      await maybeRecordHistory(handle, 'automl-train-gpu-fallback');
    });

    expect(rec.argsOf('logExperiment')).toEqual([
      [{ experimentId: 'exp-1', lines: [`no GPU worker took DeepLearning_1 within 1s; training it on a CPU worker (task queue ${input.queues.cpu})`], level: 'warn' }],
    ]);
    expect(rec.argsOf('trainModel').map(([a]) => (a as { spec: ModelSpec }).spec.name)).toEqual(['DeepLearning_1', 'GBM_1']);
  });

  it('sends DeepLearning to a GPU worker when one polls, and the other families to ml-cpu', async () => {
    const input = automlInput({ useGpu: true });
    const queueOf: Record<string, string> = {};
    const train: Mocks['trainModel'] = async ({ spec: s }) => {
      queueOf[s.name] = Context.current().info.taskQueue;
      return { status: 'trained', modelId: `model-${s.name}` };
    };
    const cpu = recording<Mocks>(mocks(prepared({ plan: [spec('GBM_1'), spec('DeepLearning_1', 'DeepLearning'), spec('GLM_1', 'GLM')] }), { trainModel: train }));
    const gpu = recording<Pick<AutomlTrainActivities, 'trainModel'>>({ trainModel: train });
    const cpuWorker = await createWorker(env, { taskQueue: input.queues.cpu, activities: cpu.activities, bundle });
    const gpuWorker = await createWorker(env, { taskQueue: input.queues.gpu, activities: gpu.activities });
    await gpuWorker.runUntil(cpuWorker.runUntil(start(input).then((h) => h.result())));

    expect(queueOf).toEqual({ GBM_1: input.queues.cpu, DeepLearning_1: input.queues.gpu, GLM_1: input.queues.cpu });
    expect(gpu.calls).toHaveLength(1);
    expect(cpu.argsOf('logExperiment')).toEqual([]);
  });
});

describe('automlTrainWorkflow cancel and failures', () => {
  it('on cancel keeps the trained models: finishes the experiment as canceled and marks the job canceled', async () => {
    const input = automlInput();
    const training = new HeartbeatsUntilCanceled();
    const rec = recording<Mocks>(
      mocks(prepared({ plan: specs(3) }), {
        async trainModel({ spec: s }) {
          if (s.name === 'GBM_1') return { status: 'trained', modelId: 'model-1' };
          return training.run();
        },
      }),
    );
    const worker = await createWorker(env, { taskQueue: input.queues.cpu, activities: rec.activities, bundle, maxHeartbeatThrottleInterval: '50ms' });
    await worker.runUntil(async () => {
      const handle = await start(input);
      await waitFor(() => training.started, 'the second model to start training');
      expect(await handle.query<JobProgress>('progress')).toEqual({ status: 'running', step: 'training GBM_2 (2/3)', progress: 30 });
      await handle.cancel();
      const err = await handle.result().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WorkflowFailedError);
      expect((err as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
      await waitFor(() => training.sawCancel, 'the training activity to see the cancel');
      await maybeRecordHistory(handle, 'automl-train-canceled');
    });

    expect(rec.argsOf('finishExperiment')).toEqual([[{ experimentId: 'exp-1', outcome: 'canceled' }]]);
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'canceled', error: null }]]);
    expect(rec.argsOf('trainEnsembles')).toEqual([]);
    expect(rec.calls.map((c) => c.name)).toEqual(['admitJob', 'markJobRunning', 'prepareExperimentData', 'trainModel', 'trainModel', 'finishExperiment', 'markJobFinished']);
  });

  it('on cancel during the stacked ensembles still picks the leader among the models trained', async () => {
    const input = automlInput();
    let ensemblesStarted = false;
    const rec = recording<Mocks>(
      mocks(prepared({ plan: specs(2) }), {
        async trainEnsembles() {
          ensemblesStarted = true;
          const ctx = Context.current();
          for (;;) {
            ctx.heartbeat();
            await ctx.sleep(50);
          }
        },
      }),
    );
    const worker = await createWorker(env, { taskQueue: input.queues.cpu, activities: rec.activities, bundle, maxHeartbeatThrottleInterval: '50ms' });
    await worker.runUntil(async () => {
      const handle = await start(input);
      await waitFor(() => ensemblesStarted, 'the ensembles to start');
      await handle.cancel();
      expect((await failureOf(handle.result())).constructor).toBe(CancelledFailure);
      await maybeRecordHistory(handle, 'automl-train-canceled-in-ensembles');
    });

    expect(rec.argsOf('finishExperiment')).toEqual([[{ experimentId: 'exp-1', outcome: 'canceled' }]]);
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'canceled', error: null }]]);
  });

  it('fails the job once, with the activity message, on a fault the retry policy names (DataError)', async () => {
    const input = automlInput();
    const message = 'The target column "churn" has a single value';
    const rec = recording<Mocks>(
      mocks(prepared({}), {
        async prepareExperimentData() {
          // Retryable as thrown: only the workflow's nonRetryableErrorTypes stops the retries.
          throw ApplicationFailure.create({ message, type: 'DataError' });
        },
      }),
    );
    const worker = await createWorker(env, { taskQueue: input.queues.cpu, activities: rec.activities, bundle });
    const cause = await worker.runUntil(failureOf(start(input).then((h) => h.result())));

    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect(cause).toMatchObject({ type: 'JobFailed', message, nonRetryable: true });
    expect(rec.argsOf('prepareExperimentData')).toHaveLength(1);
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'failed', error: message }]]);
    expect(rec.argsOf('finishExperiment')).toEqual([]);
  });

  it('retries other faults with backoff and carries on', async () => {
    const input = automlInput();
    const attempts: number[] = [];
    const rec = recording<Mocks>(
      mocks(prepared({ plan: specs(2) }), {
        async trainModel({ spec: s }) {
          const { attempt } = Context.current().info;
          if (s.name === 'GBM_1') attempts.push(attempt);
          if (s.name === 'GBM_1' && attempt < 3) throw new Error('the training thread exited');
          return { status: 'trained', modelId: `model-${s.name}` };
        },
      }),
    );
    const worker = await createWorker(env, { taskQueue: input.queues.cpu, activities: rec.activities, bundle });
    const result = await worker.runUntil(start(input).then((h) => h.result()));

    expect(attempts).toEqual([1, 2, 3]);
    expect(result.best_model_id).toBe('model-best');
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'succeeded', result }]]);
  });

  it('fails the job with a readable message when no model could be trained', async () => {
    const input = automlInput();
    const rec = recording<Mocks>(
      mocks(prepared({ plan: specs(2) }), {
        async trainModel() {
          return { status: 'failed', message: 'diverged' };
        },
        async finishExperiment() {
          return { best_model_id: null, model_count: 0 };
        },
      }),
    );
    const worker = await createWorker(env, { taskQueue: input.queues.cpu, activities: rec.activities, bundle });
    const cause = await worker.runUntil(failureOf(start(input).then((h) => h.result())));

    expect(cause).toMatchObject({ type: 'JobFailed', message: 'No model was trained' });
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'failed', error: 'No model was trained' }]]);
  });
});

describe('automlTrainWorkflow parallel training', () => {
  /** An input whose models train on a queue of their own, `parallelism` at once. */
  function parallelInput(parallelism: number): AutomlTrainInput & { workflowId: string; training: { taskQueue: string; parallelism: number } } {
    const input = automlInput();
    return { ...input, training: { taskQueue: `${input.queues.cpu}-train`, parallelism } };
  }

  /** Counts trainModel calls in flight (and the most at once); each call waits for `release(name)` or for `hold` to say it may go. */
  function inFlightTracker() {
    const t = { now: 0, most: 0, started: [] as string[], releases: new Map<string, () => void>() };
    const trainModel =
      (outcome: (name: string) => TrainOutcome['status'] = () => 'trained'): Mocks['trainModel'] =>
      async ({ spec: s }) => {
        t.now++;
        t.most = Math.max(t.most, t.now);
        t.started.push(s.name);
        try {
          // Released by the test, or canceled (a worker shutting down after a failed expectation must not hang).
          await Promise.race([new Promise<void>((resolve) => t.releases.set(s.name, resolve)), Context.current().cancelled]);
          const status = outcome(s.name);
          return status === 'trained' ? { status, modelId: `model-${s.name}` } : { status, message: 'diverged' };
        } finally {
          t.now--;
        }
      };
    /** Lets the oldest waiting model finish. */
    const releaseOldest = () => {
      const [name, release] = t.releases.entries().next().value as [string, () => void];
      t.releases.delete(name);
      release();
    };
    return { t, trainModel, releaseOldest };
  }

  it('keeps `parallelism` models in flight on the training queue, in plan order, and trains the whole plan', async () => {
    const input = parallelInput(3);
    const { t, trainModel, releaseOldest } = inFlightTracker();
    const cpu = recording<Mocks>(mocks(prepared({ plan: specs(7) })));
    const train = recording<Pick<AutomlTrainActivities, 'trainModel'>>({ trainModel: trainModel() });
    const cpuWorker = await createWorker(env, { taskQueue: input.queues.cpu, activities: cpu.activities, bundle });
    const trainWorker = await createWorker(env, { taskQueue: input.training.taskQueue, activities: train.activities });
    const result = await trainWorker.runUntil(
      cpuWorker.runUntil(async () => {
        const handle = await start(input);
        await waitFor(() => t.now === 3, 'three models in flight');
        // The three are scheduled together; a worker may start them in any order.
        expect([...t.started].sort()).toEqual(['GBM_1', 'GBM_2', 'GBM_3']);
        expect(await handle.query<JobProgress>('progress')).toEqual({ status: 'running', step: 'training GBM_1, GBM_2, GBM_3 (3/7)', progress: 0 });
        // Finish them one at a time: each finished model makes room for the next of the plan, never a fourth at once.
        for (let done = 1; done <= 7; done++) {
          releaseOldest();
          await waitFor(() => t.started.length === Math.min(7, 3 + done) && t.now === Math.min(3, 7 - done), `${Math.min(3, 7 - done)} models in flight after ${done} finished`);
          expect([...t.started].sort()).toEqual(specs(Math.min(7, 3 + done)).map((m) => m.name));
        }
        const out = await handle.result();
        await maybeRecordHistory(handle, 'automl-train-parallel');
        return out;
      }),
    );

    expect(t.most).toBe(3);
    expect(cpu.argsOf('trainModel')).toEqual([]);
    // Each model keeps its place in the plan as its sequence, whatever order they finish in.
    const calls = train.argsOf('trainModel').map(([a]) => a as { spec: ModelSpec; sequence: number });
    expect(calls.map((a) => [a.spec.name, a.sequence]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual(specs(7).map((m, i) => [m.name, i + 1]));
    expect(cpu.argsOf('trainEnsembles')).toHaveLength(1);
    expect(result).toEqual({ best_model_id: 'model-best', model_count: 3 });
  });

  it('trains exactly max_models with several in flight, starting another only when one fails', async () => {
    const input = parallelInput(3);
    const { t, trainModel, releaseOldest } = inFlightTracker();
    // GBM_2 fails: its place goes to GBM_5; four models are trained and no fifth is ever started.
    const cpu = recording<Mocks>(mocks(prepared({ plan: specs(10), maxModels: 4 })));
    const train = recording<Pick<AutomlTrainActivities, 'trainModel'>>({ trainModel: trainModel((name) => (name === 'GBM_2' ? 'failed' : 'trained')) });
    const cpuWorker = await createWorker(env, { taskQueue: input.queues.cpu, activities: cpu.activities, bundle });
    const trainWorker = await createWorker(env, { taskQueue: input.training.taskQueue, activities: train.activities });
    await trainWorker.runUntil(
      cpuWorker.runUntil(async () => {
        const handle = await start(input);
        const result = handle.result();
        // Release whatever waits, oldest first, until the workflow is done with training.
        while (!cpu.argsOf('trainEnsembles').length) {
          if (t.releases.size) releaseOldest();
          await new Promise((r) => setTimeout(r, 20));
        }
        await result;
      }),
    );

    expect([...t.started].sort()).toEqual(['GBM_1', 'GBM_2', 'GBM_3', 'GBM_4', 'GBM_5']);
    expect(t.most).toBe(3);
    expect(cpu.argsOf('logExperiment')).toEqual([]);
  });

  it('on cancel with several models in flight cancels every one, keeps the trained models and ends canceled', async () => {
    const input = parallelInput(3);
    const started = new Set<string>();
    const sawCancel = new Set<string>();
    const trainModel: Mocks['trainModel'] = async ({ spec: s }) => {
      if (s.name === 'GBM_1') return { status: 'trained', modelId: 'model-1' };
      const ctx = Context.current();
      started.add(s.name);
      try {
        for (;;) {
          ctx.heartbeat();
          await ctx.sleep(50);
        }
      } catch (err) {
        if (err instanceof CancelledFailure) sawCancel.add(s.name);
        throw err;
      }
    };
    const cpu = recording<Mocks>(mocks(prepared({ plan: specs(6) })));
    const train = recording<Pick<AutomlTrainActivities, 'trainModel'>>({ trainModel });
    const cpuWorker = await createWorker(env, { taskQueue: input.queues.cpu, activities: cpu.activities, bundle });
    const trainWorker = await createWorker(env, { taskQueue: input.training.taskQueue, activities: train.activities, maxHeartbeatThrottleInterval: '50ms' });
    await trainWorker.runUntil(
      cpuWorker.runUntil(async () => {
        const handle = await start(input);
        // GBM_1 is trained at once; GBM_2..GBM_4 then run together until the cancel.
        await waitFor(() => started.size === 3, 'three models in flight');
        await handle.cancel();
        expect((await failureOf(handle.result())).constructor).toBe(CancelledFailure);
        await waitFor(() => sawCancel.size === 3, 'every model in flight to see the cancel');
        await maybeRecordHistory(handle, 'automl-train-parallel-canceled');
      }),
    );

    expect([...started].sort()).toEqual(['GBM_2', 'GBM_3', 'GBM_4']);
    expect(train.argsOf('trainModel')).toHaveLength(4);
    expect(cpu.argsOf('trainEnsembles')).toEqual([]);
    expect(cpu.argsOf('finishExperiment')).toEqual([[{ experimentId: 'exp-1', outcome: 'canceled' }]]);
    expect(cpu.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'canceled', error: null }]]);
  });

  it('stops starting models at the time budget, lets those in flight finish, and gives each its per-model budget from its own start', async () => {
    const input = parallelInput(2);
    // The server holds its clock while an activity runs, and with two running one always does: this runs in real
    // time, so it is short. Each model takes 3 s; pairs start until the 10 s budget is spent.
    const train = recording<Pick<AutomlTrainActivities, 'trainModel'>>({
      async trainModel({ spec: s }) {
        await env.sleep('3s');
        return { status: 'trained', modelId: `model-${s.name}` };
      },
    });
    const cpu = recording<Mocks>(mocks(prepared({ plan: specs(12), maxRuntimeSecs: 10, perModelSecs: 4 })));
    const cpuWorker = await createWorker(env, { taskQueue: input.queues.cpu, activities: cpu.activities, bundle });
    const trainWorker = await createWorker(env, { taskQueue: input.training.taskQueue, activities: train.activities });
    await trainWorker.runUntil(cpuWorker.runUntil(start(input).then((h) => h.result())));

    const args = train.argsOf('trainModel').map(([a]) => a as Parameters<Mocks['trainModel']>[0]);
    const [[ensembles]] = cpu.argsOf('trainEnsembles') as [[{ deadlineMs: number }]];
    const budgetEnd = ensembles.deadlineMs - 30_000;
    expect(args.length).toBeGreaterThanOrEqual(2);
    expect(args.length).toBeLessThan(12);
    expect(cpu.argsOf('logExperiment')).toEqual([[{ experimentId: 'exp-1', lines: [`time budget of 10s reached after ${args.length} models`] }]]);
    // The plan's first model is never stopped by the experiment's budget, only by its own. Two start at once, so
    // the recorded order of the first two calls is the workers' and not the plan's.
    const first = args.find((a) => a.sequence === 1);
    expect(first?.perModelMs).toBe(4_000);
    expect(first?.budgetDeadlineMs).toBeUndefined();
    for (const a of args.filter((x) => x.sequence !== 1)) expect(a).toMatchObject({ budgetDeadlineMs: budgetEnd, perModelMs: 4_000 });
  });
});

describe('worker activity metrics', () => {
  it('times every attempt by outcome and counts the retries (attempt > 1)', async () => {
    const input = automlInput();
    const metrics = new WorkerMetrics();
    const rec = recording<Mocks>(
      mocks(prepared({ plan: specs(2) }), {
        async trainModel({ spec: s }) {
          if (s.name === 'GBM_1' && Context.current().info.attempt < 3) throw new Error('the training thread exited');
          return { status: 'trained', modelId: `model-${s.name}` };
        },
      }),
    );
    const worker = await createWorker(env, { taskQueue: input.queues.cpu, activities: rec.activities, bundle, interceptors: { activity: [metrics.interceptor] } });
    await worker.runUntil(start(input).then((h) => h.result()));

    const text = await metrics.registry.metrics();
    const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
    const q = input.queues.cpu;
    expect(value(`mlsvc_activity_retries_total{activity_type="trainModel",task_queue="${q}"}`)).toBe(2);
    expect(value(`mlsvc_activity_duration_seconds_count{activity_type="trainModel",task_queue="${q}",outcome="failed"}`)).toBe(2);
    expect(value(`mlsvc_activity_duration_seconds_count{activity_type="trainModel",task_queue="${q}",outcome="completed"}`)).toBe(2);
    expect(value(`mlsvc_activity_duration_seconds_count{activity_type="finishExperiment",task_queue="${q}",outcome="completed"}`)).toBe(1);
    expect(value(`mlsvc_activities_running{activity_type="trainModel",task_queue="${q}"}`)).toBe(0);
    expect(text).not.toMatch(/mlsvc_activity_retries_total\{activity_type="finishExperiment"/);
  });
});

describe('automlTrainWorkflow replay', () => {
  it('replays the saved histories with the current workflow code (a nondeterministic change fails here)', async () => {
    const replayed = await replaySavedHistories(bundle, 'automl-train-');
    expect(replayed.sort()).toEqual([
      'automl-train-canceled-in-ensembles-before-patch.json', // recorded before the finish-on-cancel-in-ensembles patch
      'automl-train-canceled-in-ensembles.json',
      'automl-train-canceled.json',
      'automl-train-gpu-fallback.json',
      'automl-train-parallel-canceled.json', // several models in flight when canceled (parallel-training patch)
      'automl-train-parallel.json', // three models in flight at once (parallel-training patch)
      'automl-train-time-budget.json', // recorded before the parallel-training patch, as are the ones above it
    ]);
  });
});

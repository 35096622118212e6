import { Context } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundle } from '@temporalio/worker';
import type { JobLifecycleActivities } from '../../activities/job-lifecycle';
import type { SynthgenGenerateActivities, SynthGenerateResult } from '../../activities/synthgen-generate';
import type { SynthgenTrainActivities, SynthTrainResult } from '../../activities/synthgen-train';
import type { SynthgenTrainInput } from '../../workflows/synthgen-train';
import { createWorker, HeartbeatsUntilCanceled, jobInput, maybeRecordHistory, recording, replaySavedHistories, startTimeSkipping, waitFor } from './support/time-skipping';

/**
 * The synthgen_train and synthgen_generate workflows with mocked activities on the time-skipping server: queue
 * routing (GPU when asked, with the CPU fallback), retries, non-retryable failures, cancel, and replay of saved
 * histories. The work itself is tested through HTTP in test/synthgen.test.ts.
 */

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
});

afterAll(async () => {
  await env?.teardown();
});

type Mocks = JobLifecycleActivities & SynthgenTrainActivities & SynthgenGenerateActivities;
const TRAINED: SynthTrainResult = { model_id: 'm-1', artifact_id: 'a-1', training_rows: 802, holdout_rows: 89, training_secs: 3.5, resumed_from_epoch: null };
const GENERATED: SynthGenerateResult = { synthgen_job_id: 'j-1', model_id: 'm-1', rows: 1000, artifact_id: 'a-2', parquet_artifact_id: 'a-3', overall_score: 0.87 };

function mocks(overrides: Partial<Mocks> = {}): Mocks {
  return {
    async admitJob() {
      return true;
    },
    async markJobRunning() {},
    async markJobFinished() {},
    async trainSynthesizer() {
      return TRAINED;
    },
    async generateSynthetic() {
      return GENERATED;
    },
    ...overrides,
  };
}

function trainInput(extra: Partial<SynthgenTrainInput> = {}): SynthgenTrainInput & { workflowId: string } {
  return { ...jobInput(), modelId: 'm-1', useGpu: false, neural: true, gpuScheduleToStartSecs: 30, ...extra };
}

/** Runs a workflow to its end on a worker of the cpu queue (and the gpu queue when given activities for it). */
async function run(
  kind: 'synthgenTrainWorkflow' | 'synthgenGenerateWorkflow',
  input: ReturnType<typeof trainInput>,
  cpu: Mocks,
  opts: { gpu?: Partial<Mocks>; during?: (h: { cancel(): Promise<unknown> }) => Promise<void>; history?: string } = {},
) {
  const cpuWorker = await createWorker(env, { taskQueue: input.queues.cpu, activities: cpu, bundle, maxHeartbeatThrottleInterval: '50ms' });
  const gpuWorker = opts.gpu ? await createWorker(env, { taskQueue: input.queues.gpu, activities: opts.gpu }) : null;
  const body = async () => {
    const handle = await env.client.workflow.start(kind, { taskQueue: input.queues.cpu, workflowId: input.workflowId, args: [input] });
    const pending = handle.result().then(
      (value) => ({ value, error: undefined }),
      (error: unknown) => ({ value: undefined, error }),
    );
    await opts.during?.(handle);
    const settled = await pending;
    if (opts.history) await maybeRecordHistory(handle, opts.history);
    return settled;
  };
  return gpuWorker ? gpuWorker.runUntil(cpuWorker.runUntil(body)) : cpuWorker.runUntil(body);
}

describe('synthgen_train', () => {
  it('trains on the cpu queue and keeps the result on the job', async () => {
    const input = trainInput();
    const rec = recording<Mocks>(mocks());
    const { value } = await run('synthgenTrainWorkflow', input, rec.activities, { history: 'synthgen-train-succeeded' });
    expect(value).toEqual(TRAINED);
    expect(rec.calls).toEqual([
      { name: 'admitJob', args: [input.jobId] },
      { name: 'markJobRunning', args: [input.jobId] },
      { name: 'trainSynthesizer', args: [{ jobId: input.jobId, modelId: 'm-1' }] },
      { name: 'markJobFinished', args: [input.jobId, { status: 'succeeded', result: TRAINED }] },
    ]);
  });

  it('sends a neural model with use_gpu to a GPU worker when one polls', async () => {
    const input = trainInput({ useGpu: true });
    let queue = '';
    const cpu = recording<Mocks>(mocks());
    const gpu = recording<Pick<Mocks, 'trainSynthesizer'>>({
      async trainSynthesizer() {
        queue = Context.current().info.taskQueue;
        return TRAINED;
      },
    });
    const { value } = await run('synthgenTrainWorkflow', input, cpu.activities, { gpu: gpu.activities });
    expect(value).toEqual(TRAINED);
    expect(queue).toBe(input.queues.gpu);
    expect(cpu.argsOf('trainSynthesizer')).toEqual([]);
  });

  it('trains on ml-cpu, saying why, when no GPU worker takes it within the schedule-to-start timeout', async () => {
    // Nothing polls the gpu queue; the server does not skip a schedule-to-start timeout, so it is a second long.
    const input = trainInput({ useGpu: true, gpuScheduleToStartSecs: 1 });
    const rec = recording<Mocks>(mocks());
    const { value } = await run('synthgenTrainWorkflow', input, rec.activities, { history: 'synthgen-train-gpu-fallback' });
    expect(value).toEqual(TRAINED);
    expect(rec.argsOf('trainSynthesizer')).toEqual([[{ jobId: input.jobId, modelId: 'm-1', gpuFallbackSecs: 1 }]]);
  });

  it('never waits for a GPU with the Gaussian copula, even with use_gpu', async () => {
    const input = trainInput({ useGpu: true, neural: false, gpuScheduleToStartSecs: 600 });
    const rec = recording<Mocks>(mocks());
    await run('synthgenTrainWorkflow', input, rec.activities);
    expect(rec.argsOf('trainSynthesizer')).toEqual([[{ jobId: input.jobId, modelId: 'm-1' }]]);
  });

  it('retries an attempt that died (a killed worker) and succeeds with the next one', async () => {
    const input = trainInput();
    const attempts: number[] = [];
    const rec = recording<Mocks>(
      mocks({
        async trainSynthesizer() {
          const { attempt } = Context.current().info;
          attempts.push(attempt);
          if (attempt === 1) throw new Error('the training thread exited');
          return { ...TRAINED, resumed_from_epoch: 3 };
        },
      }),
    );
    const { value } = await run('synthgenTrainWorkflow', input, rec.activities);
    expect(attempts).toEqual([1, 2]);
    expect(value).toEqual({ ...TRAINED, resumed_from_epoch: 3 });
  });

  it('fails once, with the message, on a fault retrying cannot fix', async () => {
    const input = trainInput();
    const message = 'A model needs at least one column to learn from';
    const rec = recording<Mocks>(
      mocks({
        async trainSynthesizer() {
          throw ApplicationFailure.create({ message, type: 'DataError' });
        },
      }),
    );
    const { error } = await run('synthgenTrainWorkflow', input, rec.activities);
    expect((error as WorkflowFailedError).cause).toMatchObject({ type: 'JobFailed', message });
    expect(rec.argsOf('trainSynthesizer')).toHaveLength(1);
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'failed', error: message }]]);
  });

  it('a cancel stops the training activity and marks the job canceled', async () => {
    const input = trainInput();
    const activity = new HeartbeatsUntilCanceled({ progress: 30, message: 'epoch 3/10: loss_g 1.2, loss_d -0.3' });
    const rec = recording<Mocks>(
      mocks({
        trainSynthesizer: activity.run,
      }),
    );
    const { error } = await run('synthgenTrainWorkflow', input, rec.activities, {
      during: async (handle) => {
        await waitFor(() => activity.started, 'training to start');
        await handle.cancel();
      },
    });
    expect((error as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    await waitFor(() => activity.sawCancel, 'the training activity to see the cancel');
    expect(rec.argsOf('markJobFinished')).toEqual([[input.jobId, { status: 'canceled', error: null }]]);
  });
});

describe('synthgen_generate', () => {
  it('generates on the cpu queue and keeps the result on the job', async () => {
    const input = trainInput();
    const rec = recording<Mocks>(mocks());
    const { value } = await run('synthgenGenerateWorkflow', input, rec.activities, { history: 'synthgen-generate-succeeded' });
    expect(value).toEqual(GENERATED);
    expect(rec.calls).toEqual([
      { name: 'admitJob', args: [input.jobId] },
      { name: 'markJobRunning', args: [input.jobId] },
      { name: 'generateSynthetic', args: [{ jobId: input.jobId }] },
      { name: 'markJobFinished', args: [input.jobId, { status: 'succeeded', result: GENERATED }] },
    ]);
  });

  it('an impossible condition found while sampling fails the job once, readably', async () => {
    const input = trainInput();
    const message = 'No row can hold sex = "unknown"';
    const rec = recording<Mocks>(
      mocks({
        async generateSynthetic() {
          throw ApplicationFailure.create({ message, type: 'DataError' });
        },
      }),
    );
    const { error } = await run('synthgenGenerateWorkflow', input, rec.activities);
    expect((error as WorkflowFailedError).cause).toMatchObject({ type: 'JobFailed', message });
    expect(rec.argsOf('generateSynthetic')).toHaveLength(1);
  });
});

describe('synthgen replay', () => {
  it('replays the saved histories with the current workflow code', async () => {
    expect((await replaySavedHistories(bundle, 'synthgen-')).sort()).toEqual(['synthgen-generate-succeeded.json', 'synthgen-train-gpu-fallback.json', 'synthgen-train-succeeded.json']);
  });
});

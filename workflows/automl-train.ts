import { ActivityFailure, ActivityInterfaceFor, ApplicationFailure, CancellationScope, isCancellation, patched, proxyActivities, RetryPolicy, TimeoutFailure } from '@temporalio/workflow';
import type { AutomlTrainActivities, PreparedPlan, TrainModelInput, TrainOutcome } from '../activities/automl-train';
import { JobWorkflowInput, NON_RETRYABLE_ERROR_TYPES } from './job-input';
import { runJob } from './job-lifecycle';
import type { JobProgress } from './progress';
import { trainPlan } from './automl-train-plan';

export interface AutomlTrainInput extends JobWorkflowInput {
  experimentId: string;
  useGpu: boolean;
  /** Seconds a GPU task may wait for a GPU worker before it goes to the training queue (a CPU worker) instead. */
  gpuScheduleToStartSecs: number;
  /**
   * Where models train and how many are in flight at once (TRAINING_PARALLELISM); workflows read no config, so it
   * travels here. Absent in runs started before it existed: one model at a time on `queues.cpu`.
   */
  training?: { taskQueue: string; parallelism: number };
}

/** How far past the budget the stacked ensembles may finish. */
const ENSEMBLE_GRACE_MS = 30_000;

/** Patch id: a cancel during the stacked ensembles also finishes the experiment as canceled. */
const FINISH_ON_CANCEL_IN_ENSEMBLES = 'finish-on-cancel-in-ensembles';

/** Patch id: models train on the training queue, up to `training.parallelism` at once. Runs recorded before it train one at a time on ml-cpu. */
const PARALLEL_TRAINING = 'parallel-training';

/** Families that run on the GPU queue when the experiment asks for it. */
const GPU_FAMILIES = new Set(['DeepLearning']);

const retry: RetryPolicy = { maximumAttempts: 3, initialInterval: '2s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES };

/**
 * AutoML as a durable workflow: prepare the data once, train the plan one model per activity (several at once, on
 * whichever workers have a free training slot) within the time and model budget (the leaderboard fills as models
 * finish), then pick the best model. A cancel keeps the models trained so far.
 */
export async function automlTrainWorkflow(input: AutomlTrainInput): Promise<{ best_model_id: string | null; model_count: number }> {
  const cpu = proxyActivities<AutomlTrainActivities>({ taskQueue: input.queues.cpu, startToCloseTimeout: '6h', heartbeatTimeout: '20s', retry });
  const gpu = proxyActivities<AutomlTrainActivities>({
    taskQueue: input.queues.gpu,
    startToCloseTimeout: '6h',
    scheduleToStartTimeout: `${input.gpuScheduleToStartSecs}s`,
    heartbeatTimeout: '20s',
    retry: { ...retry, maximumAttempts: 1 },
  });
  const { experimentId } = input;

  return runJob(input, async (state) => {
    state.step = 'preparing data';
    const prep = await cpu.prepareExperimentData({ experimentId });
    const startedAt = Date.now();
    const deadline = startedAt + prep.maxRuntimeSecs * 1000;
    let trained: number;
    let inEnsembles = false;
    try {
      if (patched(PARALLEL_TRAINING)) {
        // No scheduleToStartTimeout: a model waits on the training queue until a slot frees, however long that is.
        const train = proxyActivities<AutomlTrainActivities>({ taskQueue: input.training?.taskQueue ?? input.queues.cpu, startToCloseTimeout: '6h', heartbeatTimeout: '20s', retry });
        trained = await trainPlan({
          experimentId,
          prep,
          deadline,
          state,
          parallelism: Math.max(1, input.training?.parallelism ?? 1),
          train: (args) => routeModel(input, args, { activities: train, queue: input.training?.taskQueue ?? input.queues.cpu }, gpu, cpu),
          logBudgetReached: (n) => cpu.logExperiment({ experimentId, lines: [`time budget of ${prep.maxRuntimeSecs}s reached after ${n} models`] }),
        });
      } else {
        trained = await trainOneByOne(input, prep, deadline, state, cpu, gpu);
      }
      if (!prep.excludeEnsembles && trained >= 2) {
        // Ensembles are cheap (a metalearner on stored out-of-fold scores); like H2O they are
        // built last and get a short grace period past the budget.
        inEnsembles = true;
        state.step = 'training stacked ensembles';
        await cpu.trainEnsembles({ experimentId, deadlineMs: deadline + ENSEMBLE_GRACE_MS });
      }
    } catch (err) {
      // A cancel keeps the models trained so far, with their leader chosen. A cancel during the
      // ensembles used to skip this; the patch lets runs canceled there before it replay as they ran.
      if (isCancellation(err) && (!inEnsembles || patched(FINISH_ON_CANCEL_IN_ENSEMBLES))) {
        await CancellationScope.nonCancellable(() => cpu.finishExperiment({ experimentId, outcome: 'canceled' }));
      }
      throw err;
    }
    state.step = 'choosing the best model';
    const result = await cpu.finishExperiment({ experimentId, outcome: 'succeeded' });
    if (!result.best_model_id) throw ApplicationFailure.nonRetryable('No model was trained', 'DataError');
    return result;
  });
}

type Activities = ActivityInterfaceFor<AutomlTrainActivities>;

/**
 * DeepLearning goes to a GPU worker when asked for, and to the training queue (`train.queue`, polled by the CPU
 * workers) when none takes it in time; the log names that queue.
 */
async function routeModel(input: AutomlTrainInput, args: TrainModelInput, train: { activities: Activities; queue: string }, gpu: Activities, cpu: Activities): Promise<TrainOutcome> {
  if (!(input.useGpu && GPU_FAMILIES.has(args.spec.algo))) return train.activities.trainModel(args);
  try {
    return await gpu.trainModel(args);
  } catch (err) {
    if (!isScheduleToStartTimeout(err)) throw err;
    const line = `no GPU worker took ${args.spec.name} within ${input.gpuScheduleToStartSecs}s; training it on a CPU worker (task queue ${train.queue})`;
    await cpu.logExperiment({ experimentId: input.experimentId, lines: [line], level: 'warn' });
    return train.activities.trainModel(args);
  }
}

/** The loop before PARALLEL_TRAINING, kept as it was so that runs recorded with it replay. */
async function trainOneByOne(input: AutomlTrainInput, prep: PreparedPlan, deadline: number, state: JobProgress, cpu: Activities, gpu: Activities): Promise<number> {
  const { experimentId } = input;
  let trained = 0;
  for (let i = 0; i < prep.plan.length; i++) {
    const spec = prep.plan[i];
    if (trained >= prep.maxModels) break;
    if (Date.now() >= deadline) {
      await cpu.logExperiment({ experimentId, lines: [`time budget of ${prep.maxRuntimeSecs}s reached after ${trained} models`] });
      break;
    }
    const modelDeadline = prep.perModelSecs ? Math.min(deadline, Date.now() + prep.perModelSecs * 1000) : deadline;
    state.step = `training ${spec.name} (${i + 1}/${prep.plan.length})`;
    state.progress = Math.round((90 * trained) / Math.max(1, Math.min(prep.maxModels, prep.plan.length)));
    const outcome = await routeModel(input, { experimentId, spec, sequence: i + 1, deadlineMs: modelDeadline }, { activities: cpu, queue: input.queues.cpu }, gpu, cpu);
    if (outcome.status === 'trained') trained++;
  }
  return trained;
}

function isScheduleToStartTimeout(err: unknown): boolean {
  return err instanceof ActivityFailure && err.cause instanceof TimeoutFailure && err.cause.timeoutType === 'SCHEDULE_TO_START';
}

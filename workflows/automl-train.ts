import { ActivityFailure, ApplicationFailure, CancellationScope, isCancellation, patched, proxyActivities, RetryPolicy, TimeoutFailure } from '@temporalio/workflow';
import type { AutomlTrainActivities, TrainOutcome } from '../activities/automl-train';
import { JobWorkflowInput, NON_RETRYABLE_ERROR_TYPES } from './job-input';
import { runJob } from './job-lifecycle';

export interface AutomlTrainInput extends JobWorkflowInput {
  experimentId: string;
  useGpu: boolean;
  /** Seconds a GPU task may wait for a GPU worker before it runs on ml-cpu instead. */
  gpuScheduleToStartSecs: number;
}

/** How far past the budget the stacked ensembles may finish. */
const ENSEMBLE_GRACE_MS = 30_000;

/** Patch id: a cancel during the stacked ensembles also finishes the experiment as canceled. */
const FINISH_ON_CANCEL_IN_ENSEMBLES = 'finish-on-cancel-in-ensembles';

/** Families that run on the GPU queue when the experiment asks for it. */
const GPU_FAMILIES = new Set(['DeepLearning']);

const retry: RetryPolicy = { maximumAttempts: 3, initialInterval: '2s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES };

/**
 * AutoML as a durable workflow: prepare the data once, train the plan one model per
 * activity within the time and model budget (the leaderboard fills as models finish), then
 * pick the best model. A cancel keeps the models trained so far.
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

  return runJob(input.jobId, async (state) => {
    state.step = 'preparing data';
    const prep = await cpu.prepareExperimentData({ experimentId });
    const startedAt = Date.now();
    const deadline = startedAt + prep.maxRuntimeSecs * 1000;
    let trained = 0;
    let inEnsembles = false;
    try {
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
        const args = { experimentId, spec, sequence: i + 1, deadlineMs: modelDeadline };
        let outcome: TrainOutcome;
        if (input.useGpu && GPU_FAMILIES.has(spec.algo)) {
          try {
            outcome = await gpu.trainModel(args);
          } catch (err) {
            if (!isScheduleToStartTimeout(err)) throw err;
            await cpu.logExperiment({ experimentId, lines: [`no GPU worker took ${spec.name} within ${input.gpuScheduleToStartSecs}s; training it on ml-cpu`], level: 'warn' });
            outcome = await cpu.trainModel(args);
          }
        } else {
          outcome = await cpu.trainModel(args);
        }
        if (outcome.status === 'trained') trained++;
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

function isScheduleToStartTimeout(err: unknown): boolean {
  return err instanceof ActivityFailure && err.cause instanceof TimeoutFailure && err.cause.timeoutType === 'SCHEDULE_TO_START';
}

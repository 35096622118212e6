import { ActivityFailure, proxyActivities, RetryPolicy, TimeoutFailure } from '@temporalio/workflow';
import type { SynthgenTrainActivities, SynthTrainResult } from '../activities/synthgen-train';
import { JobWorkflowInput, NON_RETRYABLE_ERROR_TYPES } from './job-input';
import { runJob } from './job-lifecycle';

export interface SynthgenTrainInput extends JobWorkflowInput {
  modelId: string;
  /** The model asked for the GPU and is a neural type (ctgan, copulagan, tvae). */
  useGpu: boolean;
  neural: boolean;
  /** Seconds the training may wait for a GPU worker before it runs on ml-cpu instead. */
  gpuScheduleToStartSecs: number;
}

const retry: RetryPolicy = { maximumAttempts: 3, initialInterval: '2s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES };

/**
 * Trains a synthgen model (`POST /api/synthgen/models`): one activity on ml-cpu, or on ml-gpu for a neural model
 * with `use_gpu` when a GPU worker takes it within the schedule-to-start timeout (else ml-cpu). A killed worker
 * stops heartbeating; the retried attempt resumes from the model's latest checkpoint.
 */
export async function synthgenTrainWorkflow(input: SynthgenTrainInput): Promise<SynthTrainResult> {
  const cpu = proxyActivities<SynthgenTrainActivities>({ taskQueue: input.queues.cpu, startToCloseTimeout: '24h', heartbeatTimeout: '20s', retry });
  const gpu = proxyActivities<SynthgenTrainActivities>({
    taskQueue: input.queues.gpu,
    startToCloseTimeout: '24h',
    scheduleToStartTimeout: `${input.gpuScheduleToStartSecs}s`,
    heartbeatTimeout: '20s',
    retry: { ...retry, maximumAttempts: 1 },
  });
  const args = { jobId: input.jobId, modelId: input.modelId };
  return runJob(input, async (state) => {
    state.step = 'training';
    if (input.useGpu && input.neural) {
      try {
        return await gpu.trainSynthesizer(args);
      } catch (err) {
        if (!isScheduleToStartTimeout(err)) throw err;
        state.step = 'training on ml-cpu (no GPU worker)';
        return await cpu.trainSynthesizer({ ...args, gpuFallbackSecs: input.gpuScheduleToStartSecs });
      }
    }
    return await cpu.trainSynthesizer(args);
  });
}

function isScheduleToStartTimeout(err: unknown): boolean {
  return err instanceof ActivityFailure && err.cause instanceof TimeoutFailure && err.cause.timeoutType === 'SCHEDULE_TO_START';
}

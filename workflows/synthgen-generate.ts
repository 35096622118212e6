import { proxyActivities } from '@temporalio/workflow';
import type { SynthgenGenerateActivities, SynthGenerateResult } from '../activities/synthgen-generate';
import { JobWorkflowInput, NON_RETRYABLE_ERROR_TYPES } from './job-input';
import { runJob } from './job-lifecycle';

export interface SynthgenGenerateInput extends JobWorkflowInput {
  modelId: string;
}

/** Generates rows from a ready synthgen model (`POST /api/synthgen/models/{id}/generate`): CSV and Parquet, quality report, privacy check. */
export async function synthgenGenerateWorkflow(input: SynthgenGenerateInput): Promise<SynthGenerateResult> {
  const synth = proxyActivities<SynthgenGenerateActivities>({
    taskQueue: input.queues.cpu,
    startToCloseTimeout: '6h',
    heartbeatTimeout: '30s',
    retry: { maximumAttempts: 3, initialInterval: '2s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
  });
  return runJob(input, async (state) => {
    state.step = 'generating';
    const result = await synth.generateSynthetic({ jobId: input.jobId });
    state.step = 'done';
    return result;
  });
}

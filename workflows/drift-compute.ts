import { proxyActivities } from '@temporalio/workflow';
import type { DriftComputeActivities, DriftJobResult } from '../activities/drift-compute';
import { JobWorkflowInput, NON_RETRYABLE_ERROR_TYPES } from './job-input';
import { runJob } from './job-lifecycle';

export interface DriftComputeInput extends JobWorkflowInput {
  deploymentId: string;
}

/**
 * PSI per feature of a deployment's logged inputs against its training data
 * (`POST /api/mlops/deployments/{id}/drift/run`); the result is read from `GET …/drift`.
 */
export async function driftComputeWorkflow(input: DriftComputeInput): Promise<DriftJobResult> {
  const drift = proxyActivities<DriftComputeActivities>({
    taskQueue: input.queues.cpu,
    startToCloseTimeout: '1h',
    // A killed worker stops heartbeating; the attempt then times out and another worker retries.
    heartbeatTimeout: '30s',
    retry: { maximumAttempts: 3, initialInterval: '2s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
  });
  return runJob(input, async (state) => {
    state.step = 'computing';
    const result = await drift.computeDrift({ jobId: input.jobId, deploymentId: input.deploymentId });
    state.step = 'done';
    return result;
  });
}

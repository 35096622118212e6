import { proxyActivities } from '@temporalio/workflow';
import type { BuilderRunActivities, BuilderRunResult } from '../activities/builder-run';
import type { BuilderRunAction } from '../services/builder/run';
import { JobWorkflowInput, NON_RETRYABLE_ERROR_TYPES } from './job-input';
import { runJob } from './job-lifecycle';

export type BuilderRunInput = JobWorkflowInput & BuilderRunAction;

/**
 * A builder session's long work (`POST /api/builder/sessions/{id}/steps/{step}/execute`, `…/finalize`, `…/replay`):
 * one activity, since each action is one DuckDB pass and one commit.
 */
export async function builderRunWorkflow(input: BuilderRunInput): Promise<BuilderRunResult> {
  const builder = proxyActivities<BuilderRunActivities>({
    taskQueue: input.queues.cpu,
    startToCloseTimeout: '2h',
    // A killed worker stops heartbeating; the attempt then times out and another worker retries.
    heartbeatTimeout: '60s',
    retry: { maximumAttempts: 3, initialInterval: '2s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
  });
  return runJob(input, async (state) => {
    state.step = input.action;
    const { queues: _q, statusQueue: _s, projectId: _p, ...action } = input;
    const result = await builder.runBuilder(action);
    state.step = 'done';
    return result;
  });
}

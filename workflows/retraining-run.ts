import { proxyActivities, sleep } from '@temporalio/workflow';
import type { RetrainingRunActivities } from '../activities/retraining-run';
import { JobWorkflowInput, NON_RETRYABLE_ERROR_TYPES } from './job-input';
import { runJob } from './job-lifecycle';

export interface RetrainingRunInput extends JobWorkflowInput {
  retrainingJobId: string;
}

/** How often the workflow looks at the experiment, and at a canary rollout, while they run. */
const POLL = '3s';

/**
 * One retraining of a policy (`POST /api/mlops/retraining-policies/{id}/run`, or a trigger): a holdout split and an
 * experiment on the rest (its own `automl_train` job), then the challenger registered and scored against the champion on
 * the holdout; a failed gate ends `rejected`, a passed one takes the policy's outcome, and a canary rollout is followed
 * to its end. The experiment and the rollout are workflows of their own: this one looks at them every few seconds.
 */
export async function retrainingRunWorkflow(input: RetrainingRunInput): Promise<{ state: string }> {
  const retraining = proxyActivities<RetrainingRunActivities>({
    taskQueue: input.queues.io,
    startToCloseTimeout: '10m',
    // The split and the scoring report progress between steps; a single DuckDB pass on a large version reports nothing.
    heartbeatTimeout: '5m',
    retry: { maximumAttempts: 5, initialInterval: '2s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
  });
  const args = { jobId: input.jobId, retrainingJobId: input.retrainingJobId };
  return runJob(input, async (state) => {
    state.step = 'training';
    await retraining.startRetrainingExperiment(args);
    while ((await retraining.retrainingExperimentStatus(input.retrainingJobId)) !== 'trained') await sleep(POLL);
    state.step = 'evaluating';
    const gate = await retraining.evaluateRetraining(args);
    if (!gate.passed) {
      await retraining.rejectRetraining(input.retrainingJobId, gate.reason);
      return { state: 'rejected' };
    }
    state.step = 'applying the outcome';
    const { rolloutId } = await retraining.applyRetrainingOutcome(input.retrainingJobId);
    if (!rolloutId) return { state: 'decided' };
    state.step = 'following the rollout';
    for (;;) {
      const end = await retraining.followRetrainingRollout(input.retrainingJobId);
      if (end) return { state: end };
      await sleep(POLL);
    }
  });
}

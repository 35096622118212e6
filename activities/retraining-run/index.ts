import type { ActivityDeps } from '../deps';
import { domainFailures } from '../failures';
import { jobActivity } from '../job-activity';
import { evaluateRetraining } from './evaluate';
import { experimentStatus, startExperiment } from './prepare';

export interface RetrainingRunActivities {
  /** Splits off the holdout, commits the training slice and starts the experiment on it; its id. */
  startRetrainingExperiment(input: { jobId: string; retrainingJobId: string }): Promise<{ experimentId: string }>;
  /** The experiment's progress: `training` until it succeeded (a failed one fails the retraining). */
  retrainingExperimentStatus(retrainingJobId: string): Promise<'training' | 'trained'>;
  /** Registers the challenger, scores both models on the holdout and applies the gate. */
  evaluateRetraining(input: { jobId: string; retrainingJobId: string }): Promise<{ passed: boolean; reason: string }>;
  /** The gate failed: the job ends rejected. */
  rejectRetraining(retrainingJobId: string, reason: string): Promise<void>;
  /** The gate passed: the policy's outcome; the rollout to follow, if one started. */
  applyRetrainingOutcome(retrainingJobId: string): Promise<{ rolloutId: string | null }>;
  /** The rollout's end as the job's state (promoted or rejected), or null while it runs. */
  followRetrainingRollout(retrainingJobId: string): Promise<string | null>;
}

/** What a run of a policy's cron schedule does (workflows/retraining-schedule.ts). */
export interface RetrainingScheduleActivities {
  /** Triggers the policy (services/retraining `startScheduled`); the retraining job's id, or null when skipped. */
  startScheduledRetraining(policyId: string): Promise<string | null>;
}

/**
 * The `retraining_run` job's worker side (a policy's trigger or `POST …/retraining-policies/{id}/run` queues it): the
 * holdout split and the experiment (prepare.ts), the evaluation and gate (evaluate.ts), and the outcome through
 * services/retraining/outcomes.ts.
 */
export function createRetrainingRunActivities({ services, dataSource: ds }: ActivityDeps): RetrainingRunActivities & RetrainingScheduleActivities {
  const { jobs, retraining, retrainingOutcomes: outcomes } = services;
  return {
    startRetrainingExperiment: ({ jobId, retrainingJobId }) => jobActivity(jobs, jobId, 'preparing the training data', (progress) => startExperiment({ ds, services }, retrainingJobId, progress)),
    retrainingExperimentStatus: (retrainingJobId) => domainFailures(() => experimentStatus(ds, retrainingJobId)),
    evaluateRetraining: ({ jobId, retrainingJobId }) => jobActivity(jobs, jobId, 'evaluating', (progress) => evaluateRetraining({ ds, services }, retrainingJobId, progress)),
    rejectRetraining: (retrainingJobId, reason) => domainFailures(() => outcomes.gateFailed(retrainingJobId, reason)),
    applyRetrainingOutcome: (retrainingJobId) => domainFailures(() => outcomes.apply(retrainingJobId)),
    followRetrainingRollout: (retrainingJobId) => domainFailures(() => outcomes.followRollout(retrainingJobId)),
    startScheduledRetraining: (policyId) => domainFailures(() => retraining.startScheduled(policyId)),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createRetrainingRunActivities;

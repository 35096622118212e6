import { createLogger } from '../../platform/logger';
import type { ActivityDeps } from '../deps';
import { jobActivity } from '../job-activity';
import { computeDrift, type DriftJobResult } from './compute';

export type { DriftJobResult };

export interface DriftComputeActivities {
  computeDrift(input: { jobId: string; deploymentId: string }): Promise<DriftJobResult>;
}

/** What a run of a deployment's drift schedule does (workflows/drift-schedule.ts). */
export interface DriftScheduleActivities {
  /** Queues the job the schedule asks for (services/drift.ts `startScheduled`); its id, or null. */
  startScheduledDrift(deploymentId: string): Promise<string | null>;
}

/**
 * The `drift_compute` job's worker side (`DriftService.start` queues it): PSI per feature of a deployment's logged
 * inputs against its training data. A canceled run stops between features (DuckDB's queries are not interruptible)
 * and writes no result.
 */
export function createDriftComputeActivities({ services, dataSource, config }: ActivityDeps): DriftComputeActivities & DriftScheduleActivities {
  const { jobs, serving, datasetVersions, drift, retraining } = services;
  const log = createLogger(config.logLevel, 'drift');
  return {
    startScheduledDrift: async (deploymentId) => (await drift.startScheduled(deploymentId))?.id ?? null,
    computeDrift: ({ jobId, deploymentId }) =>
      jobActivity(jobs, jobId, 'computing drift', async (progress) => {
        const result = await computeDrift({ ds: dataSource, serving, datasetVersions }, jobId, deploymentId, progress);
        // Retraining policies watching this deployment count the result (their drift trigger); a retried attempt
        // counts the same result again, which the policy's open job or cooldown then skips.
        await retraining.afterDriftResult(deploymentId).catch((err: unknown) => log.warn({ err, deploymentId }, 'retraining drift triggers failed'));
        return result;
      }),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createDriftComputeActivities;

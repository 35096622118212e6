import type { ActivityDeps } from '../deps';
import { jobActivity } from '../job-activity';
import { computeDrift, type DriftJobResult } from './compute';

export type { DriftJobResult };

export interface DriftComputeActivities {
  computeDrift(input: { jobId: string; deploymentId: string }): Promise<DriftJobResult>;
}

/**
 * The `drift_compute` job's worker side (`DriftService.start` queues it): PSI per feature of a deployment's logged
 * inputs against its training data. A canceled run stops between features (DuckDB's queries are not interruptible)
 * and writes no result.
 */
export function createDriftComputeActivities({ services, dataSource }: ActivityDeps): DriftComputeActivities {
  const { jobs, serving, datasetVersions } = services;
  return {
    computeDrift: ({ jobId, deploymentId }) => jobActivity(jobs, jobId, 'computing drift', (progress) => computeDrift({ ds: dataSource, serving, datasetVersions }, jobId, deploymentId, progress)),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createDriftComputeActivities;

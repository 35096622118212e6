import type { Services } from '../services';
import type { DriftJobResult } from '../services/drift';
import { jobActivity } from './job-activity';

export interface DriftComputeActivities {
  computeDrift(input: { jobId: string; deploymentId: string }): Promise<DriftJobResult>;
}

/** The `drift_compute` job's activity (see `DriftService.compute`); a canceled run stops between features (DuckDB's queries are not interruptible) and writes no result. */
export function createDriftComputeActivities({ jobs, drift }: Services): DriftComputeActivities {
  return {
    computeDrift: ({ jobId, deploymentId }) => jobActivity(jobs, jobId, 'computing drift', (progress) => drift.compute(jobId, deploymentId, progress)),
  };
}

import { Context } from '@temporalio/activity';
import type { Services } from '../services';
import type { DriftJobResult } from '../services/drift';
import { domainFailures } from './failures';

export interface DriftComputeActivities {
  computeDrift(input: { jobId: string; deploymentId: string }): Promise<DriftJobResult>;
}

/** The `drift_compute` job's activity (see `DriftService.compute`). Progress heartbeats deliver cancellation; a canceled run stops at its next step. */
export function createDriftComputeActivities({ jobs, drift }: Services): DriftComputeActivities {
  return {
    computeDrift: ({ jobId, deploymentId }) =>
      domainFailures(async () => {
        const ctx = Context.current();
        await jobs.recordAttempt(jobId, ctx.info.attempt);
        const report = jobs.progressWriter(jobId, (d) => ctx.heartbeat(d));
        await report(0, `attempt ${ctx.info.attempt}: computing drift`, true);
        // Between features (DuckDB's queries are not interruptible): a canceled job writes no result.
        return drift.compute(jobId, deploymentId, async (p, m) => {
          if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
          await report(p, m);
        });
      }),
  };
}

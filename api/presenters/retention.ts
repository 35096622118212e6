import type { Job } from '../../entities';
import { ANONYMIZABLE } from '../../services/retention';
import type { RetentionService } from '../../services/retention';
import { presentJob } from './job';

/** A run's job with its Temporal UI link, as every job is shown. */
export function presentRetentionRun(job: Job, temporalUiUrl: string) {
  return presentJob(job, { temporal_ui_url: temporalUiUrl });
}

/** `GET /api/admin/retention`: the policies, what each kind can do, the last runs and the next. */
export function presentRetentionOverview(o: Awaited<ReturnType<RetentionService['overview']>>, temporalUiUrl: (job: Job) => string) {
  return {
    policies: o.policies,
    kinds: Object.entries(ANONYMIZABLE).map(([kind, anonymize]) => ({ kind: kind as keyof typeof ANONYMIZABLE, anonymize })),
    last_runs: o.last_runs.map((j) => presentRetentionRun(j, temporalUiUrl(j))),
    next_run_at: o.next_run_at,
  };
}

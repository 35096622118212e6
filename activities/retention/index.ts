import { createLogger } from '../../platform/logger';
import type { RetentionJobResult } from '../../services/retention';
import type { ActivityDeps } from '../deps';
import { jobActivity } from '../job-activity';
import { type RetentionResume, runRetention } from './run';

export type { RetentionJobResult };

export interface RetentionActivities {
  applyRetention(input: { jobId: string }): Promise<RetentionJobResult>;
}

/** What a run of the daily retention schedule does (workflows/retention-schedule.ts). */
export interface RetentionScheduleActivities {
  /** Queues a `retention` job with the enabled policies (services/retention `startScheduled`); its id, or null. */
  startScheduledRetention(): Promise<string | null>;
}

/**
 * The `retention` job's worker side: each enabled policy of the job's snapshot applied batch by batch, each batch in
 * its own transaction. A cancel stops between batches; a retried attempt starts again from the rules (what earlier
 * batches took is gone) with their counts carried in the heartbeat.
 */
export function createRetentionActivities({ services, dataSource, store, config }: ActivityDeps): RetentionActivities & RetentionScheduleActivities {
  const log = createLogger(config.logLevel, 'retention');
  return {
    startScheduledRetention: async () => (await services.retention.startScheduled())?.id ?? null,
    applyRetention: ({ jobId }) =>
      jobActivity<RetentionJobResult, RetentionResume>(services.jobs, jobId, 'applying retention policies', async (progress, frame) =>
        runRetention({ ds: dataSource, store, log }, await services.retention.runInput(jobId), progress, frame.resumeFrom),
      ),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createRetentionActivities;

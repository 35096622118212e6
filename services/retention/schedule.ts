import { ScheduleOverlapPolicy } from '@temporalio/client';
import type { DataSource } from 'typeorm';
import type { Config } from '../../platform/config';
import type { TemporalGateway } from '../../platform/temporal-client';
import type { WorkflowIn } from '../job-kinds';
import { reconcileSchedules, syncSchedule } from '../schedules';

const WORKFLOW_TYPE = 'retentionScheduleWorkflow' satisfies WorkflowIn<typeof import('../../workflows/retention-schedule')>;

/** Daily at 03:00 UTC: a quiet hour for most instances, and one run a day is what day-granular policies need. */
export const RETENTION_CRON = '0 3 * * *';

export interface RetentionScheduleDeps {
  ds: DataSource;
  temporal: TemporalGateway;
  config: Config;
}

/** `retention` behind the stack's task-queue prefix, as the alert, drift and retraining schedules are named. */
export function retentionScheduleId(config: Config): string {
  return `${config.taskQueues.io.slice(0, -'io'.length)}retention`;
}

async function anyEnabled(ds: DataSource): Promise<boolean> {
  const rows: unknown[] = await ds.query('SELECT 1 FROM retention_policies WHERE enabled LIMIT 1');
  return rows.length > 0;
}

/**
 * Keeps the instance's retention schedule in step with its policies: while one is enabled, a Temporal Schedule starts
 * `retentionScheduleWorkflow` daily ({@link RETENTION_CRON}), which queues a `retention` job; otherwise there is none.
 */
export async function syncRetentionSchedule(deps: RetentionScheduleDeps): Promise<void> {
  const id = retentionScheduleId(deps.config);
  await syncSchedule(
    await deps.temporal.get(),
    id,
    (await anyEnabled(deps.ds))
      ? {
          spec: { cronExpressions: [RETENTION_CRON] },
          action: { type: 'startWorkflow', workflowType: WORKFLOW_TYPE, args: [], taskQueue: deps.config.taskQueues.io, workflowId: `${id}-run`, workflowExecutionTimeout: '10m' },
          policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1h' },
        }
      : null,
  );
}

/** The retention schedule made to agree with the policies (run with the job reconciler). */
export async function reconcileRetentionSchedule(deps: RetentionScheduleDeps): Promise<{ created: number; deleted: number }> {
  const wanted = new Set((await anyEnabled(deps.ds)) ? [''] : []);
  return reconcileSchedules(await deps.temporal.get(), retentionScheduleId(deps.config), wanted, () => syncRetentionSchedule(deps));
}

/** When the schedule next runs (null: no schedule, or Temporal cannot be asked now). */
export async function nextRetentionRun(deps: RetentionScheduleDeps): Promise<Date | null> {
  try {
    const client = await deps.temporal.get();
    const d = await client.schedule.getHandle(retentionScheduleId(deps.config)).describe();
    return d.info.nextActionTimes[0] ?? null;
  } catch {
    return null;
  }
}

import { ScheduleOverlapPolicy } from '@temporalio/client';
import type { DataSource } from 'typeorm';
import { RetrainingPolicy } from '../../entities';
import type { Config } from '../../platform/config';
import type { TemporalGateway } from '../../platform/temporal-client';
import type { WorkflowIn } from '../job-kinds';
import { reconcileSchedules, syncSchedule } from '../schedules';

const WORKFLOW_TYPE = 'retrainingScheduleWorkflow' satisfies WorkflowIn<typeof import('../../workflows/retraining-schedule')>;

export interface RetrainingScheduleDeps {
  ds: DataSource;
  temporal: TemporalGateway;
  config: Config;
}

/** `retraining-<policy>` behind the stack's task-queue prefix, as the alert and drift schedules are named. */
export function retrainingScheduleId(config: Config, policyId: string): string {
  return `${config.taskQueues.io.slice(0, -'io'.length)}retraining-${policyId}`;
}

/**
 * Keeps the policy's Temporal Schedule in step with its `schedule_cron`: while the policy is enabled and has one, the
 * schedule starts `retrainingScheduleWorkflow` on the cron (UTC), which triggers the policy as any trigger does (the
 * cooldown and the one open job apply); otherwise there is none.
 */
export async function syncRetrainingSchedule(deps: RetrainingScheduleDeps, policyId: string): Promise<void> {
  const p = await deps.ds.getRepository(RetrainingPolicy).findOneBy({ id: policyId });
  const cron = p?.enabled ? p.triggers.schedule_cron : null;
  const id = retrainingScheduleId(deps.config, policyId);
  await syncSchedule(
    await deps.temporal.get(),
    id,
    cron
      ? {
          spec: { cronExpressions: [cron] },
          action: { type: 'startWorkflow', workflowType: WORKFLOW_TYPE, args: [{ policyId }], taskQueue: deps.config.taskQueues.io, workflowId: `${id}-run`, workflowExecutionTimeout: '10m' },
          policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1m' },
        }
      : null,
  );
}

/** The retraining schedules made to agree with the policies (run with the job reconciler). */
export async function reconcileRetrainingSchedules(deps: RetrainingScheduleDeps): Promise<{ created: number; deleted: number }> {
  const rows: { id: string }[] = await deps.ds.query(`SELECT id FROM retraining_policies WHERE enabled AND coalesce(triggers->>'schedule_cron', '') <> ''`);
  return reconcileSchedules(await deps.temporal.get(), retrainingScheduleId(deps.config, ''), new Set(rows.map((r) => r.id)), (id) => syncRetrainingSchedule(deps, id));
}

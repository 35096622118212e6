import { ScheduleOverlapPolicy } from '@temporalio/client';
import type { DataSource } from 'typeorm';
import { Deployment } from '../entities';
import type { Config } from '../platform/config';
import type { TemporalGateway } from '../platform/temporal-client';
import type { Access } from './access';
import type { WorkflowIn } from './job-kinds';
import { reconcileSchedules, syncSchedule } from './schedules';

/** A deployment's drift schedule (`config.drift_schedule`): a drift job every `interval_minutes`. */
export interface DriftSchedule {
  interval_minutes: number;
}

/** `drift_schedule.interval_minutes`: a minute to a week. */
export const DRIFT_SCHEDULE_MINUTES = { min: 1, max: 10_080 } as const;

export function driftScheduleOf(d: Pick<Deployment, 'config'>): DriftSchedule | null {
  const s = (d.config as { drift_schedule?: DriftSchedule | null }).drift_schedule;
  return s && Number.isInteger(s.interval_minutes) ? s : null;
}

const WORKFLOW_TYPE = 'driftScheduleWorkflow' satisfies WorkflowIn<typeof import('../workflows/drift-schedule')>;

export interface DriftScheduleDeps {
  ds: DataSource;
  temporal: TemporalGateway;
  config: Config;
}

/** `drift-<deployment>` behind the stack's task-queue prefix, as the alert schedules are named. */
export function driftScheduleId(config: Config, deploymentId: string): string {
  return `${config.taskQueues.io.slice(0, -'io'.length)}drift-${deploymentId}`;
}

/**
 * Keeps the deployment's Temporal Schedule in step with its `drift_schedule`: while it has one and is not archived, the
 * schedule starts `driftScheduleWorkflow` every `interval_minutes` (which queues a `drift_compute` job, as
 * `POST …/drift/run` does); otherwise there is none. Visible in the Temporal UI beside the alert schedules.
 */
export async function syncDriftSchedule(deps: DriftScheduleDeps, deploymentId: string): Promise<void> {
  const d = await deps.ds.getRepository(Deployment).findOneBy({ id: deploymentId });
  const schedule = d && d.stage !== 'archived' ? driftScheduleOf(d) : null;
  await syncSchedule(
    await deps.temporal.get(),
    driftScheduleId(deps.config, deploymentId),
    schedule && {
      spec: { intervals: [{ every: `${schedule.interval_minutes}m` }] },
      action: {
        type: 'startWorkflow',
        workflowType: WORKFLOW_TYPE,
        args: [{ deploymentId }],
        taskQueue: deps.config.taskQueues.io,
        workflowId: `${driftScheduleId(deps.config, deploymentId)}-run`,
        workflowExecutionTimeout: '10m',
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1m' },
    },
  );
}

/** The drift schedules made to agree with the deployments (run with the job reconciler). */
export async function reconcileDriftSchedules(deps: DriftScheduleDeps): Promise<{ created: number; deleted: number }> {
  const rows: { id: string }[] = await deps.ds.query(`SELECT id FROM deployments WHERE stage <> 'archived' AND config ? 'drift_schedule' AND config->'drift_schedule' <> 'null'::jsonb`);
  return reconcileSchedules(await deps.temporal.get(), driftScheduleId(deps.config, ''), new Set(rows.map((r) => r.id)), (id) => syncDriftSchedule(deps, id));
}

/** Setting and reading a deployment's drift schedule (editor or above to set it). */
export class DriftScheduleService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly deps: DriftScheduleDeps,
  ) {}

  async get(userId: string, deploymentId: string): Promise<{ deployment_id: string; drift_schedule: DriftSchedule | null }> {
    const d = await this.access.deployment(userId, deploymentId);
    return { deployment_id: d.id, drift_schedule: driftScheduleOf(d) };
  }

  /** Sets (or with null removes) the schedule; the Temporal Schedule follows at once. */
  async set(userId: string, deploymentId: string, schedule: DriftSchedule | null): Promise<{ deployment_id: string; drift_schedule: DriftSchedule | null }> {
    const d = await this.access.deployment(userId, deploymentId, 'editor');
    // jsonb_set on the row, not a read-modify-write of the whole config: a privacy PATCH meanwhile keeps its change.
    await this.ds.query(`UPDATE deployments SET config = jsonb_set(config, '{drift_schedule}', $2::jsonb) WHERE id = $1`, [d.id, JSON.stringify(schedule)]);
    await syncDriftSchedule(this.deps, d.id);
    return { deployment_id: d.id, drift_schedule: schedule };
  }
}

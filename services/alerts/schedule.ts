import { type ScheduleOptions, type ScheduleOptionsStartWorkflowAction, ScheduleOverlapPolicy } from '@temporalio/client';
import type { DataSource } from 'typeorm';
import { AlertRule } from '../../entities';
import type { Config } from '../../platform/config';
import type { TemporalGateway } from '../../platform/temporal-client';
import type { alertsEvaluateWorkflow } from '../../workflows/alerts-evaluate';
import type { WorkflowIn } from '../job-kinds';
import { reconcileSchedules, syncSchedule } from '../schedules';

/** What keeping a project's evaluation schedule in step takes. */
export interface AlertScheduleDeps {
  ds: DataSource;
  temporal: TemporalGateway;
  config: Config;
}

/** The workflow each cycle starts (workflows/alerts-evaluate.ts). */
const WORKFLOW_TYPE = 'alertsEvaluateWorkflow' satisfies WorkflowIn<typeof import('../../workflows/alerts-evaluate')>;

/**
 * The project's schedule id, `alerts-<project>`, behind the stack's task-queue prefix (its io queue is
 * `<prefix>io`): stacks sharing one Temporal server (the tests') keep their schedules apart.
 */
export function alertScheduleId(config: Config, projectId: string): string {
  return `${config.taskQueues.io.slice(0, -'io'.length)}alerts-${projectId}`;
}

/**
 * Keeps the project's Temporal Schedule in step with its rules: while it has an enabled rule, a schedule starts
 * `alertsEvaluateWorkflow({projectId})` on the io queue every ALERT_EVAL_INTERVAL_SECS (a cycle still running when
 * the next is due is skipped, so cycles never pile up); with none left, the schedule is deleted. Idempotent, and
 * safe to call concurrently: a schedule created meanwhile is updated to the wanted spec, one deleted meanwhile is gone.
 * Both show in the Temporal UI (Schedules), with each cycle's workflow.
 */
export async function syncAlertSchedule(deps: AlertScheduleDeps, projectId: string): Promise<void> {
  const wanted = await deps.ds.getRepository(AlertRule).exists({ where: { projectId, isEnabled: true } });
  await syncSchedule(await deps.temporal.get(), alertScheduleId(deps.config, projectId), wanted ? scheduleOptions(deps.config, projectId) : null);
}

function scheduleOptions(config: Config, projectId: string): Omit<ScheduleOptions<ScheduleOptionsStartWorkflowAction<typeof alertsEvaluateWorkflow>>, 'scheduleId'> {
  return {
    spec: { intervals: [{ every: `${config.alertEvalIntervalSecs}s` }] },
    action: {
      type: 'startWorkflow',
      workflowType: WORKFLOW_TYPE,
      args: [{ projectId }],
      taskQueue: config.taskQueues.io,
      // Temporal appends each cycle's scheduled time to this id.
      workflowId: `${alertScheduleId(config, projectId)}-cycle`,
      // A cycle that cannot finish in this long is stuck; the next one measures afresh.
      workflowExecutionTimeout: '15m',
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1m' },
  };
}

/**
 * Makes the schedules agree with the rules, as the job reconciler makes jobs agree with Temporal: a project with an
 * enabled rule and no schedule gets one (a dev server restarted without its state, a start that failed), and a
 * schedule whose project has no enabled rule left goes (the project or the account was deleted with its rules). Runs
 * at the API's start and on the reconciler's interval.
 */
export async function reconcileAlertSchedules(deps: AlertScheduleDeps): Promise<{ created: number; deleted: number }> {
  const rows: { project_id: string }[] = await deps.ds.query('SELECT DISTINCT project_id FROM alert_rules WHERE is_enabled');
  const wanted = new Set(rows.map((r) => r.project_id));
  return reconcileSchedules(await deps.temporal.get(), alertScheduleId(deps.config, ''), wanted, (projectId) => syncAlertSchedule(deps, projectId));
}

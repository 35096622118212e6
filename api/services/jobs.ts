import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { DataSource, EntityManager } from 'typeorm';
import { Job, JobKind, TERMINAL_JOB_STATUSES } from '../../entities';
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';
import type { TemporalGateway } from '../../platform/temporal-client';
import { JOB_ROUTES, JobWorkflowInput, workflowIdForJob } from '../../workflows/job-kinds';
import type { JobProgress } from '../../workflows/progress';
import { conflict } from '../errors';

/** Creates job rows, starts and cancels their workflows, and reads live progress. */
export class JobService {
  constructor(
    private readonly ds: DataSource,
    private readonly temporal: TemporalGateway,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  /** Writes the job row inside the caller's transaction; start it after commit with `start`. */
  async create(em: EntityManager, p: { kind: JobKind; projectId: string; entityId?: string | null; createdBy?: string | null; input?: Record<string, unknown> }): Promise<Job> {
    const route = JOB_ROUTES[p.kind];
    if (!route) throw new Error(`no workflow registered for job kind ${p.kind}`);
    const repo = em.getRepository(Job);
    const job = repo.create({
      projectId: p.projectId,
      kind: p.kind,
      entityId: p.entityId ?? null,
      status: 'queued',
      progress: 0,
      message: 'queued',
      error: null,
      input: p.input ?? {},
      result: null,
      runId: null,
      taskQueue: this.config.taskQueues[route.queue],
      attempt: 0,
      createdBy: p.createdBy ?? null,
      startedAt: null,
      finishedAt: null,
    });
    job.workflowId = workflowIdForJob(job.id);
    await repo.insert(job);
    return job;
  }

  /**
   * Starts the job's workflow. Idempotent (the workflow id is the job's); if Temporal is
   * unreachable the job stays queued and the reconciler starts it later.
   */
  async start(job: Job): Promise<void> {
    const route = JOB_ROUTES[job.kind];
    const input: JobWorkflowInput = { jobId: job.id, projectId: job.projectId, queues: this.config.taskQueues, ...job.input };
    try {
      const client = await this.temporal.get();
      const handle = await client.workflow.start(route.workflowType, {
        workflowId: job.workflowId,
        taskQueue: job.taskQueue,
        args: [input],
        memo: { job_kind: job.kind, project_id: job.projectId },
      });
      await this.ds.getRepository(Job).update({ id: job.id }, { runId: handle.firstExecutionRunId });
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return;
      this.log.warn({ err, jobId: job.id }, 'could not start workflow; the reconciler will retry');
    }
  }

  /** Cancels a job: its workflow is asked to stop; a never-started job is closed at once. */
  async cancel(job: Job): Promise<void> {
    if (TERMINAL_JOB_STATUSES.includes(job.status)) throw conflict(`Job already ${job.status}`);
    try {
      const client = await this.temporal.get();
      await client.workflow.getHandle(job.workflowId).cancel();
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      await this.ds
        .getRepository(Job)
        .createQueryBuilder()
        .update()
        .set({ status: 'canceled', finishedAt: () => 'now()', message: 'canceled before it started' })
        .where('id = :id AND status IN (:...open)', { id: job.id, open: ['queued', 'running'] })
        .execute();
    }
  }

  /** The workflow's own `progress` answer, when it is running and answers quickly. */
  async liveProgress(job: Job): Promise<JobProgress | null> {
    if (job.status !== 'running') return null;
    try {
      const client = await this.temporal.get();
      const q = client.workflow.getHandle(job.workflowId).query<JobProgress>('progress');
      return await Promise.race([q, new Promise<null>((r) => setTimeout(() => r(null), 1500))]);
    } catch {
      return null;
    }
  }

  temporalUiUrl(job: Job): string {
    const base = `${this.config.temporal.uiUrl}/namespaces/${encodeURIComponent(this.config.temporal.namespace)}/workflows/${encodeURIComponent(job.workflowId)}`;
    return job.runId ? `${base}/${encodeURIComponent(job.runId)}/history` : base;
  }
}

export function presentJob(job: Job, extra: Record<string, unknown> = {}) {
  return {
    id: job.id,
    project_id: job.projectId,
    kind: job.kind,
    entity_id: job.entityId,
    status: job.status,
    progress: job.progress,
    message: job.message,
    error: job.error,
    result: job.result,
    workflow_id: job.workflowId,
    run_id: job.runId,
    task_queue: job.taskQueue,
    attempt: job.attempt,
    created_at: job.createdAt,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    updated_at: job.updatedAt,
    ...extra,
  };
}

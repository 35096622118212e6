import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { isInfrastructureOutage } from '../platform/outage';
import type { DataSource, EntityManager } from 'typeorm';
import { Job, JobKind, JobStatus, type ProjectRole, TERMINAL_JOB_STATUSES } from '../entities';
import type { ArtifactStore } from '../platform/artifact-store';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import type { TemporalGateway } from '../platform/temporal-client';
import { temporal } from '@temporalio/proto';
import type { JobWorkflowInput, QueueFamily } from '../workflows/job-input';
import { workflowIdForJob } from '../workflows/job-input';
import type { JobProgress } from '../workflows/progress';
import { Access, MEMBER_PROJECTS_SQL } from './access';
import { BusyError, ConflictError } from './errors';
import { limitsOfUser } from './plans';
import { assertStorageRoom } from './quotas';
import { JOB_KINDS_REGISTRY, jobWriteScope, REGISTERED_JOB_KINDS } from './job-kinds';
import { assertScopes } from './scopes';
import { JobOutcome, writeJobStatus } from './job-status';
import { likePattern, ListQuery, Page } from './lists';

export const JOB_SORT_FIELDS = ['created_at', 'status', 'kind', 'progress', 'updated_at'] as const;

export interface JobFilter extends ListQuery<(typeof JOB_SORT_FIELDS)[number]> {
  project_id?: string;
  kind?: JobKind;
  status?: JobStatus;
  entity_id?: string;
}

const CLOSED_WORKFLOW_OUTCOME: Record<string, 'succeeded' | 'failed' | 'canceled'> = {
  COMPLETED: 'succeeded',
  FAILED: 'failed',
  CANCELLED: 'canceled',
  TERMINATED: 'failed',
  TIMED_OUT: 'failed',
};

/**
 * A user's open jobs as the `MAX_OPEN_JOBS_PER_USER` quota counts them (`$1` the user): queued or running, of
 * every kind but `dataset_profile`, which an upload starts on its own (refusing it would fail an upload that
 * already happened, and the version is profiled on first read anyway).
 */
export const OPEN_JOBS_OF_USER = `jobs WHERE created_by = $1 AND status IN ('queued','running') AND kind <> 'dataset_profile'`;

/** A project's open jobs as `MAX_OPEN_JOBS_PER_PROJECT` counts them (`$1` the project), whoever started them. */
export const OPEN_JOBS_OF_PROJECT = `jobs WHERE project_id = $1 AND status IN ('queued','running') AND kind <> 'dataset_profile'`;

/** The reason a running job whose workflow Temporal no longer knows ends with. */
export const WORKFLOW_LOST =
  'The workflow of this job no longer exists in Temporal (its history was lost, e.g. the Temporal server restarted without its database), so the job cannot finish; start it again';

/**
 * What a job started by {@link JobService.startFor} acts on: a project, or a resource of one by the name of its access
 * loader (`deployment`, `dataset`, `experiment`, …: every loader of a project-owned row).
 */
export type JobTarget = 'project' | { [K in keyof Access]: Access[K] extends (userId: string, id: string, minRole?: ProjectRole) => Promise<{ projectId: string }> ? K : never }[keyof Access];

/** Whose share of the workers a job uses: the user who started it, or its project for jobs no user started. */
export function tenantKey(job: Pick<Job, 'createdBy' | 'projectId'>): string {
  return job.createdBy ?? job.projectId ?? 'instance';
}

/**
 * Jobs: a row written in the caller's transaction, then the workflow started after commit
 * (its id derives from the job's, so a repeated start is idempotent); cancel, live progress,
 * and the reconciler that makes rows agree with Temporal.
 */
export class JobService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly temporal: TemporalGateway,
    private readonly config: Config,
    private readonly log: Logger,
    /** Where a closing job's working files (a training checkpoint) are removed from; see {@link writeJobStatus}. */
    private readonly store: Pick<ArtifactStore, 'remove'>,
  ) {}

  /** Writes the job row inside the caller's transaction; start it after commit with `start`. */
  async create(em: EntityManager, p: { kind: JobKind; projectId: string | null; entityId?: string | null; createdBy?: string | null; input?: Record<string, unknown> }): Promise<Job> {
    // An instance-wide job (`retention`: a superuser's or its schedule's) counts against no user's or project's quota.
    if (p.projectId !== null) {
      await this.assertOpenJobsQuota(em, p.kind, p.createdBy ?? null, p.projectId);
      // An upload's profile job writes no file of note; the upload itself was checked before its commit.
      if (p.kind !== 'dataset_profile') await assertStorageRoom(em, p.projectId);
    }
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
      taskQueue: this.config.taskQueues[JOB_KINDS_REGISTRY[p.kind].queue],
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
   * 429 (wait and retry) when the user already has their plan's `max_concurrent_jobs` open jobs, or the project its
   * owner's plan's `max_open_jobs_per_project` (see {@link OPEN_JOBS_OF_USER}): the job past the limit is refused, not
   * queued. Counted under transaction locks, so requests at once cannot all pass.
   */
  private async assertOpenJobsQuota(em: EntityManager, kind: JobKind, userId: string | null, projectId: string): Promise<void> {
    if (kind === 'dataset_profile') return;
    const perUser = userId === null ? null : (await limitsOfUser(em, userId)).max_concurrent_jobs;
    const [owner]: { user_id: string }[] = await em.query(`SELECT user_id FROM project_members WHERE project_id = $1 AND role = 'owner' ORDER BY created_at LIMIT 1`, [projectId]);
    const perProject = owner ? (await limitsOfUser(em, owner.user_id)).max_open_jobs_per_project : this.config.quotas.maxOpenJobsPerProject;
    if (perUser !== null && userId !== null) {
      await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`open-jobs:${userId}`]);
      const [{ n }] = await em.query(`SELECT count(*)::int AS n FROM ${OPEN_JOBS_OF_USER}`, [userId]);
      if (n >= perUser) throw new BusyError(`Too many open jobs: at most ${perUser} may be queued or running at once per user; wait for one to finish or cancel one`);
    }
    if (perProject !== null) {
      await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`open-jobs-project:${projectId}`]);
      const [{ n }] = await em.query(`SELECT count(*)::int AS n FROM ${OPEN_JOBS_OF_PROJECT}`, [projectId]);
      if (n >= perProject) throw new BusyError(`Too many open jobs in this project: at most ${perProject} may be queued or running at once; wait for one to finish or cancel one`);
    }
  }

  /** Creates the job in its own transaction and starts it. */
  async createAndStart(p: Parameters<JobService['create']>[1]): Promise<Job> {
    const job = await this.ds.transaction((em) => this.create(em, p));
    await this.start(job);
    return job;
  }

  /**
   * The whole command of a kind that needs no more: the caller must be an editor of the project of what the job acts
   * on (`on`, the name of its access loader, and `id`, which becomes the job's `entity_id`); the job is written and its
   * workflow started. A route of such a kind calls it directly, so the kind takes no service file (README, "Adding a
   * job kind"); a kind with checks of its own keeps a command in its service (`DriftService.start`).
   */
  async startFor(userId: string, p: { kind: JobKind; on: JobTarget; id: string; input?: Record<string, unknown> }): Promise<Job> {
    const projectId = p.on === 'project' ? (await this.access.project(userId, p.id, 'editor')).project.id : (await this.access[p.on](userId, p.id, 'editor')).projectId;
    return this.createAndStart({ kind: p.kind, projectId, entityId: p.id, createdBy: userId, input: p.input });
  }

  /**
   * Starts the job's workflow. Idempotent (the workflow id is the job's); if Temporal is
   * unreachable the job stays queued and the reconciler starts it later.
   */
  async start(job: Job): Promise<void> {
    // An instance-wide job (no project) gets '' for the project every job workflow's input names.
    const input: JobWorkflowInput = { jobId: job.id, projectId: job.projectId ?? '', queues: this.config.taskQueues, statusQueue: this.config.statusTaskQueue, ...job.input };
    try {
      const client = await this.temporal.get();
      const handle = await client.workflow.start(JOB_KINDS_REGISTRY[job.kind].workflowType, {
        workflowId: job.workflowId,
        taskQueue: job.taskQueue,
        args: [input],
        memo: { job_kind: job.kind, project_id: job.projectId },
        // Every activity of the workflow inherits the key: where a queue has a backlog, Temporal dispatches it to the
        // tenants in turn rather than first-in-first-out (matching.enableFairness; a server without it ignores this).
        priority: { fairnessKey: tenantKey(job) },
      });
      await this.ds.getRepository(Job).update({ id: job.id }, { runId: handle.firstExecutionRunId });
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return;
      this.log.warn({ err, jobId: job.id }, 'could not start workflow; the reconciler will retry');
    }
  }

  /** Cancels a job: its workflow is asked to stop; a never-started job (and its resource) is closed at once. */
  async cancel(job: Job): Promise<void> {
    if (TERMINAL_JOB_STATUSES.includes(job.status)) throw new ConflictError(`Job already ${job.status}`);
    const client = await this.temporal.get();
    const handle = client.workflow.getHandle(job.workflowId);
    try {
      await handle.cancel();
      // A workflow that already ended (terminated, timed out) takes no cancel: close the job here.
      if ((await handle.describe()).status.name === 'RUNNING') return;
      await writeJobStatus(this.ds, this.store, job.id, { status: 'canceled', message: 'canceled; its workflow had already ended' });
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      await writeJobStatus(this.ds, this.store, job.id, { status: 'canceled', message: 'canceled before it started' });
    }
  }

  /** Moves a job (and its resource) from an open status; see {@link writeJobStatus}. */
  setStatus(jobId: string, outcome: JobOutcome): Promise<boolean> {
    return writeJobStatus(this.ds, this.store, jobId, outcome);
  }

  /** Records which attempt of the job's activity is running (Temporal retries count up). */
  async recordAttempt(jobId: string, attempt: number): Promise<void> {
    await this.ds.getRepository(Job).update({ id: jobId }, { attempt });
  }

  /**
   * A progress reporter for a running job: every call heartbeats (which also delivers
   * cancellation); the job row is written at most twice a second, so status endpoints show
   * progress without asking a worker.
   */
  progressWriter(jobId: string, heartbeat: (details: unknown) => void) {
    let lastWrite = 0;
    let lastProgress = -1;
    return async (progress: number, message: string, force = false): Promise<void> => {
      const p = Math.max(0, Math.min(99, Math.floor(progress)));
      heartbeat({ progress: p, message });
      const now = Date.now();
      if (!force && (now - lastWrite < 500 || p === lastProgress)) return;
      lastWrite = now;
      lastProgress = p;
      try {
        await this.ds.getRepository(Job).update({ id: jobId, status: 'running' }, { progress: p, message });
      } catch (err) {
        // The heartbeat carries the progress too: a database outage must not stop the work over a progress line.
        if (!isInfrastructureOutage(err)) throw err;
      }
    };
  }

  /** A job of a project the user belongs to, and what the workflow says it is doing now. */
  async get(userId: string, jobId: string): Promise<{ job: Job; live: JobProgress | null }> {
    const job = await this.access.job(userId, jobId);
    return { job, live: await this.liveProgress(job) };
  }

  /**
   * Cancels a job the user may edit (editor or above); an API key needs the write scope of what
   * the job acts on (`keyScopes` null for a cookie session).
   */
  async cancelForUser(userId: string, jobId: string, keyScopes: readonly string[] | null): Promise<void> {
    const job = await this.access.job(userId, jobId, 'editor');
    assertScopes(keyScopes, jobWriteScope(job.kind));
    await this.cancel(job);
  }

  /** Jobs of the projects the user belongs to. */
  async list(userId: string, q: JobFilter): Promise<Page<Job>> {
    const qb = this.ds.getRepository(Job).createQueryBuilder('j').where(`j.project_id IN (${MEMBER_PROJECTS_SQL})`, { userId });
    if (q.project_id) qb.andWhere('j.project_id = :pid', { pid: q.project_id });
    if (q.kind) qb.andWhere('j.kind = :kind', { kind: q.kind });
    if (q.status) qb.andWhere('j.status = :status', { status: q.status });
    if (q.entity_id) qb.andWhere('j.entity_id = :eid', { eid: q.entity_id });
    if (q.search) qb.andWhere("(j.kind ILIKE :s OR coalesce(j.message,'') ILIKE :s)", { s: likePattern(q.search) });
    const dir = q.sort_direction === 'asc' ? 'ASC' : 'DESC';
    const [items, total] = await qb.orderBy(`j.${q.sort_field}`, dir).addOrderBy('j.id', dir).skip(q.offset).take(q.limit).getManyAndCount();
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /** The jobs that ran for one resource, oldest first. */
  forEntity(kind: JobKind, entityId: string): Promise<Job[]> {
    return this.ds.getRepository(Job).find({ where: { entityId, kind }, order: { createdAt: 'ASC' } });
  }

  /** The workflow's own `progress` answer, when it is running and answers quickly. */
  async liveProgress(job: Job): Promise<JobProgress | null> {
    if (job.status !== 'running') return null;
    try {
      const client = await this.temporal.get();
      // A deadline, not a raced timer: a query to a workflow whose worker is gone would otherwise stay in flight.
      return await client.withDeadline(Date.now() + 1500, () => client.workflow.getHandle(job.workflowId).query<JobProgress>('progress'));
    } catch {
      return null;
    }
  }

  /** Workers polling a queue family's activity queue right now (null when Temporal cannot be asked). */
  async queuePollers(family: QueueFamily): Promise<number | null> {
    try {
      const client = await this.temporal.get();
      const r = await client.workflowService.describeTaskQueue({
        namespace: this.config.temporal.namespace,
        taskQueue: { name: this.config.taskQueues[family] },
        taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
      });
      return r.pollers?.length ?? 0;
    } catch {
      return null;
    }
  }

  temporalUiUrl(job: Job): string {
    const base = `${this.config.temporal.uiUrl}/namespaces/${encodeURIComponent(this.config.temporal.namespace)}/workflows/${encodeURIComponent(job.workflowId)}`;
    return job.runId ? `${base}/${encodeURIComponent(job.runId)}/history` : base;
  }

  /**
   * Open jobs (queued, running) by kind and status, every kind listed (0 when it has none): what the metrics
   * endpoint reads at each scrape. Only open ones: they are few and found through the status index, whereas counting
   * finished jobs scans the table (about 600 ms at a million jobs, measured), too much for every scrape.
   */
  async openCounts(): Promise<{ kind: string; status: 'queued' | 'running'; count: number }[]> {
    const rows: { kind: string; status: 'queued' | 'running'; n: number }[] = await this.ds.query(
      "SELECT kind, status, count(*)::int AS n FROM jobs WHERE status IN ('queued', 'running') GROUP BY kind, status",
    );
    const counts = new Map(rows.map((r) => [`${r.kind}/${r.status}`, r.n]));
    const kinds = [...new Set<string>([...REGISTERED_JOB_KINDS, ...rows.map((r) => r.kind)])];
    return kinds.flatMap((kind) => (['queued', 'running'] as const).map((status) => ({ kind, status, count: counts.get(`${kind}/${status}`) ?? 0 })));
  }

  /**
   * Makes job rows agree with Temporal: a queued job whose workflow never started is started;
   * an open job whose workflow is gone or closed takes the workflow's outcome, and so does its
   * resource. Runs at API start and every RECONCILE_INTERVAL_SECS, on queued jobs unchanged and running jobs
   * started `graceSecs` ago (RECONCILE_GRACE_SECS): a job a restarted stack cannot finish (its workflow's history is
   * gone) ends `failed` within one period, with a reason that says so.
   */
  async reconcile(graceSecs = this.config.reconcileGraceSecs): Promise<{ started: number; closed: number }> {
    const open = await this.ds
      .getRepository(Job)
      .createQueryBuilder('j')
      // A queued job unchanged for the grace period (its workflow is started after the commit); a running job
      // started that long ago, however recently it wrote progress: an activity orphaned by a lost workflow goes on
      // writing progress, and must not keep its job from being closed.
      .where(
        `(j.status = 'queued' AND j.updated_at < now() - make_interval(secs => :grace))
          OR (j.status = 'running' AND coalesce(j.started_at, j.updated_at) < now() - make_interval(secs => :grace))`,
        { grace: graceSecs },
      )
      .getMany();
    if (!open.length) return { started: 0, closed: 0 };
    const client = await this.temporal.get();
    let started = 0;
    let closed = 0;
    for (const job of open) {
      try {
        const d = await client.workflow.getHandle(job.workflowId).describe();
        const outcome = CLOSED_WORKFLOW_OUTCOME[d.status.name];
        if (outcome) {
          const error = outcome === 'failed' ? (job.error ?? `workflow ${d.status.name.toLowerCase()}`) : job.error;
          if (await writeJobStatus(this.ds, this.store, job.id, { status: outcome, error })) closed++;
        }
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
        if (job.status === 'queued') {
          await this.start(job);
          started++;
        } else if (await writeJobStatus(this.ds, this.store, job.id, { status: 'failed', error: WORKFLOW_LOST })) {
          closed++;
        }
      }
    }
    if (started || closed) this.log.info({ started, closed }, 'job reconciler');
    return { started, closed };
  }
}

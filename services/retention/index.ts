import type { DataSource } from 'typeorm';
import { In, IsNull } from 'typeorm';
import { Job, RETENTION_KINDS, RetentionPolicy, type RetentionAction, type RetentionKind } from '../../entities';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { JobService } from '../jobs';
import { ANONYMIZABLE, countCandidates } from './candidates';
import { nextRetentionRun, syncRetentionSchedule, type RetentionScheduleDeps } from './schedule';

export { ANONYMIZABLE, DRIFT_WINDOW_LOGS } from './candidates';
export { reconcileRetentionSchedule, retentionScheduleId, RETENTION_CRON } from './schedule';

/** A policy as the job snapshots it (and the admin routes show it). */
export interface RetentionPolicyFields {
  kind: RetentionKind;
  keep_days: number | null;
  keep_latest: number | null;
  action: RetentionAction;
  enabled: boolean;
}

/** What a `retention` job runs with, fixed when it is queued: a retried attempt cuts at the same time with the same rules. */
export interface RetentionJobInput {
  as_of: string;
  policies: RetentionPolicyFields[];
}

/** What a `retention` job returns (kept on its jobs row): rows deleted or anonymized per kind, and files removed. */
export type RetentionJobResult = {
  as_of: string;
  kinds: { kind: RetentionKind; action: RetentionAction; rows: number }[];
  files_removed: number;
};

/** Ids shown per kind by a dry run. */
export const DRY_RUN_SAMPLE = 10;
/** Runs listed by the admin page. */
const LAST_RUNS = 10;

export const RETENTION_RUN_NOT_FOUND = 'Retention run not found';

function fields(p: RetentionPolicy): RetentionPolicyFields {
  return { kind: p.kind, keep_days: p.keepDays, keep_latest: p.keepLatest, action: p.action, enabled: p.enabled };
}

/**
 * The instance's retention policies (one per kind of record), their dry run, and their runs: `retention` jobs, queued
 * by a superuser or by the daily schedule. Callers have checked the caller is a superuser (api/admin-guard.ts).
 */
export class RetentionService {
  constructor(
    private readonly ds: DataSource,
    private readonly jobs: JobService,
    private readonly schedule: RetentionScheduleDeps,
  ) {}

  /** Every policy set, the last runs (newest first) and when the schedule next runs. */
  async overview(): Promise<{ policies: (RetentionPolicyFields & { updated_at: Date })[]; last_runs: Job[]; next_run_at: Date | null }> {
    const policies = await this.ds.getRepository(RetentionPolicy).find({ order: { kind: 'ASC' } });
    const order = new Map(RETENTION_KINDS.map((k, i) => [k, i]));
    policies.sort((a, b) => (order.get(a.kind) ?? 0) - (order.get(b.kind) ?? 0));
    return {
      policies: policies.map((p) => ({ ...fields(p), updated_at: p.updatedAt })),
      last_runs: await this.ds.getRepository(Job).find({ where: { kind: 'retention', projectId: IsNull() }, order: { createdAt: 'DESC' }, take: LAST_RUNS }),
      next_run_at: policies.some((p) => p.enabled) ? await nextRetentionRun(this.schedule) : null,
    };
  }

  /** Sets the kind's policy (anonymize only where it means something: 422 elsewhere); the schedule follows at once. */
  async put(userId: string, kind: RetentionKind, p: Omit<RetentionPolicyFields, 'kind'>): Promise<RetentionPolicyFields & { updated_at: Date }> {
    if (p.action === 'anonymize' && !ANONYMIZABLE[kind]) {
      throw ValidationError.field(['body', 'action'], `${kind} cannot be anonymized (nothing personal to blank); use delete`);
    }
    if ((p.keep_days === null) === (p.keep_latest === null)) {
      throw ValidationError.field(['body'], 'Give exactly one of keep_days and keep_latest');
    }
    const repo = this.ds.getRepository(RetentionPolicy);
    await repo.upsert({ kind, keepDays: p.keep_days, keepLatest: p.keep_latest, action: p.action, enabled: p.enabled, updatedBy: userId, updatedAt: new Date() }, ['kind']);
    await this.syncSchedule();
    const saved = await repo.findOneByOrFail({ kind });
    return { ...fields(saved), updated_at: saved.updatedAt };
  }

  /** Removes the kind's policy (404 when it has none): its records are kept however old. */
  async remove(kind: RetentionKind): Promise<void> {
    const r = await this.ds.getRepository(RetentionPolicy).delete({ kind });
    if (!r.affected) throw new NotFoundError('Retention policy not found');
    await this.syncSchedule();
  }

  /** What a run now would take, per enabled policy: counts and the oldest ids, changing nothing. */
  async dryRun(): Promise<{ as_of: Date; kinds: { kind: RetentionKind; action: RetentionAction; count: number; sample_ids: string[] }[] }> {
    const asOf = new Date();
    const policies = await this.enabledPolicies();
    // One snapshot for every count: a repeatable-read, read-only transaction.
    const kinds = await this.ds.transaction('REPEATABLE READ', async (em) => {
      await em.query('SET TRANSACTION READ ONLY');
      const out = [];
      for (const p of policies) {
        const c = await countCandidates(em, { kind: p.kind, action: p.action, keepDays: p.keep_days, keepLatest: p.keep_latest, asOf }, DRY_RUN_SAMPLE);
        out.push({ kind: p.kind, action: p.action, ...c });
      }
      return out;
    });
    return { as_of: asOf, kinds };
  }

  /** Queues a run of the enabled policies for a superuser: 409 while one is open, or when no policy is enabled. */
  async start(userId: string): Promise<Job> {
    const job = await this.queue(userId);
    if (job === 'open') throw new ConflictError('A retention run is already queued or running');
    if (job === 'none') throw new ConflictError('No retention policy is enabled; nothing to run');
    return job;
  }

  /** The schedule's run: a job unless one is open or no policy is enabled (then null). */
  async startScheduled(): Promise<Job | null> {
    const job = await this.queue(null);
    return typeof job === 'string' ? null : job;
  }

  /** A run (a `retention` job) by id. */
  async run(jobId: string): Promise<Job> {
    const job = await this.ds.getRepository(Job).findOneBy({ id: jobId, kind: 'retention', projectId: IsNull() });
    if (!job) throw new NotFoundError(RETENTION_RUN_NOT_FOUND);
    return job;
  }

  /** Cancels a queued or running run (409 once it ended): it stops between two batches, each committed whole. */
  async cancel(jobId: string): Promise<Job> {
    await this.jobs.cancel(await this.run(jobId));
    return this.run(jobId);
  }

  /** The job's snapshot of rules, for its activity. */
  async runInput(jobId: string): Promise<RetentionJobInput> {
    return (await this.run(jobId)).input as RetentionJobInput;
  }

  private async queue(userId: string | null): Promise<Job | 'open' | 'none'> {
    const job = await this.ds.transaction(async (em) => {
      // One run at a time, whoever asks: taken under a lock, so two requests at once cannot both queue one.
      await em.query("SELECT pg_advisory_xact_lock(hashtext('retention-run'))");
      if (await em.getRepository(Job).existsBy({ kind: 'retention', status: In(['queued', 'running']) })) return 'open' as const;
      const policies = (await em.getRepository(RetentionPolicy).find({ where: { enabled: true } })).map(fields);
      if (!policies.length) return 'none' as const;
      const input: RetentionJobInput = { as_of: new Date().toISOString(), policies: sortByKind(policies) };
      return this.jobs.create(em, { kind: 'retention', projectId: null, createdBy: userId, input: input as unknown as Record<string, unknown> });
    });
    if (typeof job !== 'string') await this.jobs.start(job);
    return job;
  }

  private async enabledPolicies(): Promise<RetentionPolicyFields[]> {
    return sortByKind((await this.ds.getRepository(RetentionPolicy).find({ where: { enabled: true } })).map(fields));
  }

  private async syncSchedule(): Promise<void> {
    await syncRetentionSchedule(this.schedule);
  }
}

function sortByKind<T extends { kind: RetentionKind }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => RETENTION_KINDS.indexOf(a.kind) - RETENTION_KINDS.indexOf(b.kind));
}

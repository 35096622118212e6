import type { DataSource } from 'typeorm';
import type { JobKind } from '../entities';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import type { TemporalGateway } from '../platform/temporal-client';
import { ADMISSION_WAKE_SIGNAL } from '../workflows/job-input';
import { JOB_KINDS_REGISTRY } from './job-kinds';
import { limitsOfUser } from './plans';

/** The kinds whose body holds an ml-cpu slot for its whole run (`fairShare` in the registry). */
const FAIR_SHARE_KINDS = (Object.keys(JOB_KINDS_REGISTRY) as JobKind[]).filter((k) => JOB_KINDS_REGISTRY[k].fairShare);

/** A job's tenant as SQL, matching `tenantKey` in services/jobs.ts: who started it, else its project. */
const TENANT_SQL = 'coalesce(created_by::text, project_id::text)';

/**
 * A neural synthgen training with `use_gpu` first waits for a GPU worker (minutes, with no CPU slot held): it must not
 * take its user's ml-cpu share while it waits. If no GPU takes it, it trains on ml-cpu beside the share.
 */
function asksForGpu(input: { useGpu?: unknown; neural?: unknown } | null): boolean {
  return input?.useGpu === true && input?.neural === true;
}

/**
 * Fair shares of the workers between users. An ml-cpu worker has two slots and Temporal hands out its tasks in
 * order, so one user's fifty synthgen trainings would hold both slots for hours while another user's drift check
 * waits behind them. A job of a `fairShare` kind therefore asks here before its work is scheduled: it runs when its
 * user has fewer than MAX_RUNNING_JOBS_PER_USER admitted jobs open, and otherwise waits inside its workflow (a
 * durable timer: no slot held, cancellable) until one of them finishes and wakes it. Below the slots of one worker,
 * that cap leaves a slot for any other user however many jobs the first queued.
 */
export class JobAdmission {
  constructor(
    private readonly ds: DataSource,
    private readonly temporal: TemporalGateway,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  /** True when the job may start its work now (it is then counted against its user's share until it ends). */
  async admit(jobId: string): Promise<boolean> {
    return this.ds.transaction(async (em) => {
      const [job] = await em.query(`SELECT kind, status, admitted_at, input, created_by, ${TENANT_SQL} AS tenant FROM jobs WHERE id = $1`, [jobId]);
      // A job that is gone or closed goes on, and its body meets that as it would have.
      if (!job || job.admitted_at || !['queued', 'running'].includes(job.status)) return true;
      // The plan of who started it (services/plans.ts); a job nobody started (a schedule's) takes the configured share.
      const cap = job.created_by ? (await limitsOfUser(em, job.created_by)).max_running_jobs : this.config.quotas.maxRunningJobsPerUser;
      // Outside the share (and not counted in it): other kinds, no cap, or a training that waits for a GPU.
      if (cap === null || !FAIR_SHARE_KINDS.includes(job.kind) || asksForGpu(job.input)) return true;
      await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`admission:${job.tenant}`]);
      const [{ n }] = await em.query(`SELECT count(*)::int AS n FROM jobs WHERE ${TENANT_SQL} = $1 AND admitted_at IS NOT NULL AND status IN ('queued', 'running') AND kind = ANY($2)`, [
        job.tenant,
        FAIR_SHARE_KINDS,
      ]);
      if (n >= cap) {
        const message = `waiting: ${n === 1 ? 'another job' : `${n} other jobs`} of this user ${n === 1 ? 'is' : 'are'} running, at most ${cap} at once (MAX_RUNNING_JOBS_PER_USER); this one starts when one finishes`;
        await em.query('UPDATE jobs SET message = $2 WHERE id = $1', [jobId, message]);
        return false;
      }
      await em.query('UPDATE jobs SET admitted_at = now() WHERE id = $1', [jobId]);
      return true;
    });
  }

  /**
   * After a job ends: wakes its user's oldest waiting jobs (as many as the share allows), so a freed share is taken at
   * once rather than at the waiters' next poll. Best effort: a waiter that misses it polls on its own.
   */
  async wakeWaiting(jobId: string): Promise<void> {
    const [ended]: { created_by: string | null }[] = await this.ds.query('SELECT created_by FROM jobs WHERE id = $1', [jobId]);
    const cap = ended?.created_by ? (await limitsOfUser(this.ds.manager, ended.created_by)).max_running_jobs : this.config.quotas.maxRunningJobsPerUser;
    if (cap === null) return;
    const waiting: { workflow_id: string }[] = await this.ds.query(
      `SELECT w.workflow_id FROM jobs j JOIN jobs w ON coalesce(w.created_by::text, w.project_id::text) = coalesce(j.created_by::text, j.project_id::text)
        WHERE j.id = $1 AND w.status = 'queued' AND w.admitted_at IS NULL AND w.kind = ANY($2)
        ORDER BY w.created_at LIMIT $3`,
      [jobId, FAIR_SHARE_KINDS, cap],
    );
    if (!waiting.length) return;
    try {
      const client = await this.temporal.get();
      await Promise.all(
        waiting.map((w) =>
          client.workflow
            .getHandle(w.workflow_id)
            .signal(ADMISSION_WAKE_SIGNAL)
            .catch(() => undefined),
        ),
      );
    } catch (err) {
      this.log.debug({ err, jobId }, 'could not wake waiting jobs; they poll');
    }
  }
}

import type { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Job, JobStatus, JsonMap } from '../entities';

/**
 * Resources whose status moves with their job, in the spelling the spec gives the resource.
 * Called in the same transaction as the job update.
 */
const RESOURCE_STATUS: Partial<Record<Job['kind'], (em: EntityManager, job: Job, status: JobStatus, error: string | null) => Promise<void>>> = {
  automl_train: async (em, job, status, error) => {
    const started = status === 'running' ? ', started_at = COALESCE(started_at, now())' : '';
    const finished = ['succeeded', 'failed', 'canceled'].includes(status) ? ', finished_at = now()' : '';
    await em.query(
      `UPDATE experiments SET status = $2, error = $3, updated_at = now()${started}${finished} WHERE id = $1 AND status NOT IN ('succeeded','failed','canceled')`,
      [job.entityId, status, error],
    );
  },
};

async function setStatus(ds: DataSource, jobId: string, patch: QueryDeepPartialEntity<Job>, allowedFrom: JobStatus[]): Promise<void> {
  await ds.transaction(async (em) => {
    const r = await em
      .getRepository(Job)
      .createQueryBuilder()
      .update(Job)
      .set(patch)
      .where('id = :jobId AND status IN (:...allowedFrom)', { jobId, allowedFrom })
      .execute();
    if (!r.affected) return;
    const job = await em.getRepository(Job).findOneByOrFail({ id: jobId });
    await RESOURCE_STATUS[job.kind]?.(em, job, job.status, job.error);
  });
}

export interface JobActivities {
  markJobRunning(jobId: string): Promise<void>;
  markJobFinished(jobId: string, outcome: { status: JobStatus; result?: Record<string, unknown>; error?: string | null }): Promise<void>;
}

/** Status writes of the job row, called by every job workflow through `runJob`. */
export function createJobActivities(ds: DataSource): JobActivities {
  return {
    async markJobRunning(jobId) {
      await setStatus(ds, jobId, { status: 'running', startedAt: () => 'COALESCE(started_at, now())', message: 'running' }, ['queued', 'running']);
    },
    async markJobFinished(jobId, outcome) {
      const patch: QueryDeepPartialEntity<Job> = {
        status: outcome.status,
        finishedAt: new Date(),
        error: outcome.error ?? null,
        message: outcome.status,
      };
      if (outcome.status === 'succeeded') {
        patch.progress = 100;
        patch.result = (outcome.result ?? {}) as JsonMap;
      }
      await setStatus(ds, jobId, patch, ['queued', 'running']);
    },
  };
}

/**
 * Heartbeats progress to Temporal (which also delivers cancellation) and writes it to the
 * job row at most twice a second, so status endpoints show it without asking a worker.
 */
export function createProgressWriter(ds: DataSource, jobId: string, heartbeat: (d: unknown) => void) {
  let lastWrite = 0;
  let lastProgress = -1;
  return async (progress: number, message: string, force = false): Promise<void> => {
    const p = Math.max(0, Math.min(99, Math.floor(progress)));
    heartbeat({ progress: p, message });
    const now = Date.now();
    if (!force && (now - lastWrite < 500 || p === lastProgress)) return;
    lastWrite = now;
    lastProgress = p;
    await ds.getRepository(Job).update({ id: jobId, status: 'running' }, { progress: p, message });
  };
}

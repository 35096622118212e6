import type { DataSource } from 'typeorm';
import { Job, JobStatus, TERMINAL_JOB_STATUSES } from '../entities';

export interface JobActivities {
  markJobRunning(jobId: string): Promise<void>;
  markJobFinished(jobId: string, outcome: { status: JobStatus; result?: Record<string, unknown>; error?: string | null }): Promise<void>;
}

/** Status writes of the job row, called by every job workflow through `runJob`. */
export function createJobActivities(ds: DataSource): JobActivities {
  const repo = () => ds.getRepository(Job);
  return {
    async markJobRunning(jobId) {
      await repo()
        .createQueryBuilder()
        .update(Job)
        .set({ status: 'running', startedAt: () => 'COALESCE(started_at, now())', message: 'running' })
        .where('id = :jobId AND status IN (:...open)', { jobId, open: ['queued', 'running'] })
        .execute();
    },
    async markJobFinished(jobId, outcome) {
      const patch: Partial<Job> = {
        status: outcome.status,
        finishedAt: new Date(),
        error: outcome.error ?? null,
        message: outcome.status,
      };
      if (outcome.status === 'succeeded') {
        patch.progress = 100;
        patch.result = outcome.result ?? {};
      }
      await repo()
        .createQueryBuilder()
        .update(Job)
        .set(patch)
        .where('id = :jobId AND status NOT IN (:...done)', { jobId, done: TERMINAL_JOB_STATUSES })
        .execute();
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

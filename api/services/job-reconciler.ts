import { WorkflowNotFoundError } from '@temporalio/client';
import type { DataSource } from 'typeorm';
import { Job } from '../../entities';
import type { Logger } from '../../platform/logger';
import type { TemporalGateway } from '../../platform/temporal-client';
import type { JobService } from './jobs';

const STATUS_OF_CLOSED: Record<string, 'succeeded' | 'failed' | 'canceled'> = {
  COMPLETED: 'succeeded',
  FAILED: 'failed',
  CANCELLED: 'canceled',
  TERMINATED: 'failed',
  TIMED_OUT: 'failed',
};

/**
 * Makes job rows agree with Temporal: a queued job whose workflow never started is
 * started; an open job whose workflow is gone or closed takes the workflow's outcome.
 * Runs at API start and every RECONCILE_INTERVAL_SECS.
 */
export async function reconcileJobs(ds: DataSource, temporal: TemporalGateway, jobs: JobService, log: Logger, graceSecs = 30): Promise<{ started: number; closed: number }> {
  const open = await ds
    .getRepository(Job)
    .createQueryBuilder('j')
    .where("j.status IN ('queued','running')")
    .andWhere(`j.updated_at < now() - make_interval(secs => :grace)`, { grace: graceSecs })
    .getMany();
  if (!open.length) return { started: 0, closed: 0 };
  const client = await temporal.get();
  let started = 0;
  let closed = 0;
  for (const job of open) {
    try {
      const d = await client.workflow.getHandle(job.workflowId).describe();
      const outcome = STATUS_OF_CLOSED[d.status.name];
      if (outcome) {
        const r = await ds
          .getRepository(Job)
          .createQueryBuilder()
          .update()
          .set({ status: outcome, finishedAt: () => 'COALESCE(finished_at, now())', error: outcome === 'failed' ? (job.error ?? `workflow ${d.status.name.toLowerCase()}`) : job.error })
          .where("id = :id AND status IN ('queued','running')", { id: job.id })
          .execute();
        closed += r.affected ?? 0;
      }
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      if (job.status === 'queued') {
        await jobs.start(job);
        started++;
      } else {
        await ds.getRepository(Job).update({ id: job.id }, { status: 'failed', error: 'The workflow of this job no longer exists', finishedAt: new Date() });
        closed++;
      }
    }
  }
  if (started || closed) log.info({ started, closed }, 'job reconciler');
  return { started, closed };
}

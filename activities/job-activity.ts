import { Context } from '@temporalio/activity';
import type { JobService } from '../services/jobs';
import { domainFailures } from './failures';

/** Progress of a job's work: a percentage and a line for the user. */
export type JobProgress = (percent: number, message: string) => Promise<void>;

/**
 * The frame of a job's activity: records the attempt, reports progress on the jobs row and in
 * heartbeats, and translates domain errors. Heartbeats deliver cancellation: once the job is
 * canceled, the body's next progress report throws, so it stops at a step boundary and writes
 * nothing after it.
 */
export function jobActivity<T>(jobs: JobService, jobId: string, firstStep: string, body: (progress: JobProgress) => Promise<T>): Promise<T> {
  return domainFailures(async () => {
    const ctx = Context.current();
    await jobs.recordAttempt(jobId, ctx.info.attempt);
    const report = jobs.progressWriter(jobId, (d) => ctx.heartbeat(d));
    await report(0, `attempt ${ctx.info.attempt}: ${firstStep}`, true);
    return body(async (p, m) => {
      if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
      await report(p, m);
    });
  });
}

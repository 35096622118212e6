import { Context } from '@temporalio/activity';
import type { JobService } from '../services/jobs';
import { domainFailures } from './failures';

/**
 * Progress of a job's work: a percentage and a line for the user, optionally with where the work stands (`resume`),
 * which the heartbeat carries so that a retried attempt can start from there ({@link JobFrame.resumeFrom}).
 */
export type JobProgress<R = never> = (percent: number, message: string, resume?: R) => Promise<void>;

/** What a job activity's body gets from its frame, besides its progress. */
export interface JobFrame<R = never> {
  /** Aborted when the job is canceled: pass it to what can stop early, and clean up after it. */
  signal: AbortSignal;
  /** The attempt (1 for the first): a retried attempt may find part of the work done. */
  attempt: number;
  /** The task queue the attempt runs on (a job's log may say where it ran). */
  taskQueue: string;
  /** What the last attempt's last progress carried as `resume` (Temporal's heartbeat details); undefined on a first attempt. */
  resumeFrom: R | undefined;
  /**
   * A heartbeat with the last progress and nothing written: for a step that reports nothing of its own (a single
   * DuckDB query), called as often as the step can. Unlike progress, it does not throw on cancel.
   */
  keepAlive(): void;
}

/** The heartbeat details a job activity sends (and reads back, on a retried attempt, as `resume`). */
interface Beat<R> {
  progress: number;
  message: string;
  resume?: R;
}

/**
 * The one frame of every job activity (Temporal's `activities-cancellation-heartbeating` pattern): records the
 * attempt, reports progress on the jobs row and in heartbeats sent from inside the body's loop (no timer: a stuck body
 * stops heartbeating and its attempt times out), hands the body what the previous attempt had reached, and translates
 * domain errors. Heartbeats deliver cancellation: once the job is canceled, the body's next progress report throws
 * (and `signal` aborts), so it stops at a step boundary and writes nothing after it.
 */
export function jobActivity<T, R = never>(jobs: JobService, jobId: string, firstStep: string, body: (progress: JobProgress<R>, frame: JobFrame<R>) => Promise<T>): Promise<T> {
  return domainFailures(async () => {
    const ctx = Context.current();
    const resumeFrom = (ctx.info.heartbeatDetails as Beat<R> | undefined)?.resume;
    let last: Beat<R> = { progress: 0, message: firstStep, resume: resumeFrom };
    await jobs.recordAttempt(jobId, ctx.info.attempt);
    // The jobs row gets percent and message; the heartbeat also carries where the work stands.
    const report = jobs.progressWriter(jobId, (d) => ctx.heartbeat({ ...(d as Beat<R>), resume: last.resume }));
    await report(0, `attempt ${ctx.info.attempt}: ${firstStep}`, true);
    const progress: JobProgress<R> = async (p, m, resume) => {
      if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
      last = { progress: p, message: m, resume: resume ?? last.resume };
      await report(p, m);
    };
    return body(progress, {
      signal: ctx.cancellationSignal,
      attempt: ctx.info.attempt,
      taskQueue: ctx.info.taskQueue,
      resumeFrom,
      keepAlive: () => ctx.heartbeat(last),
    });
  });
}

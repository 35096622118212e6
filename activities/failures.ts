import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { isInfrastructureOutage } from '../platform/outage';
import { DomainError, InternalError, UnavailableError } from '../services/errors';

/**
 * Domain errors become Temporal failures here, once: a fault retrying cannot fix (missing
 * resource, bad data, invalid input, a conflict) is non-retryable and ends the job `failed` with
 * its message; anything else is thrown as it is and retried by the activity's retry policy.
 */
export function toActivityFailure(err: unknown): unknown {
  if (err instanceof DomainError && !(err instanceof UnavailableError) && !(err instanceof InternalError)) {
    return ApplicationFailure.nonRetryable(err.message, err.name);
  }
  return err;
}

/**
 * What tells that the database is back, and how long an activity hit by an infrastructure outage (the database down,
 * a connection cut) waits for it before it gives the attempt back to its retry policy anyway (OUTAGE_WAIT_SECS). The
 * retry policies allow a few attempts a few seconds apart: without the wait, a minute's outage failed every job in flight.
 */
export interface OutageWait {
  probe: () => Promise<unknown>;
  waitMs: number;
}

let outage: OutageWait | undefined;

/** Once per worker process: module state, because every activity file runs its body through {@link domainFailures}. */
export function configureOutageWait(wait: OutageWait): void {
  outage = wait;
}

/**
 * Runs an activity body, translating domain errors (see {@link toActivityFailure}). An infrastructure outage is
 * waited out first (heartbeating, so the activity is not timed out meanwhile), then rethrown as it is: the retry
 * policy starts the next attempt once the database answers again, instead of spending every attempt during the outage.
 */
export async function domainFailures<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    if (isInfrastructureOutage(err)) await waitForInfrastructure();
    throw toActivityFailure(err);
  }
}

async function waitForInfrastructure(): Promise<void> {
  if (!outage) return;
  const { probe, waitMs } = outage;
  let ctx: Context | undefined;
  try {
    ctx = Context.current();
  } catch {
    ctx = undefined; // not inside an activity (a unit test)
  }
  const deadline = Date.now() + waitMs;
  for (let delay = 500; Date.now() < deadline; delay = Math.min(delay * 2, 5_000)) {
    if (ctx?.cancellationSignal.aborted) return;
    ctx?.heartbeat({ message: 'waiting for the database to return' });
    try {
      await probe();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

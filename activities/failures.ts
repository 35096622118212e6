import { ApplicationFailure } from '@temporalio/common';
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

/** Runs an activity body, translating domain errors (see {@link toActivityFailure}). */
export async function domainFailures<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    throw toActivityFailure(err);
  }
}

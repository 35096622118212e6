/**
 * The domain's one error vocabulary. Services, activities and the engine's adapters throw
 * these; `api/middleware/error-handler.ts` maps them to HTTP once, and `activities/failures.ts`
 * maps them to Temporal failures once (bad data, bad input and missing resources are
 * non-retryable: retrying cannot fix them).
 */

/** One field-level problem, located as the spec's validation errors are: `['body', 'config', 'nfolds']`. */
export interface FieldIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export abstract class DomainError extends Error {
  /** The error's class name; also the Temporal failure type activities report. */
  abstract readonly name: string;
}

/** The resource does not exist, or the caller may not know it does: the same answer (404). */
export class NotFoundError extends DomainError {
  readonly name = 'NotFoundError';
}

/** The caller is known but its role or scope is too small (403). */
export class ForbiddenError extends DomainError {
  readonly name = 'ForbiddenError';
}

/** No valid credentials (401). */
export class UnauthenticatedError extends DomainError {
  readonly name = 'UnauthenticatedError';
  constructor(message = 'Missing or invalid credentials') {
    super(message);
  }
}

/** The request contradicts the resource's current state (409). */
export class ConflictError extends DomainError {
  readonly name = 'ConflictError';
}

/**
 * The request is well-formed but refused as stated (400): a wrong current password, an expired
 * token. The spec answers these with 400 and a fixed text.
 */
export class RejectedError extends DomainError {
  readonly name = 'RejectedError';
}

/**
 * Input that fails validation (422). Either one readable sentence (the spec's fixed texts, such
 * as `Project name must not be empty`) or field issues with their location.
 */
export class ValidationError extends DomainError {
  readonly name = 'ValidationError';
  readonly issues: FieldIssue[] | null;
  constructor(detail: string | FieldIssue[]) {
    super(typeof detail === 'string' ? detail : detail.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.issues = typeof detail === 'string' ? null : detail;
  }

  /** One field's problem: `invalidField(['body', 'email'], 'No registered user has this email')`. */
  static field(loc: (string | number)[], msg: string, type = 'value_error'): ValidationError {
    return new ValidationError([{ loc, msg, type }]);
  }
}

/** The user's data cannot be used as asked (unreadable file, no usable rows): 422 over HTTP, non-retryable in jobs. */
export class DataError extends DomainError {
  readonly name = 'DataError';
}

/** More than the service accepts in one request (413). */
export class TooLargeError extends DomainError {
  readonly name = 'TooLargeError';
}

/**
 * The caller has too much in flight (429): wait and retry. `retryAfterSecs` becomes `Retry-After`, so the spec's
 * client backoff for 429 applies as it does to rate limits.
 */
export class BusyError extends DomainError {
  readonly name = 'BusyError';
  constructor(
    message: string,
    readonly retryAfterSecs = 30,
  ) {
    super(message);
  }
}

/** A dependency is down, or the operation failed on our side in a way the client may retry (503). */
export class UnavailableError extends DomainError {
  readonly name = 'UnavailableError';
}

/** An operation of ours failed in a way the user should hear about in words (500, message kept). */
export class InternalError extends DomainError {
  readonly name = 'InternalError';
}

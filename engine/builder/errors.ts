/**
 * The builder's one error: an operation that cannot run on this table, said for a person. A
 * {@link DataValidationError}, so the API answers it as invalid input (422) and a job fails at once instead of
 * retrying the same data.
 */
import { DataValidationError } from '../data/errors';

/** An operation that does not fit the table (unknown column, wrong type, a value that does not convert...). */
export class OperationError extends DataValidationError {
  /**
   * @param index position of the operation in its list, 0-based (the message counts from 1, as people do)
   * @param detail what is wrong, without the "Operation N (op): " prefix
   */
  constructor(
    readonly index: number,
    readonly op: string,
    readonly detail: string,
  ) {
    super(`Operation ${index + 1} (${op}): ${detail}`);
    this.name = 'OperationError';
  }
}

/** A `derive`/`filter_rows` expression that does not parse or type-check; `position` is the 0-based character. */
export class ExpressionError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'ExpressionError';
  }
}

/** Raised when the caller's `signal` aborted an execution or a preview. */
export class OperationsAbortedError extends Error {
  constructor() {
    super('The execution was canceled');
    this.name = 'AbortError';
  }
}

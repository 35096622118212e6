/**
 * Typed errors raised by the data engine. The API layer maps these to HTTP responses,
 * so their class and message are part of the contract.
 */

/** Raised when the content is neither CSV-like text nor Parquet (detected by content, never by extension). */
export class UnsupportedFileTypeError extends Error {
  constructor() {
    super('Unsupported file type');
    this.name = 'UnsupportedFileTypeError';
  }
}

/** Raised when the file is of a supported type but its content cannot be accepted (empty, ragged, no columns...). */
export class DataValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataValidationError';
  }
}

/**
 * Raised when a file has more columns than the ingest accepts. A {@link DataValidationError}, so callers that map
 * those to 422 need nothing more; the message names the count and the limit.
 */
export class TooManyColumnsError extends DataValidationError {
  constructor(
    readonly columns: number,
    readonly limit: number,
    /** True when `columns` is a lower bound read from the header line, before any parsing. */
    readonly atLeast = false,
  ) {
    super(`Too many columns: the file has ${atLeast ? 'at least ' : ''}${columns} columns; the limit is ${limit}`);
    this.name = 'TooManyColumnsError';
  }
}

/**
 * Raised when a file has more rows than the ingest accepts (see size-limit.ts). A {@link DataValidationError} (422,
 * as for columns); the message names the count and the limit.
 */
export class TooManyRowsError extends DataValidationError {
  constructor(
    readonly rows: number,
    readonly limit: number,
    /** True when a CSV's conversion stopped once it passed the limit: the file has more than `limit` rows. */
    readonly stopped = false,
  ) {
    super(`Too many rows: the file has ${stopped ? `more than ${limit}` : rows} rows; the limit is ${limit}`);
    this.name = 'TooManyRowsError';
  }
}

/**
 * Raised when a file has more cells (rows × columns) than the ingest accepts (see size-limit.ts). A
 * {@link DataValidationError} (422); the message names the counts and the limit.
 */
export class TooManyCellsError extends DataValidationError {
  constructor(
    readonly rows: number,
    readonly columns: number,
    readonly limit: number,
    /** True when a CSV's conversion stopped once it passed the limit: the file has more than `rows` rows. */
    readonly stopped = false,
  ) {
    super(
      stopped
        ? `Too many cells: the file has more than ${rows} rows × ${columns} columns; the limit is ${limit} cells`
        : `Too many cells: the file has ${rows} rows × ${columns} columns = ${rows * columns} cells; the limit is ${limit} cells`,
    );
    this.name = 'TooManyCellsError';
  }
}

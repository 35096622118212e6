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

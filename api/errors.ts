/**
 * The one error vocabulary of the API. The error middleware turns these into the spec's
 * bodies: `{detail: string}`, or for validation `{detail: [{loc, msg, type}]}`.
 */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : 'Validation failed');
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const unauthorized = (detail = 'Missing or invalid credentials') => new HttpError(401, detail);
export const forbidden = (detail: string) => new HttpError(403, detail);
/** Absent and inaccessible resources are the same answer. */
export const notFound = (detail: string) => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);
export const unprocessable = (detail: string | ValidationIssue[]) => new HttpError(422, detail);
export const tooManyRequests = (headers: Record<string, string>, detail = 'Rate limit exceeded') => new HttpError(429, detail, headers);
export const serviceUnavailable = (detail: string) => new HttpError(503, detail);

/** A single-field validation failure in the `[{loc,msg,type}]` form. */
export function invalidField(loc: (string | number)[], msg: string, type = 'value_error'): HttpError {
  return new HttpError(422, [{ loc, msg, type }]);
}

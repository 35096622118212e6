import type Koa from 'koa';
import { BusyError, DomainError, ValidationError } from '../../services/errors';
import type { AppContext, AppState } from '../context';
import { HttpError } from '../errors';
import { withoutPaths } from '../redact-paths';
import { closeAfterAnswer } from '../uploads';

/** The HTTP status of each domain error; the domain's message is the body's `detail`. */
const DOMAIN_STATUS: Record<string, number> = {
  NotFoundError: 404,
  ForbiddenError: 403,
  UnauthenticatedError: 401,
  ConflictError: 409,
  RejectedError: 400,
  ValidationError: 422,
  DataError: 422,
  TooLargeError: 413,
  BusyError: 429,
  UnavailableError: 503,
  InternalError: 500,
};

interface PgLikeError {
  code?: string;
  driverError?: { code?: string };
}

type Classified = { status: number; detail: unknown; headers: Record<string, string> };

/**
 * PostgreSQL errors that a request's data can cause, as the answer they deserve. Validation refuses these inputs
 * first (NUL characters, integers past int4, unknown ids); this table is the last line of defence for what slips
 * past it. The texts are fixed: the driver's message names tables, columns, values and SQL, and is never echoed.
 */
const PG_CODES: Record<string, { status: number; detail: string }> = {
  '23505': { status: 409, detail: 'Resource already exists' },
  '23503': { status: 409, detail: 'A referenced resource does not exist or is still in use' },
  '23502': { status: 422, detail: 'A required value is missing' },
  '23514': { status: 422, detail: 'A value is outside what is allowed' },
  '23P01': { status: 409, detail: 'Conflicts with an existing resource' },
  '22P02': { status: 422, detail: 'Invalid identifier or value' },
  '22021': { status: 422, detail: 'Text must not contain NUL (\\u0000) characters or invalid UTF-8' },
  '22P05': { status: 422, detail: 'Text must not contain NUL (\\u0000) characters' },
  '22003': { status: 422, detail: 'A number is out of range' },
  '22001': { status: 422, detail: 'A value is too long' },
  '22007': { status: 422, detail: 'Invalid date or time' },
  '22008': { status: 422, detail: 'Date or time out of range' },
  '2201W': { status: 422, detail: 'Invalid LIMIT value' },
  '2201X': { status: 422, detail: 'Invalid OFFSET value' },
  '22023': { status: 422, detail: 'Invalid parameter value' },
  '22025': { status: 422, detail: 'Invalid escape sequence' },
  '22P03': { status: 422, detail: 'Invalid binary value' },
  '54000': { status: 422, detail: 'A value is too large' },
  '54001': { status: 422, detail: 'The request is too complex' },
  '54011': { status: 422, detail: 'Too many columns' },
  '54023': { status: 422, detail: 'Too many values' },
};

/**
 * Maps every thrown error to the spec's body and code, once: domain errors from the services,
 * transport errors (HttpError: authentication, rate limits), body parser limits and PostgreSQL
 * data and constraint errors keep their meaning; anything else is a logged 500 whose body says
 * nothing about internals. No message leaves with a server path in it (`roots`: the data and
 * artifact folders).
 */
export function errorHandler(roots: string[] = []): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { detail: 'Not found' };
      }
    } catch (err) {
      const { status, detail, headers } = classifyError(err);
      if (status >= 500) ctx.state.log?.error({ err }, 'request failed');
      else if (!(err instanceof HttpError) && !(err instanceof DomainError)) ctx.state.log?.warn({ err }, 'request refused by the database or the body parser');
      // A refusal before the body was read (401, 403, 404 at the guards): close rather than read it.
      if (!ctx.req.complete && Number(ctx.get('content-length') || 0) > 0) closeAfterAnswer(ctx as AppContext);
      ctx.status = status;
      for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
      ctx.body = { detail: typeof detail === 'string' ? withoutPaths(detail, roots) : detail };
    }
  };
}

/** The status, body detail and headers an error answers with. */
export function classifyError(err: unknown): Classified {
  if (err instanceof HttpError) return { status: err.status, detail: err.detail, headers: err.headers };
  if (err instanceof DomainError) {
    const detail = err instanceof ValidationError && err.issues ? err.issues : err.message;
    const headers: Record<string, string> = err instanceof BusyError ? { 'Retry-After': String(err.retryAfterSecs) } : {};
    return { status: DOMAIN_STATUS[err.name] ?? 500, detail, headers };
  }
  const e = err as { status?: number; statusCode?: number; expose?: boolean; message?: string; type?: string } & PgLikeError;
  const code = e?.code ?? e?.driverError?.code;
  if (typeof code === 'string') {
    const known = PG_CODES[code];
    if (known) return { ...known, headers: {} };
    // Any other data exception (class 22) is about a value the request carried.
    if (code.startsWith('22') && code.length === 5) return { status: 422, detail: 'Invalid value', headers: {} };
  }
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return { status, detail: 'Request body too large', headers: {} };
    if (status === 415) return { status, detail: 'Unsupported content type', headers: {} };
    // The JSON parser (co-body, through bourne) refuses `__proto__` keys rather than risk prototype poisoning.
    if (status === 400 && /forbidden prototype property/.test(e.message ?? '')) return { status, detail: 'JSON keys named __proto__ are not accepted', headers: {} };
    if (status === 400 && /json/i.test(e.message ?? '')) return { status, detail: 'Malformed JSON body', headers: {} };
    return { status, detail: e.expose && e.message ? e.message : 'Bad request', headers: {} };
  }
  return { status: 500, detail: 'Internal server error', headers: {} };
}

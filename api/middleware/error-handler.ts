import type Koa from 'koa';
import type { AppContext, AppState } from '../context';
import { closeAfterAnswer } from '../uploads';
import { DomainError, ValidationError } from '../../services/errors';
import { HttpError } from '../errors';

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
  UnavailableError: 503,
  InternalError: 500,
};

interface PgLikeError {
  code?: string;
  driverError?: { code?: string };
}

/**
 * Maps every thrown error to the spec's body and code, once: domain errors from the services,
 * transport errors (HttpError: authentication, rate limits), body parser limits and unique
 * violations keep their meaning; anything else is a logged 500
 * whose body says nothing about internals.
 */
export function errorHandler(): Koa.Middleware<AppState> {
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
      // A refusal before the body was read (401, 403, 404 at the guards): close rather than read it.
      if (!ctx.req.complete && Number(ctx.get('content-length') || 0) > 0) closeAfterAnswer(ctx as AppContext);
      ctx.status = status;
      for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
      ctx.body = { detail };
    }
  };
}

/** The status, body detail and headers an error answers with. */
export function classifyError(err: unknown): { status: number; detail: unknown; headers: Record<string, string> } {
  if (err instanceof HttpError) return { status: err.status, detail: err.detail, headers: err.headers };
  if (err instanceof DomainError) {
    const detail = err instanceof ValidationError && err.issues ? err.issues : err.message;
    return { status: DOMAIN_STATUS[err.name] ?? 500, detail, headers: {} };
  }
  const e = err as { status?: number; statusCode?: number; expose?: boolean; message?: string; type?: string } & PgLikeError;
  const code = e?.code ?? e?.driverError?.code;
  if (code === '23505') return { status: 409, detail: 'Resource already exists', headers: {} };
  if (code === '22P02') return { status: 422, detail: 'Invalid identifier', headers: {} };
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

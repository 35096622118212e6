import pino from 'pino';
import { logCapture } from './log-capture';

/** Structured logs (JSON lines). Children carry request ids and job ids. */
export type Logger = pino.Logger;

/**
 * Error fields that may be logged: what identifies a fault, never what it was about. A
 * TypeORM `QueryFailedError` carries the bound `parameters` (password hashes, key secret
 * hashes, tokens' hashes) and PostgreSQL's `detail` repeats the offending row ("Failing row
 * contains (...)", "Key (email)=(...)"); mail and HTTP client errors carry commands and
 * responses. So errors are serialized from this allowlist, not copied whole.
 */
const SAFE_ERROR_FIELDS = ['code', 'status', 'statusCode', 'severity', 'schema', 'table', 'column', 'constraint', 'routine', 'errno', 'syscall', 'query'] as const;

/** Nested errors worth following (TypeORM's `driverError`, `cause`, AggregateError's `errors`), this deep. */
const MAX_ERROR_DEPTH = 3;

/**
 * Serializes an error for the logs: type, message, stack and the allowlisted fields, with its
 * driver error and cause serialized the same way. Anything else the error carries is dropped.
 */
export function serializeError(err: unknown, depth = 0): unknown {
  if (err === null || err === undefined || typeof err !== 'object') return err;
  const e = err as Record<string, unknown> & { message?: unknown; stack?: unknown };
  const out: Record<string, unknown> = {
    type: (err as object).constructor?.name ?? 'Object',
    message: typeof e.message === 'string' ? e.message : undefined,
    stack: typeof e.stack === 'string' ? e.stack : undefined,
  };
  for (const k of SAFE_ERROR_FIELDS) {
    const v = e[k];
    if (typeof v === 'string' || typeof v === 'number') out[k] = v;
  }
  if (depth < MAX_ERROR_DEPTH) {
    if (e.driverError && e.driverError !== err) out.driverError = serializeError(e.driverError, depth + 1);
    if (e.cause && e.cause !== err) out.cause = serializeError(e.cause, depth + 1);
    if (Array.isArray(e.errors)) out.errors = e.errors.slice(0, 10).map((x) => serializeError(x, depth + 1));
  }
  return out;
}

/**
 * A pino logger whose `err` and `error` fields (the latter is Temporal's) go through
 * {@link serializeError}. `destination` is for tests that read what was logged. Warn and error entries are also
 * copied, as written, to the process's {@link logCapture} (the admins' service logs), which never blocks logging.
 */
export function createLogger(level: string, name = 'mlsvc', destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = { name, level, base: { pid: process.pid }, serializers: { err: serializeError, error: serializeError } };
  // pino's own default destination: standard output through an asynchronous SonicBoom, flushed at exit.
  const main = destination ?? pino.destination({ dest: process.stdout.fd ?? 1, sync: false });
  return pino(
    options,
    pino.multistream([
      { level: 'trace', stream: main },
      { level: 'warn', stream: logCapture },
    ]),
  );
}

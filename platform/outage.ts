/**
 * Faults of the infrastructure rather than of the work: the database or another service unreachable, a connection
 * cut, a server shutting down. Retrying after it returns fixes them; the data and the request were fine.
 */

/** Socket-level codes of a peer that is down or went away. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED']);

/** PostgreSQL SQLSTATEs of the same kind: connection exceptions (class 08), shutdowns and start-ups (57P01-57P03), too many connections. */
function isPostgresOutageCode(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/** node-postgres and pg-pool say "connection gone" in words, without a code. */
const OUTAGE_MESSAGES = [/Connection terminated/i, /timeout exceeded when trying to connect/i, /Client has encountered a connection error/i, /not queryable/i];

/** Whether `err` (or the driver error or cause it wraps) is an infrastructure outage. */
export function isInfrastructureOutage(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || isPostgresOutageCode(e.code))) return true;
  if (typeof e.message === 'string' && OUTAGE_MESSAGES.some((r) => r.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isInfrastructureOutage(x, depth + 1))) return true; // AggregateError of every address tried
  return isInfrastructureOutage(e.driverError, depth + 1) || isInfrastructureOutage(e.cause, depth + 1);
}

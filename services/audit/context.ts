import { AsyncLocalStorage } from 'node:async_hooks';

/** Who made a mutating request, from where, and through which route: what every audit entry of it carries. */
export interface AuditActor {
  userId: string | null;
  keyPrefix: string | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string;
  /** Method and path template: `PUT /api/projects/:project_id`. */
  route: string;
  /** The project the request names in its path, if any (for entries whose entity has no project column). */
  projectId: string | null;
  /** The request's path parameters: which row a QueryBuilder update or delete of the named resource touched. */
  pathParams: Record<string, string>;
}

/** The audit state of one request: who, and whether its handler is still running and what it wrote. */
export interface AuditScope {
  actor: AuditActor;
  /** False once the handler has answered: a timer the request started is not the request. */
  open: boolean;
  /** Entity entries written so far (a request with none gets one request-level entry). */
  entries: number;
  /** By table: the row a QueryBuilder update or delete is about to change, read before it (see the subscriber). */
  pending: Map<string, { id: string; row: Record<string, unknown> | null }>;
}

const storage = new AsyncLocalStorage<AuditScope>();

/** Runs a mutating request's handler with its audit scope; entity changes made inside are attributed to `actor`. */
export async function runAudited<T>(actor: AuditActor, fn: (scope: AuditScope) => Promise<T>): Promise<T> {
  const scope: AuditScope = { actor, open: true, entries: 0, pending: new Map() };
  try {
    return await storage.run(scope, () => fn(scope));
  } finally {
    scope.open = false;
  }
}

/** The audit scope of the request running now, or undefined outside a mutating request (workers, jobs, timers). */
export function currentAuditScope(): AuditScope | undefined {
  const scope = storage.getStore();
  return scope?.open ? scope : undefined;
}

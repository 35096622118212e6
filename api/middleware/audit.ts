import type { RouterMiddleware } from '@koa/router';
import type { AppContext } from '../context';
import type { RouteDef } from '../route';
import type { AuditLog } from '../../services/audit/log';
import { runAudited, type AuditActor } from '../../services/audit/context';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Mutating operations that change no resource: computations sent as POST because of their bodies. A prediction is
 * recorded in the inference log (when its deployment logs), not the audit log, which would otherwise take one row per
 * scored request on the serving hot path. `test/audit-coverage.test.ts` lists them with the same reason.
 */
export const UNAUDITED_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/models/:model_id/predict',
  'POST /api/models/:model_id/predict/batch',
  'POST /api/mlops/deployments/:deployment_id/predict',
  'POST /api/mlops/ab-tests/:test_id/predict',
]);

/** `POST /api/projects/:project_id/members`: how an entry names the route it came through. */
export function routeKey(def: Pick<RouteDef, 'method' | 'path'>): string {
  return `${def.method.toUpperCase()} ${def.path}`;
}

/** Whether requests to this route get audit entries: every POST, PUT, PATCH and DELETE but the computations above. */
export function isAudited(def: Pick<RouteDef, 'method' | 'path'>): boolean {
  return def.method !== 'get' && !UNAUDITED_ROUTES.has(routeKey(def));
}

/**
 * The resource a request-level entry names: the last path parameter and the segment before it
 * (`/api/mlops/alerts/rules/:rule_id/test` → `rules`, the rule's id), else the path's last segment.
 */
function requestResource(path: string, params: Record<string, string>): { type: string; id: string | null } {
  const segments = path.split('/').filter(Boolean);
  for (let i = segments.length - 1; i > 0; i--) {
    if (segments[i].startsWith(':') && !segments[i - 1].startsWith(':')) return { type: segments[i - 1], id: params[segments[i].slice(1)] ?? null };
  }
  return { type: segments[segments.length - 1] ?? 'api', id: null };
}

/**
 * Runs an audited route's validation and handler inside its audit scope (`services/audit/context.ts`): entity changes
 * made there get entries in their own transactions (`services/audit/subscriber.ts`). A request answered 2xx that
 * changed no entity the subscriber saw (raw SQL, a workflow started, a mail sent) gets one request-level entry.
 */
export function auditRequests(def: RouteDef, audit: AuditLog): RouterMiddleware {
  const key = routeKey(def);
  return async (kctx, next) => {
    const ctx = kctx as unknown as AppContext;
    const params = (kctx.params ?? {}) as Record<string, string>;
    const principal = ctx.state.principal;
    const named = params.project_id;
    const actor: AuditActor = {
      userId: principal?.user.id ?? null,
      keyPrefix: principal?.via === 'api_key' ? (principal.apiKey?.prefix ?? null) : null,
      ip: ctx.ip || null,
      userAgent: ctx.get('user-agent') || null,
      requestId: ctx.state.requestId,
      route: key,
      projectId: named && UUID.test(named) ? named : null,
      pathParams: params,
    };
    const scope = await runAudited(actor, async (s) => {
      await next();
      return s;
    });
    if (scope.entries > 0 || ctx.status < 200 || ctx.status >= 300) return;
    const resource = requestResource(def.path, params);
    await audit.recordRequest(actor, { action: key, resourceType: resource.type, resourceId: resource.id, projectId: actor.projectId, changes: null });
  };
}

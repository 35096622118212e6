import { requireSuperuser } from '../admin-guard';
import { callerId, type RouteDeps } from '../context';
import { presentAuditEntry } from '../presenters/audit';
import { auditEntrySchema } from '../presenters/audit.schema';
import { pageOf } from '../presenters/page.schema';
import { route, RouteDef } from '../route';
import { adminAuditQuery, projectAuditQuery, projectParams } from './admin-audit.schema';

const ENTRIES = 'List envelope of {id, created_at, actor_user_id, actor_key_prefix, action, resource_type, resource_id, project_id, changes, ip, user_agent, request_id, route}, newest first';

/**
 * The audit log (issue 34): every mutation made through the API, written in the change's transaction
 * (services/audit/). Superusers read all of it; a project's owners read their project's entries.
 */
export function adminAuditRoutes({ services }: RouteDeps): RouteDef[] {
  const { audit } = services;
  return [
    route({
      method: 'get',
      path: '/api/admin/audit-log',
      tag: 'admin',
      auth: 'user',
      scope: 'admin',
      summary:
        'Every audit entry (superusers; API keys: admin), newest first: who (user, API key prefix), what (action, resource type and id, project, ' +
        '`changes` as {field: {before, after}} with secrets as `***`), from where (ip, user agent), the request id and route. ' +
        'Filters: actor_user_id, action, resource_type, resource_id, project_id, from, to. Append-only: entries leave only by retention',
      query: adminAuditQuery,
      responses: { 200: { description: ENTRIES, schema: pageOf(auditEntrySchema) }, 403: { description: '`Superuser access required`' } },
      handler: async (ctx, { query }) => {
        requireSuperuser(ctx);
        const page = await audit.list(query);
        return { ...page, items: page.items.map(presentAuditEntry) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:project_id/audit-log',
      tag: 'projects',
      auth: 'user',
      scope: 'admin:projects',
      summary: "The project's audit entries (owners only; API keys: admin:projects), newest first, with the same fields and filters as the admin log but project_id",
      params: projectParams,
      query: projectAuditQuery,
      responses: {
        200: { description: ENTRIES, schema: pageOf(auditEntrySchema) },
        403: { description: 'Not an owner of the project' },
        404: { description: '`Project not found`' },
      },
      handler: async (ctx, { params, query }) => {
        const page = await audit.forProject(callerId(ctx), params.project_id, query);
        return { ...page, items: page.items.map(presentAuditEntry) };
      },
    }),
  ];
}

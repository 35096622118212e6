import { requireSuperuser } from '../admin-guard';
import type { RouteDeps } from '../context';
import { presentSecurityEvent, presentServiceLogEntry } from '../presenters/admin';
import { securityEventSchema, serviceLogEntrySchema } from '../presenters/admin.schema';
import { pageOf } from '../presenters/page.schema';
import { route, RouteDef } from '../route';
import { SECURITY_EVENT_TYPES } from '../../services/admin/security-events';
import { securityEventsQuery, serviceLogsQuery } from './admin-logs.schema';

/** What admins read of the instance's health and security: service logs and security events. Superusers only. */
export function adminLogRoutes({ services }: RouteDeps): RouteDef[] {
  const { logs, securityEvents } = services.admin;
  const tag = 'admin';
  return [
    route({
      method: 'get',
      path: '/api/admin/logs',
      tag,
      auth: 'user',
      scope: 'admin',
      summary:
        "Recent warn, error and fatal entries of every process's structured log (API and workers), newest first: by `level`, text `q` (message and fields), `process`, `from`/`to`. Copied as logged (errors through the logger's allowlist); the oldest go past SERVICE_LOG_MAX_ENTRIES; a full buffer drops entries and logs how many.",
      query: serviceLogsQuery,
      responses: { 200: { description: 'Page of log entries', schema: pageOf(serviceLogEntrySchema) } },
      handler: async (ctx, { query }) => {
        requireSuperuser(ctx);
        const page = await logs.list({ ...query, levels: query.level ?? [] });
        return { ...page, items: page.items.map(presentServiceLogEntry) };
      },
    }),
    route({
      method: 'get',
      path: '/api/admin/security-events',
      tag,
      auth: 'user',
      scope: 'admin',
      summary: `Security events of every account, newest first, with user, IP and user agent; \`type\` (default: ${SECURITY_EVENT_TYPES.join(', ')}), \`user_id\`, email \`q\`, \`ip\`, \`from\`/\`to\``,
      query: securityEventsQuery,
      responses: { 200: { description: 'Page of events', schema: pageOf(securityEventSchema) } },
      handler: async (ctx, { query }) => {
        requireSuperuser(ctx);
        const page = await securityEvents.list({ ...query, types: query.type ?? [] });
        return { ...page, items: page.items.map(presentSecurityEvent) };
      },
    }),
  ];
}

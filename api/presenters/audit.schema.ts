import { z } from 'zod';
import { isoTimestamp } from './common.schema';

/** One changed field: its value before and after (`***` for a secret; a side is absent when it was not known). */
const changeSchema = z.object({ before: z.unknown().optional(), after: z.unknown().optional() }).loose();

/** One entry of the audit log (`GET /api/admin/audit-log`, `GET /api/projects/{id}/audit-log`). */
export const auditEntrySchema = z
  .object({
    id: z.string(),
    created_at: isoTimestamp,
    actor_user_id: z.string().nullable().describe('The user who made the request; null for requests without one (registration, login)'),
    actor_key_prefix: z.string().nullable().describe('The prefix of the API key used; null for a cookie session'),
    action: z.string().describe('`<resource_type>.<create|update|delete|soft_delete>` for an entity change; `METHOD /path/template` for a request that changed no entity directly'),
    resource_type: z.string(),
    resource_id: z.string().nullable(),
    project_id: z.string().nullable(),
    changes: z.record(z.string(), changeSchema).nullable().describe('`{column: {before, after}}`, secrets as `***`; null for a request-level entry'),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    request_id: z.string().nullable().describe("The request's X-Request-Id"),
    route: z.string().nullable().describe('Method and path template of the request'),
  })
  .loose();

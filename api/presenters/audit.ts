import type { AuditEntry } from '../../entities';
import type { auditEntrySchema } from './audit.schema';
import type { Presented } from './common.schema';

/** One audit log entry as the API shows it. */
export function presentAuditEntry(e: AuditEntry): Presented<typeof auditEntrySchema> {
  return {
    id: e.id,
    created_at: e.createdAt.toISOString(),
    actor_user_id: e.actorUserId,
    actor_key_prefix: e.actorKeyPrefix,
    action: e.action,
    resource_type: e.resourceType,
    resource_id: e.resourceId,
    project_id: e.projectId,
    changes: e.changes,
    ip: e.ip,
    user_agent: e.userAgent,
    request_id: e.requestId,
    route: e.route,
  };
}

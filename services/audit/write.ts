import { randomUUID } from 'node:crypto';
import type { AuditChange } from '../../entities';
import type { AuditActor } from './context';

/** What an entry says beyond who made the request. */
export interface AuditRecord {
  action: string;
  resourceType: string;
  resourceId: string | null;
  projectId: string | null;
  changes: Record<string, AuditChange> | null;
}

/** A query on a connection: a transaction's query runner, or the pool. */
export type RunQuery = (sql: string, params: unknown[]) => Promise<unknown>;

/**
 * Appends one entry with plain SQL, so writing it fires no subscriber (the audit log is never audited) and it goes
 * through whichever connection the caller holds (the change's transaction).
 */
export async function writeAuditEntry(query: RunQuery, actor: AuditActor, r: AuditRecord): Promise<void> {
  await query(
    `INSERT INTO audit_log (id, actor_user_id, actor_key_prefix, action, resource_type, resource_id, project_id, changes, ip, user_agent, request_id, route)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      randomUUID(),
      actor.userId,
      actor.keyPrefix,
      r.action,
      r.resourceType,
      r.resourceId,
      r.projectId,
      r.changes === null ? null : JSON.stringify(r.changes),
      actor.ip,
      actor.userAgent,
      actor.requestId,
      actor.route,
    ],
  );
}

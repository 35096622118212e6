import type { DataSource, EntityMetadata, EntitySubscriberInterface, InsertEvent, ObjectLiteral, QueryRunner, RemoveEvent, SoftRemoveEvent, UpdateEvent } from 'typeorm';
import type { AuditChange } from '../../entities';
import { currentAuditScope, type AuditActor } from './context';
import { insertedFields, removedFields, updatedFields } from './changes';
import { writeAuditEntry } from './write';

/**
 * Tables whose rows are not audited one by one: the audit log itself, logs and counters written as a side effect of
 * traffic (their own records of what happened), none of them a resource a user changes.
 */
const UNAUDITED_TABLES: ReadonlySet<string> = new Set(['audit_log', 'account_events', 'rate_limit_windows', 'inference_logs', 'experiment_logs', 'service_log_entries', 'usage_events']);

/** `DatasetVersion` → `dataset_version`: the resource type of an entity. */
export function resourceTypeOf(metadata: EntityMetadata): string {
  return metadata.targetName.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** The row's primary key as text (`a:b` for a composite one), or null when the event does not carry it. */
function resourceIdOf(metadata: EntityMetadata, ...candidates: (ObjectLiteral | undefined)[]): string | null {
  for (const row of candidates) {
    if (!row) continue;
    const parts = metadata.primaryColumns.map((c) => c.getEntityValue(row) as unknown);
    if (parts.length && parts.every((p) => p !== undefined && p !== null)) return parts.map(String).join(':');
  }
  return null;
}

/**
 * The id the request's path gives a row of this table: a parameter `<x>_id` where the resource type is `x` or ends
 * in `_x` (`rule_id` for `alert_rule`), for tables keyed by one `id` column.
 */
function pathIdFor(metadata: EntityMetadata, params: Record<string, string>): string | null {
  if (metadata.primaryColumns.length !== 1 || metadata.primaryColumns[0].propertyName !== 'id') return null;
  const type = resourceTypeOf(metadata);
  for (const [name, value] of Object.entries(params)) {
    if (!name.endsWith('_id')) continue;
    const x = name.slice(0, -3);
    if ((type === x || type.endsWith(`_${x}`)) && /^[0-9a-f-]{36}$/i.test(value)) return value;
  }
  return null;
}

/** The project a row belongs to: its `projectId` column, itself when it is a project, else the request's. */
function projectIdOf(metadata: EntityMetadata, actor: AuditActor, ...candidates: (ObjectLiteral | undefined)[]): string | null {
  const column = metadata.findColumnWithPropertyName('projectId');
  for (const row of candidates) {
    if (!row) continue;
    if (metadata.tableName === 'projects' && typeof row.id === 'string') return row.id;
    const value = column?.getEntityValue(row) as unknown;
    if (typeof value === 'string') return value;
  }
  return actor.projectId;
}

/**
 * Writes one audit entry per entity change made inside a mutating API request, through the event's query runner: in
 * the same transaction as the change, so a rolled-back change leaves no entry and a committed one always has its
 * entry. Changes outside a request (workers, jobs, timers a request left behind) are not the request's and are
 * not attributed to anyone: the audit log records what users did through the API.
 */
export class AuditSubscriber implements EntitySubscriberInterface {
  /** A QueryBuilder update (`repo.update(criteria, values)`) carries neither the row nor its id: read them first. */
  async beforeUpdate(event: UpdateEvent<ObjectLiteral>): Promise<void> {
    if (!event.databaseEntity) await this.readTargetRow(event.queryRunner, event.metadata);
  }

  /** Likewise a QueryBuilder delete (`repo.delete(criteria)`). */
  async beforeRemove(event: RemoveEvent<ObjectLiteral>): Promise<void> {
    if (!event.entity && !event.databaseEntity) await this.readTargetRow(event.queryRunner, event.metadata);
  }

  /**
   * The row a QueryBuilder update or delete is about to change, when the request's path names one of this type
   * (`PUT /api/projects/:project_id` updating `projects`): its id and current values, so the entry says which row and
   * what it held. The builder's WHERE is not visible to subscribers; a path id that names no row of the table is
   * not claimed, and the entry then names the resource type only.
   */
  private async readTargetRow(qr: QueryRunner, metadata: EntityMetadata): Promise<void> {
    const scope = currentAuditScope();
    if (!scope || UNAUDITED_TABLES.has(metadata.tableName)) return;
    scope.pending.delete(metadata.tableName);
    const id = pathIdFor(metadata, scope.actor.pathParams);
    if (!id) return;
    const row = (await qr.manager.getRepository(metadata.target).findOneBy({ id })) as Record<string, unknown> | null;
    if (row) scope.pending.set(metadata.tableName, { id, row });
  }

  async afterInsert(event: InsertEvent<ObjectLiteral>): Promise<void> {
    const { metadata, entity } = event;
    await this.record(event.queryRunner, metadata, 'create', entity ? resourceIdOf(metadata, entity) : null, entity ? insertedFields(metadata, entity) : null, entity);
  }

  async afterUpdate(event: UpdateEvent<ObjectLiteral>): Promise<void> {
    const { metadata } = event;
    const entity = event.entity as ObjectLiteral | undefined;
    if (!event.databaseEntity) {
      const target = this.takePending(metadata);
      if (target) {
        const changes = updatedFields(metadata, entity, target.row, entity ? metadata.columns.filter((c) => c.getEntityValue(entity) !== undefined) : []);
        await this.record(event.queryRunner, metadata, 'update', target.id, changes, target.row);
        return;
      }
    }
    const changes = updatedFields(metadata, entity, event.databaseEntity, event.updatedColumns);
    // A save() that changed nothing is no change.
    if (event.databaseEntity && !Object.keys(changes).length) return;
    await this.record(event.queryRunner, metadata, 'update', resourceIdOf(metadata, event.databaseEntity, entity), changes, event.databaseEntity, entity);
  }

  async afterRemove(event: RemoveEvent<ObjectLiteral>): Promise<void> {
    await this.removed(event, 'delete');
  }

  async afterSoftRemove(event: SoftRemoveEvent<ObjectLiteral>): Promise<void> {
    await this.removed(event, 'soft_delete');
  }

  /** A removed row: what it held before (a QueryBuilder delete carries no row: the entry names the type only). */
  private async removed(event: RemoveEvent<ObjectLiteral> | SoftRemoveEvent<ObjectLiteral>, verb: string): Promise<void> {
    const { metadata } = event;
    const target = !event.entity && !event.databaseEntity ? this.takePending(metadata) : undefined;
    if (target) {
      await this.record(event.queryRunner, metadata, verb, target.id, removedFields(metadata, target.row), target.row);
      return;
    }
    const row = event.databaseEntity ?? event.entity;
    const id = resourceIdOf(metadata, event.databaseEntity, event.entity, event.entityId && typeof event.entityId === 'object' ? (event.entityId as ObjectLiteral) : undefined);
    const resourceId = id ?? (typeof event.entityId === 'string' ? event.entityId : null);
    await this.record(event.queryRunner, metadata, verb, resourceId, row ? removedFields(metadata, row) : null, event.databaseEntity, event.entity);
  }

  /** The row `readTargetRow` found for this table in this request, once. */
  private takePending(metadata: EntityMetadata): { id: string; row: ObjectLiteral } | undefined {
    const scope = currentAuditScope();
    const target = scope?.pending.get(metadata.tableName);
    scope?.pending.delete(metadata.tableName);
    return target?.row ? { id: target.id, row: target.row } : undefined;
  }

  private async record(
    qr: QueryRunner,
    metadata: EntityMetadata,
    verb: string,
    resourceId: string | null,
    changes: Record<string, AuditChange> | null,
    ...rows: (ObjectLiteral | undefined)[]
  ): Promise<void> {
    const scope = currentAuditScope();
    if (!scope || UNAUDITED_TABLES.has(metadata.tableName)) return;
    const resourceType = resourceTypeOf(metadata);
    const projectId = projectIdOf(metadata, scope.actor, ...rows);
    await writeAuditEntry((sql, params) => qr.query(sql, params), scope.actor, { action: `${resourceType}.${verb}`, resourceType, resourceId, projectId, changes });
    scope.entries++;
  }
}

/**
 * Registers the audit subscriber on the API's data source, once (`createApp` calls it). A data source not yet
 * connected builds its subscribers from its options when it connects, so it gets the class there.
 */
export function installAuditSubscriber(ds: DataSource): void {
  if (!ds.isInitialized) {
    const listed = Array.isArray(ds.options.subscribers) ? ds.options.subscribers : [];
    if (!listed.includes(AuditSubscriber)) Object.assign(ds.options, { subscribers: [...listed, AuditSubscriber] });
    return;
  }
  if (!ds.subscribers.some((s) => s instanceof AuditSubscriber)) ds.subscribers.push(new AuditSubscriber());
}

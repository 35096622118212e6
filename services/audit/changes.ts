import type { EntityMetadata, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { AuditChange } from '../../entities';
import { MASK, isSecretField, maskSecrets } from './secrets';

/** Longest JSON text kept for one value; a longer one (a dataset's 2,000 column schemas) is summarised. */
const MAX_VALUE_CHARS = 2000;

/** A column's value as the audit log keeps it: masked when the column is secret, summarised when large. */
function auditValue(column: ColumnMetadata, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (isSecretField(column.propertyName) || isSecretField(column.databaseName)) return MASK;
  const masked = maskSecrets(value);
  const text = JSON.stringify(masked);
  return text !== undefined && text.length > MAX_VALUE_CHARS ? `<${text.length} characters>` : masked;
}

/** Whether two stored values are the same (Dates by time, JSON documents by content). */
function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/** Every set column of a new row, as `{column: {after}}`. */
export function insertedFields(metadata: EntityMetadata, entity: ObjectLiteral): Record<string, AuditChange> {
  const out: Record<string, AuditChange> = {};
  for (const c of metadata.columns) {
    const value = c.getEntityValue(entity);
    if (value !== undefined) out[c.databaseName] = { after: auditValue(c, value) };
  }
  return out;
}

/** Every column of a removed row, as `{column: {before}}`. */
export function removedFields(metadata: EntityMetadata, entity: ObjectLiteral): Record<string, AuditChange> {
  const out: Record<string, AuditChange> = {};
  for (const c of metadata.columns) {
    const value = c.getEntityValue(entity);
    if (value !== undefined) out[c.databaseName] = { before: auditValue(c, value) };
  }
  return out;
}

/**
 * The changed columns of an update: from `save()`, the columns TypeORM found different between the loaded row and
 * the entity (before and after); from a QueryBuilder or `update()`, the values it set (after only: the old row was
 * never read).
 */
export function updatedFields(metadata: EntityMetadata, entity: ObjectLiteral | undefined, databaseEntity: ObjectLiteral | undefined, updatedColumns: ColumnMetadata[]): Record<string, AuditChange> {
  const out: Record<string, AuditChange> = {};
  if (entity && databaseEntity && updatedColumns.length) {
    for (const c of updatedColumns) {
      const before = c.getEntityValue(databaseEntity);
      const after = c.getEntityValue(entity);
      if (!same(before, after)) out[c.databaseName] = { before: auditValue(c, before), after: auditValue(c, after) };
    }
    return out;
  }
  if (!entity) return out;
  for (const c of metadata.columns) {
    const value = c.getEntityValue(entity);
    if (value !== undefined) out[c.databaseName] = { after: auditValue(c, value) };
  }
  return out;
}

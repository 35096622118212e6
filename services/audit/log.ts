import type { DataSource } from 'typeorm';
import { AuditEntry } from '../../entities';
import type { Access } from '../access';
import type { Page } from '../lists';
import type { AuditActor } from './context';
import { writeAuditEntry, type AuditRecord } from './write';

/** Filters of an audit log query; every one optional, all of them together. */
export interface AuditFilter {
  actor_user_id?: string;
  action?: string;
  resource_type?: string;
  resource_id?: string;
  project_id?: string;
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

/** The audit log's queries (newest first) and its request-level entries. */
export class AuditLog {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
  ) {}

  /** Every entry matching the filter: for superusers (the caller checks). */
  async list(filter: AuditFilter): Promise<Page<AuditEntry>> {
    const q = this.ds.getRepository(AuditEntry).createQueryBuilder('a');
    if (filter.actor_user_id) q.andWhere('a.actor_user_id = :actor', { actor: filter.actor_user_id });
    if (filter.action) q.andWhere('a.action = :action', { action: filter.action });
    if (filter.resource_type) q.andWhere('a.resource_type = :rtype', { rtype: filter.resource_type });
    if (filter.resource_id) q.andWhere('a.resource_id = :rid', { rid: filter.resource_id });
    if (filter.project_id) q.andWhere('a.project_id = :pid', { pid: filter.project_id });
    if (filter.from) q.andWhere('a.created_at >= :from', { from: filter.from });
    if (filter.to) q.andWhere('a.created_at < :to', { to: filter.to });
    const [items, total] = await q.orderBy('a.created_at', 'DESC').addOrderBy('a.id', 'DESC').skip(filter.offset).take(filter.limit).getManyAndCount();
    return { items, total, limit: filter.limit, offset: filter.offset };
  }

  /** One project's entries, for its owners only (404 for non-members, 403 below owner). */
  async forProject(userId: string, projectId: string, filter: Omit<AuditFilter, 'project_id'>): Promise<Page<AuditEntry>> {
    await this.access.project(userId, projectId, 'owner');
    return this.list({ ...filter, project_id: projectId });
  }

  /** The entry of a mutating request that changed no entity the subscriber saw (after its answer, on its own). */
  async recordRequest(actor: AuditActor, r: AuditRecord): Promise<void> {
    await writeAuditEntry((sql, params) => this.ds.query(sql, params), actor, r);
  }
}

import type { DataSource } from 'typeorm';
import { AlertRule, AlertSuppression, Deployment, type SuppressionMatchers, type SuppressionRecurrence } from '../../entities';
import type { Access } from '../access';
import { NotFoundError, ValidationError } from '../errors';
import type { Page, PageQuery } from '../lists';
import { suppressionState, type SuppressionState } from './suppressions';

export interface SuppressionFields {
  comment?: string;
  matchers?: SuppressionMatchers;
  starts_at?: Date;
  ends_at?: Date | null;
  recurrence?: SuppressionRecurrence | null;
}

/**
 * Silences of a project (CRUD; their state is computed, services/alerts/suppressions.ts). The request schema checks
 * each field; this checks what needs the rows: the matched rule and deployment belong to the project, and the end
 * comes after the start on the suppression as it will be.
 */
export class SuppressionService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
  ) {}

  async create(userId: string, projectId: string, p: SuppressionFields & { matchers: SuppressionMatchers }): Promise<AlertSuppression> {
    await this.access.project(userId, projectId, 'editor');
    const row = this.ds.getRepository(AlertSuppression).create({
      projectId,
      comment: p.comment ?? '',
      matchers: p.matchers,
      startsAt: p.starts_at ?? new Date(),
      endsAt: p.ends_at ?? null,
      recurrence: p.recurrence ?? null,
      createdBy: userId,
    });
    await this.check(row);
    return this.ds.getRepository(AlertSuppression).save(row);
  }

  /** Newest first; with `state`, only those in it now. */
  async list(userId: string, projectId: string, q: PageQuery & { state?: SuppressionState }, now = new Date()): Promise<Page<AlertSuppression>> {
    await this.access.project(userId, projectId);
    const qb = this.ds.getRepository(AlertSuppression).createQueryBuilder('s').where('s.project_id = :projectId', { projectId }).orderBy('s.created_at', 'DESC').addOrderBy('s.id', 'DESC');
    if (!q.state) {
      const [items, total] = await qb.skip(q.offset).take(q.limit).getManyAndCount();
      return { items, total, limit: q.limit, offset: q.offset };
    }
    // Expiry is a column comparison; pending and active need the recurrence, so those are told apart here.
    if (q.state === 'expired') qb.andWhere('s.ends_at IS NOT NULL AND s.ends_at <= :now', { now });
    else qb.andWhere('(s.ends_at IS NULL OR s.ends_at > :now)', { now });
    const all = (await qb.getMany()).filter((s) => suppressionState(s, now) === q.state);
    return { items: all.slice(q.offset, q.offset + q.limit), total: all.length, limit: q.limit, offset: q.offset };
  }

  get(userId: string, id: string): Promise<AlertSuppression> {
    return this.access.alertSuppression(userId, id);
  }

  async update(userId: string, id: string, p: SuppressionFields): Promise<AlertSuppression> {
    const row = await this.access.alertSuppression(userId, id, 'editor');
    if (p.comment !== undefined) row.comment = p.comment;
    if (p.matchers !== undefined) row.matchers = p.matchers;
    if (p.starts_at !== undefined) row.startsAt = p.starts_at;
    if (p.ends_at !== undefined) row.endsAt = p.ends_at;
    if (p.recurrence !== undefined) row.recurrence = p.recurrence;
    await this.check(row);
    return this.ds.getRepository(AlertSuppression).save(row);
  }

  async remove(userId: string, id: string): Promise<void> {
    const row = await this.access.alertSuppression(userId, id, 'editor');
    await this.ds.getRepository(AlertSuppression).delete({ id: row.id });
  }

  private async check(s: AlertSuppression): Promise<void> {
    if (s.endsAt && s.endsAt.getTime() <= s.startsAt.getTime()) throw ValidationError.field(['body', 'ends_at'], 'ends_at must be after starts_at');
    const m = s.matchers;
    if (m.rule_id && !(await this.ds.getRepository(AlertRule).existsBy({ id: m.rule_id, projectId: s.projectId }))) throw new NotFoundError('Alert rule not found');
    if (m.deployment_id && !(await this.ds.getRepository(Deployment).existsBy({ id: m.deployment_id, projectId: s.projectId }))) throw new NotFoundError('Deployment not found');
  }
}

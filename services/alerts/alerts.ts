import type { DataSource, EntityManager } from 'typeorm';
import { Alert, AlertEvent, AlertRule, type AlertEventKind, type AlertSeverity, type AlertState, type JsonMap } from '../../entities';
import type { Access } from '../access';
import { ConflictError, NotFoundError } from '../errors';
import type { Page, PageQuery } from '../lists';

export interface AlertFilter {
  state?: AlertState;
  severity?: AlertSeverity;
  deployment_id?: string;
  rule_id?: string;
}

export interface HistoryFilter {
  alert_id?: string;
  rule_id?: string;
  event?: AlertEventKind;
}

/** An alert with its rule's name (null once the rule is gone). */
export interface NamedAlert {
  alert: Alert;
  ruleName: string | null;
}

/**
 * Alerts as people see and handle them: the evaluator writes them (activities/alerts-evaluate/); here they are
 * listed, acknowledged and resolved by hand, each change with its history row in the same transaction.
 */
export class AlertService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
  ) {}

  /** The project's alerts, the most recently seen first. */
  async list(userId: string, projectId: string, q: PageQuery & AlertFilter): Promise<Page<NamedAlert>> {
    await this.access.project(userId, projectId);
    const qb = this.ds.getRepository(Alert).createQueryBuilder('a').where('a.project_id = :projectId', { projectId });
    if (q.state) qb.andWhere('a.state = :state', { state: q.state });
    if (q.severity) qb.andWhere('a.severity = :severity', { severity: q.severity });
    if (q.deployment_id) qb.andWhere('a.deployment_id = :deploymentId', { deploymentId: q.deployment_id });
    if (q.rule_id) qb.andWhere('a.rule_id = :ruleId', { ruleId: q.rule_id });
    const [alerts, total] = await qb.orderBy('a.last_seen_at', 'DESC').addOrderBy('a.id', 'DESC').skip(q.offset).take(q.limit).getManyAndCount();
    return { items: await this.named(this.ds.manager, alerts), total, limit: q.limit, offset: q.offset };
  }

  async get(userId: string, id: string): Promise<NamedAlert> {
    const alert = await this.access.alert(userId, id);
    return (await this.named(this.ds.manager, [alert]))[0];
  }

  /** firing → acknowledged (409 otherwise): people know; it stays open and still resolves when the condition clears. */
  acknowledge(userId: string, id: string, comment?: string): Promise<NamedAlert> {
    return this.change(userId, id, (alert, now) => {
      if (alert.state !== 'firing') throw new ConflictError('Alert is not firing');
      alert.state = 'acknowledged';
      alert.acknowledgedBy = userId;
      alert.acknowledgedAt = now;
      return { event: 'acknowledged', from: 'firing', comment };
    });
  }

  /** firing | acknowledged → resolved by the caller (409 when already resolved). */
  resolve(userId: string, id: string, comment?: string): Promise<NamedAlert> {
    return this.change(userId, id, (alert, now) => {
      if (alert.state === 'resolved') throw new ConflictError('Alert is already resolved');
      const from = alert.state;
      alert.state = 'resolved';
      alert.resolvedBy = userId;
      alert.resolvedAt = now;
      return { event: 'resolved', from, comment };
    });
  }

  /** The project's alert history (or one alert's), newest first. */
  async history(userId: string, projectId: string, q: PageQuery & HistoryFilter): Promise<Page<AlertEvent>> {
    await this.access.project(userId, projectId);
    return this.events(projectId, q);
  }

  async alertHistory(userId: string, alertId: string, q: PageQuery & Omit<HistoryFilter, 'alert_id'>): Promise<Page<AlertEvent>> {
    const alert = await this.access.alert(userId, alertId);
    return this.events(alert.projectId, { ...q, alert_id: alert.id });
  }

  private async events(projectId: string, q: PageQuery & HistoryFilter): Promise<Page<AlertEvent>> {
    const where = { projectId, ...(q.alert_id ? { alertId: q.alert_id } : {}), ...(q.rule_id ? { ruleId: q.rule_id } : {}), ...(q.event ? { event: q.event } : {}) };
    const [items, total] = await this.ds.getRepository(AlertEvent).findAndCount({ where, order: { id: 'DESC' }, skip: q.offset, take: q.limit });
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /** A change by hand: the alert locked against the evaluator, changed, and its history row written, in one transaction. */
  private async change(userId: string, id: string, apply: (alert: Alert, now: Date) => { event: AlertEventKind; from: AlertState; comment?: string }): Promise<NamedAlert> {
    await this.access.alert(userId, id, 'editor');
    return this.ds.transaction(async (em) => {
      const alert = await em.getRepository(Alert).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!alert) throw new NotFoundError('Alert not found');
      const now = new Date();
      const { event, from, comment } = apply(alert, now);
      const saved = await em.getRepository(Alert).save(alert);
      await em.getRepository(AlertEvent).insert({
        alertId: alert.id,
        projectId: alert.projectId,
        ruleId: alert.ruleId,
        event,
        fromState: from,
        toState: alert.state,
        severity: alert.severity,
        value: alert.value,
        actorId: userId,
        detail: (comment ? { comment } : {}) as JsonMap,
        createdAt: now,
      });
      return (await this.named(em, [saved]))[0];
    });
  }

  private async named(em: EntityManager, alerts: Alert[]): Promise<NamedAlert[]> {
    const ruleIds = [...new Set(alerts.map((a) => a.ruleId))];
    const rules = ruleIds.length ? await em.getRepository(AlertRule).createQueryBuilder('r').select(['r.id', 'r.name']).where('r.id IN (:...ids)', { ids: ruleIds }).getMany() : [];
    const names = new Map(rules.map((r) => [r.id, r.name]));
    return alerts.map((alert) => ({ alert, ruleName: names.get(alert.ruleId) ?? null }));
  }
}

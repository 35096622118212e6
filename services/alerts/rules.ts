import type { DataSource, EntityManager } from 'typeorm';
import { AlertChannel, AlertRule, Deployment, type AlertMetric, type AlertOperator, type AlertSeverity, ALERT_SEVERITIES } from '../../entities';
import type { Access } from '../access';
import { NotFoundError, ValidationError } from '../errors';
import type { DatasetVersions } from '../dataset-versions';
import type { Page, PageQuery } from '../lists';
import type { ModelServing } from '../model-serving';
import { testRule, type RuleMetrics, type RuleTestResult } from './rule-test';

export interface RuleFields {
  name: string;
  description: string;
  deployment_id: string | null;
  metric: AlertMetric;
  operator: AlertOperator;
  threshold: number;
  window_minutes: number;
  min_samples: number;
  severity: AlertSeverity;
  channel_ids: string[];
  cooldown_minutes: number;
  escalation_minutes: number | null;
  escalation_severity: 'warning' | 'critical' | null;
  labels: Record<string, string>;
  is_enabled: boolean;
}

/** A create carries the required fields; the route's schema fills in the defaults. */
export type CreateRule = Pick<RuleFields, 'name' | 'metric' | 'operator' | 'threshold'> & Partial<RuleFields>;
export type UpdateRule = Partial<RuleFields>;

export interface RuleFilter {
  metric?: AlertMetric;
  deployment_id?: string;
  is_enabled?: boolean;
}

/** Keeps the project's Temporal Schedule in step with its enabled rules (services/alerts/schedule.ts). */
export type ScheduleSync = (projectId: string) => Promise<void>;

const DEFAULTS = {
  description: '',
  deployment_id: null,
  window_minutes: 60,
  min_samples: 1,
  severity: 'warning',
  channel_ids: [],
  cooldown_minutes: 60,
  escalation_minutes: null,
  escalation_severity: null,
  labels: {},
  is_enabled: true,
} as const;

/**
 * Alert rules of a project. Every write checks what the request schema cannot (the deployment and channels belong to
 * the project; escalation goes with its minutes and above the severity) on the rule as it will be, then lets the
 * schedule follow: a project has an evaluation schedule while it has an enabled rule.
 */
export class AlertRuleService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly syncSchedule: ScheduleSync,
    private readonly measure: { metrics?: RuleMetrics; serving: ModelServing; datasetVersions: DatasetVersions },
  ) {}

  async create(userId: string, projectId: string, p: CreateRule): Promise<AlertRule> {
    await this.access.project(userId, projectId, 'editor');
    const fields: RuleFields = { ...DEFAULTS, ...definedOnly(p) } as RuleFields;
    const rule = await this.ds.transaction(async (em) => {
      await this.checkReferences(em, projectId, fields);
      const repo = em.getRepository(AlertRule);
      return repo.save(repo.create({ projectId, createdBy: userId, ...toColumns(fields) }));
    });
    await this.syncSchedule(projectId);
    return rule;
  }

  async list(userId: string, projectId: string, q: PageQuery & RuleFilter): Promise<Page<AlertRule>> {
    await this.access.project(userId, projectId);
    const where = {
      projectId,
      ...(q.metric ? { metric: q.metric } : {}),
      ...(q.deployment_id ? { deploymentId: q.deployment_id } : {}),
      ...(q.is_enabled === undefined ? {} : { isEnabled: q.is_enabled }),
    };
    const [items, total] = await this.ds.getRepository(AlertRule).findAndCount({ where, order: { createdAt: 'DESC', id: 'DESC' }, skip: q.offset, take: q.limit });
    return { items, total, limit: q.limit, offset: q.offset };
  }

  get(userId: string, id: string): Promise<AlertRule> {
    return this.access.alertRule(userId, id);
  }

  async update(userId: string, id: string, p: UpdateRule): Promise<AlertRule> {
    const found = await this.access.alertRule(userId, id, 'editor');
    const rule = await this.ds.transaction(async (em) => {
      const current = await em.getRepository(AlertRule).findOne({ where: { id: found.id }, lock: { mode: 'pessimistic_write' } });
      if (!current) throw new NotFoundError('Alert rule not found');
      const fields: RuleFields = { ...ruleFields(current), ...definedOnly(p) };
      // Clearing the escalation minutes clears their severity with them (it is refused alone).
      if (p.escalation_minutes === null && p.escalation_severity === undefined) fields.escalation_severity = null;
      await this.checkReferences(em, current.projectId, fields);
      Object.assign(current, toColumns(fields));
      return em.getRepository(AlertRule).save(current);
    });
    await this.syncSchedule(rule.projectId);
    return rule;
  }

  async remove(userId: string, id: string): Promise<void> {
    const rule = await this.access.alertRule(userId, id, 'editor');
    await this.ds.getRepository(AlertRule).delete({ id: rule.id });
    await this.syncSchedule(rule.projectId);
  }

  /** The rule evaluated now against its deployments (what an evaluation would see); nothing is written. */
  async test(userId: string, id: string): Promise<RuleTestResult> {
    const rule = await this.access.alertRule(userId, id);
    return testRule(this.measure.metrics, { ds: this.ds, serving: this.measure.serving, datasetVersions: this.measure.datasetVersions }, rule);
  }

  /** 422 for an inconsistent escalation; 404 for a deployment or channel outside the project. */
  private async checkReferences(em: EntityManager, projectId: string, f: RuleFields): Promise<void> {
    checkEscalation(f);
    if (f.deployment_id && !(await em.getRepository(Deployment).existsBy({ id: f.deployment_id, projectId }))) throw new NotFoundError('Deployment not found');
    f.channel_ids = [...new Set(f.channel_ids)];
    if (f.channel_ids.length) {
      const found = await em.getRepository(AlertChannel).createQueryBuilder('c').where('c.id IN (:...ids)', { ids: f.channel_ids }).andWhere('c.project_id = :projectId', { projectId }).getCount();
      if (found !== f.channel_ids.length) throw new NotFoundError('Channel not found');
    }
  }
}

/** Escalation needs both fields, and raises the severity. */
export function checkEscalation(f: Pick<RuleFields, 'severity' | 'escalation_minutes' | 'escalation_severity'>): void {
  if (f.escalation_minutes !== null && f.escalation_severity === null)
    throw ValidationError.field(['body', 'escalation_severity'], 'escalation_severity is required with escalation_minutes', 'missing');
  if (f.escalation_minutes === null && f.escalation_severity !== null)
    throw ValidationError.field(['body', 'escalation_minutes'], 'escalation_minutes is required with escalation_severity', 'missing');
  if (f.escalation_severity !== null && ALERT_SEVERITIES.indexOf(f.escalation_severity) <= ALERT_SEVERITIES.indexOf(f.severity)) {
    throw ValidationError.field(['body', 'escalation_severity'], `escalation_severity must be above the rule's severity (${f.severity})`);
  }
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function toColumns(f: RuleFields): Partial<AlertRule> {
  return {
    name: f.name,
    description: f.description,
    deploymentId: f.deployment_id,
    metric: f.metric,
    operator: f.operator,
    threshold: f.threshold,
    windowMinutes: f.window_minutes,
    minSamples: f.min_samples,
    severity: f.severity,
    channelIds: f.channel_ids,
    cooldownMinutes: f.cooldown_minutes,
    escalationMinutes: f.escalation_minutes,
    escalationSeverity: f.escalation_severity,
    labels: f.labels,
    isEnabled: f.is_enabled,
  };
}

/** A rule's settable fields as the API names them (what a PATCH merges into, and what answers show). */
export function ruleFields(r: AlertRule): RuleFields {
  return {
    name: r.name,
    description: r.description,
    deployment_id: r.deploymentId,
    metric: r.metric,
    operator: r.operator,
    threshold: r.threshold,
    window_minutes: r.windowMinutes,
    min_samples: r.minSamples,
    severity: r.severity,
    channel_ids: r.channelIds,
    cooldown_minutes: r.cooldownMinutes,
    escalation_minutes: r.escalationMinutes,
    escalation_severity: r.escalationSeverity,
    labels: r.labels,
    is_enabled: r.isEnabled,
  };
}

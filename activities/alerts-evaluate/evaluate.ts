import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { IsNull, MoreThan } from 'typeorm';
import { Alert, AlertChannel, type AlertEventKind, AlertNotification, AlertRule, type AlertState, AlertSuppression, type Deployment, type NotificationReason, Project } from '../../entities';
import type { Logger } from '../../platform/logger';
import { recordAlertEvent } from '../../services/alerts/history';
import { findSilence } from '../../services/alerts/suppressions';
import { alertMessage } from './message';
import { type Measurement, MeasureCycle, measureRule, type MetricSources, watchedDeployments, wouldFire } from './metrics';

/**
 * One evaluation of a project's rules: each rule measured, then its alerts moved in ONE transaction per rule (the
 * alert row locked, so two overlapping evaluations cannot both notify), with the history rows and the notifications
 * owed (the outbox) written in the same transaction. What is returned is what the workflow delivers.
 *
 * The state machine, per rule and label set (the fingerprint), as Alertmanager keeps alerts:
 * - the condition holds (with at least `min_samples` observations): a new alert fires; a resolved one fires again
 *   (a new turn: first seen now, severity back to the rule's); a firing or acknowledged one is seen again, and
 *   escalates once it has been open `escalation_minutes` (severity → `escalation_severity`, notified again);
 * - the condition clears (with enough observations): an open alert resolves by itself;
 * - too few observations: nothing changes (no data neither fires nor resolves).
 * Notifications: a turn's firing notifies the rule's channels unless the alert notified within `cooldown_minutes`
 * (a flapping rule; the state change is still recorded); escalation always notifies; a resolution notifies those
 * told of the turn's firing. An active suppression matching the alert keeps every state change but notifies nobody:
 * the alert is marked `silenced` and its history says so.
 */

export interface EvaluationDeps extends MetricSources {
  log: Logger;
  appBaseUrl: string;
}

export interface EvaluationResult {
  /** Notifications owed by this evaluation (pending outbox rows). */
  notificationIds: string[];
  rules: number;
}

/** The alert's identity: the rule, the deployment and the rule's labels (sorted), as Alertmanager fingerprints. */
export function alertFingerprint(ruleId: string, deploymentId: string | null, labels: Record<string, string>): string {
  const sorted = Object.keys(labels)
    .sort()
    .map((k) => [k, labels[k]]);
  return createHash('sha256')
    .update(JSON.stringify([ruleId, deploymentId ?? '', sorted]))
    .digest('hex');
}

export async function evaluateProject(deps: EvaluationDeps, projectId: string, now: Date): Promise<EvaluationResult> {
  const { ds } = deps;
  const rules = await ds.getRepository(AlertRule).find({ where: { projectId, isEnabled: true }, order: { createdAt: 'ASC' } });
  if (!rules.length) return { notificationIds: [], rules: 0 };
  const project = await ds.getRepository(Project).findOneBy({ id: projectId });
  if (!project) return { notificationIds: [], rules: 0 };
  const deployments = await watchedDeployments(ds, projectId);
  const cycle = new MeasureCycle();
  // Measured first, a few at once (the reads are shared within the cycle and bound by the database pool), then each
  // rule's alerts moved in its own transaction.
  const measured = await mapLimit(rules, MEASURE_CONCURRENCY, async (rule) => {
    try {
      return await measureRule(deps, rule, deployments, now, cycle);
    } catch (err) {
      // One rule that cannot be measured (its model's files gone) must not hold the project's other rules.
      deps.log.warn({ err, ruleId: rule.id }, 'alert rule not measured');
      return null;
    }
  });
  const owed: string[] = [];
  for (const [i, rule] of rules.entries()) {
    const m = measured[i];
    if (m) owed.push(...(await ds.transaction((em) => applyRule(em, deps, { rule, project, deployments, now }, m))));
  }
  return { notificationIds: owed, rules: rules.length };
}

/** Rules measured at once: the queries of different windows and metrics run side by side. */
const MEASURE_CONCURRENCY = 4;

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

interface RuleContext {
  rule: AlertRule;
  project: Project;
  deployments: Deployment[];
  now: Date;
}

/** One rule's measurements applied to its alerts; returns the ids of the notifications owed. */
async function applyRule(em: EntityManager, deps: EvaluationDeps, ctx: RuleContext, measured: Measurement[]): Promise<string[]> {
  const { rule, now } = ctx;
  // Re-read under the transaction: a rule disabled or deleted since it was measured is left alone.
  const current = await em.getRepository(AlertRule).findOne({ where: { id: rule.id }, lock: { mode: 'pessimistic_write' } });
  if (!current?.isEnabled) return [];
  const suppressions = await em.getRepository(AlertSuppression).find({
    where: [
      { projectId: rule.projectId, endsAt: IsNull() },
      { projectId: rule.projectId, endsAt: MoreThan(now) },
    ],
  });
  const channels = await em.getRepository(AlertChannel).find({ where: { projectId: rule.projectId, isEnabled: true } });
  const targets = channels.filter((c) => current.channelIds.includes(c.id));
  const owed: string[] = [];
  const seen = new Set<string>();
  for (const m of measured) {
    const fingerprint = alertFingerprint(current.id, m.deploymentId, current.labels);
    seen.add(fingerprint);
    const change = await applyMeasurement(em, { ...ctx, rule: current }, m, fingerprint, suppressions);
    if (change) owed.push(...(await owe(em, deps, { ...ctx, rule: current }, change, targets)));
  }
  // Alerts of deployments the rule no longer watches (archived, or the rule re-scoped) are resolved: nothing reports them.
  const orphans = await em
    .getRepository(Alert)
    .createQueryBuilder('a')
    .setLock('pessimistic_write')
    .where('a.rule_id = :ruleId AND a.state IN (:...open)', { ruleId: current.id, open: ['firing', 'acknowledged'] })
    .getMany();
  for (const alert of orphans.filter((a) => !seen.has(a.fingerprint))) {
    const change = await resolve(em, alert, current, now, suppressions, { reason: 'no longer measured' });
    owed.push(...(await owe(em, deps, { ...ctx, rule: current }, change, targets)));
  }
  await em.getRepository(AlertRule).update({ id: current.id }, { lastEvaluatedAt: now });
  return owed;
}

/** A change of an alert that may owe notifications. */
interface Change {
  alert: Alert;
  /** null: nobody is told (cooldown, silence, a turn nobody was told of). */
  reason: NotificationReason | null;
}

async function lockAlert(em: EntityManager, fingerprint: string): Promise<Alert | null> {
  return em.getRepository(Alert).findOne({ where: { fingerprint }, lock: { mode: 'pessimistic_write' } });
}

async function applyMeasurement(em: EntityManager, ctx: RuleContext, m: Measurement, fingerprint: string, suppressions: AlertSuppression[]): Promise<Change | null> {
  const { rule, now } = ctx;
  if (!m.sufficient || m.value === null) return null;
  const fires = wouldFire(rule, m);
  let alert = await lockAlert(em, fingerprint);
  if (!alert && !fires) return null;
  const observed = { value: m.value, samples: m.samples, estimated: m.estimated, labels: { ...rule.labels, ...m.labels }, lastSeenAt: now };
  if (!alert) {
    // A concurrent evaluation may insert it first: then this one waits for its commit and finds it firing.
    const inserted = await em
      .createQueryBuilder()
      .insert()
      .into(Alert)
      .values({
        projectId: rule.projectId,
        ruleId: rule.id,
        deploymentId: m.deploymentId,
        fingerprint,
        metric: rule.metric,
        operator: rule.operator,
        threshold: rule.threshold,
        state: 'firing',
        severity: rule.severity,
        firstSeenAt: now,
        ...observed,
      })
      .orIgnore()
      .returning('id')
      .execute();
    alert = await lockAlert(em, fingerprint);
    if (!alert) return null;
    if (inserted.raw.length) return fire(em, alert, 'fired', null, now, suppressions, rule);
  }
  // A resolved alert keeps what was seen when it resolved until the condition holds again.
  if (alert.state === 'resolved' && !fires) return null;
  Object.assign(alert, observed, { metric: rule.metric, operator: rule.operator, threshold: rule.threshold });
  if (alert.state === 'resolved') {
    const cooling = alert.lastNotifiedAt !== null && now.getTime() - alert.lastNotifiedAt.getTime() < rule.cooldownMinutes * 60_000;
    Object.assign(alert, { state: 'firing', severity: rule.severity, firstSeenAt: now, escalatedAt: null, acknowledgedBy: null, acknowledgedAt: null, resolvedBy: null, resolvedAt: null });
    return fire(em, alert, 'refired', 'resolved', now, suppressions, rule, cooling);
  }
  if (!fires) return resolve(em, alert, rule, now, suppressions, {});
  if (rule.escalationMinutes !== null && rule.escalationSeverity && !alert.escalatedAt && now.getTime() - alert.firstSeenAt.getTime() >= rule.escalationMinutes * 60_000) {
    const from = alert.state;
    Object.assign(alert, { severity: rule.escalationSeverity, escalatedAt: now });
    return fire(em, alert, 'escalated', from, now, suppressions, rule);
  }
  await em.getRepository(Alert).save(alert);
  return null;
}

/** The alert fired (or fired again, or escalated): notified unless silenced or cooling down. */
async function fire(em: EntityManager, alert: Alert, event: AlertEventKind, from: AlertState | null, now: Date, suppressions: AlertSuppression[], rule: AlertRule, cooling = false): Promise<Change> {
  const silence = findSilence(suppressions, silenceTarget(alert), now);
  alert.silenced = Boolean(silence);
  await em.getRepository(Alert).save(alert);
  const notify = !silence && !cooling;
  await history(em, alert, event, from, { owed: notify, ...(cooling ? { cooldown_minutes: rule.cooldownMinutes } : {}) }, now);
  if (silence) await history(em, alert, 'silenced', alert.state, { suppression_id: silence.id, instead_of: event }, now);
  return { alert, reason: notify ? (event === 'escalated' ? 'escalated' : 'firing') : null };
}

/** The condition cleared (or nothing measures the alert any more): resolved, notifying those told of this turn's firing. */
async function resolve(em: EntityManager, alert: Alert, rule: AlertRule, now: Date, suppressions: AlertSuppression[], detail: Record<string, unknown>): Promise<Change> {
  const from = alert.state;
  const toldOfTurn = await turnWasNotified(em, alert);
  Object.assign(alert, { state: 'resolved', resolvedAt: now, resolvedBy: null });
  const silence = findSilence(suppressions, silenceTarget(alert), now);
  alert.silenced = Boolean(silence);
  await em.getRepository(Alert).save(alert);
  const notify = toldOfTurn && !silence;
  await history(em, alert, 'auto_resolved', from, { owed: notify, ...detail }, now);
  if (silence) await history(em, alert, 'silenced', 'resolved', { suppression_id: silence.id, instead_of: 'auto_resolved' }, now);
  return { alert, reason: notify ? 'resolved' : null };
}

/** Whether this turn of firing (since first_seen_at) owed anyone a notification. */
async function turnWasNotified(em: EntityManager, alert: Alert): Promise<boolean> {
  const rows: unknown[] = await em.query(`SELECT 1 FROM alert_events WHERE alert_id = $1 AND created_at >= $2 AND (detail->>'owed') = 'true' LIMIT 1`, [alert.id, alert.firstSeenAt]);
  return rows.length > 0;
}

function silenceTarget(a: Alert) {
  return { rule_id: a.ruleId, deployment_id: a.deploymentId, metric: a.metric, severity: a.severity, labels: a.labels };
}

function history(em: EntityManager, alert: Alert, event: AlertEventKind, from: AlertState | null, detail: Record<string, unknown>, now: Date): Promise<void> {
  return recordAlertEvent(em, alert, event, { from, detail, at: now });
}

/** The outbox rows of a change: one per enabled channel of the rule, each carrying the message as it is now. */
async function owe(em: EntityManager, deps: EvaluationDeps, ctx: RuleContext, change: Change, channels: AlertChannel[]): Promise<string[]> {
  if (!change.reason || !channels.length) return [];
  const deployment = ctx.deployments.find((d) => d.id === change.alert.deploymentId);
  const payload = alertMessage(change.reason, change.alert, ctx.rule, ctx.project, deployment, deps.appBaseUrl);
  const repo = em.getRepository(AlertNotification);
  const rows = await repo.save(
    channels.map((c) =>
      repo.create({
        alertId: change.alert.id,
        channelId: c.id,
        projectId: change.alert.projectId,
        reason: change.reason!,
        payload: payload as unknown as AlertNotification['payload'],
        createdAt: ctx.now,
      }),
    ),
  );
  return rows.map((r) => r.id);
}

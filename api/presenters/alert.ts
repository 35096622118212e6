import type { Alert, AlertChannel, AlertDelivery, AlertEvent, AlertRule, AlertSuppression } from '../../entities';
import { alertFields } from '../../services/alerts/alert-fields';
import { maskedChannelConfig, maskSecret } from '../../services/alerts/channel-config';
import { ruleFields } from '../../services/alerts/rules';
import { suppressionState } from '../../services/alerts/suppressions';
import type { Presented } from './common.schema';
import type { alertChannelSchema, alertDeliverySchema, alertEventSchema, alertRuleSchema, alertSchema, alertSuppressionSchema } from './alert.schema';

/**
 * Alert channels, rules, alerts, their history and suppressions as the API shows them. A channel's credentials
 * never leave here whole: the Slack URL and header values are masked, the secret is a four-character hint.
 */

export function presentAlertChannel(c: AlertChannel): Presented<typeof alertChannelSchema> {
  return {
    id: c.id,
    project_id: c.projectId,
    name: c.name,
    type: c.type,
    config: maskedChannelConfig(c.type, c.config),
    has_secret: c.secret !== null,
    secret_hint: c.secret === null ? null : maskSecret(c.secret),
    is_enabled: c.isEnabled,
    status: c.failing ? 'failing' : c.lastDeliveryAt ? 'healthy' : 'untested',
    consecutive_failures: c.consecutiveFailures,
    last_delivery_at: c.lastDeliveryAt,
    last_error: c.lastError,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}

export function presentAlertDelivery(d: AlertDelivery): Presented<typeof alertDeliverySchema> {
  return { id: String(d.id), notification_id: d.notificationId, attempt: d.attempt, status: d.status, status_code: d.statusCode, latency_ms: d.latencyMs, error: d.error, created_at: d.createdAt };
}

export function presentAlertRule(r: AlertRule): Presented<typeof alertRuleSchema> {
  return { id: r.id, project_id: r.projectId, ...ruleFields(r), created_by: r.createdBy, created_at: r.createdAt, updated_at: r.updatedAt, last_evaluated_at: r.lastEvaluatedAt };
}

/** An alert with its rule's name (null once the rule is gone). */
export function presentAlert(a: Alert, ruleName: string | null): Presented<typeof alertSchema> {
  return alertFields(a, ruleName);
}

export function presentAlertEvent(e: AlertEvent): Presented<typeof alertEventSchema> {
  return {
    id: String(e.id),
    alert_id: e.alertId,
    rule_id: e.ruleId,
    event: e.event,
    from_state: e.fromState,
    to_state: e.toState,
    severity: e.severity,
    value: e.value,
    actor_id: e.actorId,
    detail: e.detail,
    created_at: e.createdAt,
  };
}

/** A suppression with its state now. */
export function presentAlertSuppression(s: AlertSuppression, now = new Date()): Presented<typeof alertSuppressionSchema> {
  return {
    id: s.id,
    project_id: s.projectId,
    comment: s.comment,
    matchers: s.matchers,
    starts_at: s.startsAt,
    ends_at: s.endsAt,
    recurrence: s.recurrence,
    state: suppressionState(s, now),
    created_by: s.createdBy,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

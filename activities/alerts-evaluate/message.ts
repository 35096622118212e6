import type { Alert, AlertRule, Deployment, JsonMap, NotificationReason, Project } from '../../entities';
import { type AlertMessage, alertUrl } from '../../services/alerts/notifier';

/**
 * The alert as a notification carries it: the fields of the API's alert answer (api/presenters/alert.ts, which
 * activities may not import), times as ISO text, taken when the notification was owed so every attempt sends the same.
 */
export function alertSnapshot(a: Alert, ruleName: string): JsonMap {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: a.id,
    project_id: a.projectId,
    rule_id: a.ruleId,
    rule_name: ruleName,
    deployment_id: a.deploymentId,
    fingerprint: a.fingerprint,
    labels: a.labels,
    metric: a.metric,
    operator: a.operator,
    threshold: a.threshold,
    state: a.state,
    severity: a.severity,
    value: a.value,
    estimated: a.estimated,
    samples: a.samples,
    first_seen_at: iso(a.firstSeenAt),
    last_seen_at: iso(a.lastSeenAt),
    last_notified_at: iso(a.lastNotifiedAt),
    notification_count: a.notificationCount,
    escalated_at: iso(a.escalatedAt),
    silenced: a.silenced,
    acknowledged_by: a.acknowledgedBy,
    acknowledged_at: iso(a.acknowledgedAt),
    resolved_by: a.resolvedBy,
    resolved_at: iso(a.resolvedAt),
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  };
}

/** What one notification says (the outbox row's payload). */
export function alertMessage(reason: NotificationReason, a: Alert, rule: AlertRule, project: Pick<Project, 'id' | 'name'>, deployment: Deployment | undefined, appBaseUrl: string): AlertMessage {
  return {
    reason,
    alert: alertSnapshot(a, rule.name),
    rule: { id: rule.id, name: rule.name },
    project: { id: project.id, name: project.name },
    ...(deployment ? { deployment: { id: deployment.id, name: deployment.name } } : {}),
    url: alertUrl(appBaseUrl, a.projectId, a.id),
  };
}

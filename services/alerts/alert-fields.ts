import type { Alert } from '../../entities';

/**
 * An alert's fields as the API shows it and as a notification carries it (one list for both: the alert answer in
 * api/presenters/alert.ts and the payload activities/alerts-evaluate/message.ts stores), with its rule's name (null
 * once the rule is gone).
 */
export function alertFields(a: Alert, ruleName: string | null) {
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
    first_seen_at: a.firstSeenAt,
    last_seen_at: a.lastSeenAt,
    last_notified_at: a.lastNotifiedAt,
    notification_count: a.notificationCount,
    escalated_at: a.escalatedAt,
    silenced: a.silenced,
    acknowledged_by: a.acknowledgedBy,
    acknowledged_at: a.acknowledgedAt,
    resolved_by: a.resolvedBy,
    resolved_at: a.resolvedAt,
    created_at: a.createdAt,
    updated_at: a.updatedAt,
  };
}

import type { Alert, AlertRule, Deployment, JsonMap, NotificationReason, Project } from '../../entities';
import { alertFields } from '../../services/alerts/alert-fields';
import { type AlertMessage, alertUrl } from '../../services/alerts/notifier';

/** The alert as a notification carries it (the API's alert answer, times as ISO text), taken when the notification was owed so every attempt sends the same. */
export function alertSnapshot(a: Alert, ruleName: string): JsonMap {
  return JSON.parse(JSON.stringify(alertFields(a, ruleName))) as JsonMap;
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

import type { EntityManager } from 'typeorm';
import { type Alert, AlertEvent, type AlertEventKind, type AlertState, type JsonMap } from '../../entities';

/**
 * Appends one row to an alert's history (`alert_events`), in the caller's transaction: the alert as it is now (its
 * state, severity and value), where it came from, who did it (null: the evaluator) and the details.
 */
export async function recordAlertEvent(
  em: EntityManager,
  alert: Alert,
  event: AlertEventKind,
  opts: { from: AlertState | null; detail?: Record<string, unknown>; actorId?: string | null; at?: Date },
): Promise<void> {
  await em.getRepository(AlertEvent).insert({
    alertId: alert.id,
    projectId: alert.projectId,
    ruleId: alert.ruleId,
    event,
    fromState: opts.from,
    toState: alert.state,
    severity: alert.severity,
    value: alert.value,
    actorId: opts.actorId ?? null,
    detail: (opts.detail ?? {}) as JsonMap,
    ...(opts.at ? { createdAt: opts.at } : {}),
  });
}

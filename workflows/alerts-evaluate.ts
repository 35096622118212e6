import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ActivityFailure, ApplicationFailure, ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { AlertsEvaluateActivities, DeliveryOutcome } from '../activities/alerts-evaluate';
import { deliveryWorkflowId, NON_RETRYABLE_ERROR_TYPES } from './job-input';

export interface AlertsEvaluateInput {
  projectId: string;
}

/** A notification owed this long ago and still pending was never handed to a delivery (a crash after the commit). */
export const STALE_NOTIFICATION_MS = 2 * 60_000;

/** Delivery retries: 5 s, then doubling up to 5 min between attempts, 8 attempts in all (about 12 minutes). */
export const DELIVERY_RETRY = { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '5m', maximumAttempts: 8 } as const;

export { deliveryWorkflowId };

/**
 * One evaluation cycle of a project's alert rules, started by the project's Temporal Schedule (`alerts-<project>`,
 * services/alerts/schedule.ts) on the io queue. The evaluation writes the alerts and the notifications they owe in
 * its transactions; each notification is then delivered by a workflow of its own, left running when this one ends, so
 * a channel that is down (retried for minutes) never holds the next cycle back (the schedule skips a cycle while the
 * previous one runs). Notifications left pending by a cycle that crashed after its commit are picked up here.
 */
export async function alertsEvaluateWorkflow(input: AlertsEvaluateInput): Promise<{ rules: number; notifications: number }> {
  const acts = proxyActivities<AlertsEvaluateActivities>({
    // A cycle measures in seconds (bench/alerts: 100 rules over 1M log rows in about 2 s); a worker that died in one
    // holds the schedule (overlap SKIP) only this long before the attempt is retried elsewhere.
    startToCloseTimeout: '1m',
    retry: { maximumAttempts: 3, initialInterval: '2s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
  });
  // Workflow time is the time the cycle was scheduled, the same on a replay.
  const now = new Date();
  const evaluated = await acts.evaluateAlerts(input.projectId, now.toISOString());
  const stale = await acts.pendingNotifications(input.projectId, new Date(now.getTime() - STALE_NOTIFICATION_MS).toISOString());
  const ids = [...new Set([...evaluated.notificationIds, ...stale])];
  for (const id of ids) {
    try {
      await startChild(alertDeliveryWorkflow, { workflowId: deliveryWorkflowId(id), args: [{ notificationId: id }], parentClosePolicy: ParentClosePolicy.ABANDON });
    } catch (err) {
      // Still being delivered (a retry in progress): nothing to start.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }
  return { rules: evaluated.rules, notifications: ids.length };
}

/**
 * Delivers one notification with retries and backoff; once they are spent (or the channel is gone) it is given up,
 * recorded `failed` with a `notify_failed` history row.
 */
export async function alertDeliveryWorkflow(input: { notificationId: string }): Promise<DeliveryOutcome> {
  const delivery = proxyActivities<AlertsEvaluateActivities>({
    // deliver() gives up on a receiver after 10 s; the rest is the attempt's bookkeeping. A worker that died in an
    // attempt is noticed after this long, and the retry sends the same Idempotency-Key.
    startToCloseTimeout: '30s',
    // ChannelUnavailable: activities/alerts-evaluate/deliver.ts, a channel deleted or disabled.
    retry: { ...DELIVERY_RETRY, nonRetryableErrorTypes: ['ChannelUnavailable', ...NON_RETRYABLE_ERROR_TYPES] },
  });
  const bookkeeping = proxyActivities<AlertsEvaluateActivities>({ startToCloseTimeout: '1m', retry: { maximumAttempts: 10, initialInterval: '2s' } });
  try {
    return await delivery.deliverNotification(input.notificationId);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    const cause = err.cause instanceof ApplicationFailure ? err.cause.message : err.message;
    await bookkeeping.abandonNotification(input.notificationId, cause || 'Delivery failed');
    return { status: 'failed' };
  }
}

import { ApplicationFailure } from '@temporalio/common';
import type { DataSource, EntityManager } from 'typeorm';
import { Alert, AlertChannel, type AlertEventKind, AlertNotification } from '../../entities';
import { recordAlertEvent } from '../../services/alerts/history';
import type { Mailer } from '../../platform/mail';
import { type AlertMessage, type ChannelMessage, deliverMessage, recordAttempt, renderAlert } from '../../services/alerts/notifier';

/** Thrown when a notification can never be delivered (its channel deleted or disabled): Temporal does not retry it. */
export const CHANNEL_UNAVAILABLE = 'ChannelUnavailable';

export interface DeliveryDeps {
  ds: DataSource;
  mailer: Mailer;
  allowPrivateTargets: boolean;
  failingAfter: number;
}

export type DeliveryOutcome = { status: 'delivered' | 'failed' | 'already_delivered' | 'gone' };

/**
 * One attempt to deliver an owed notification (the outbox row), recorded in `alert_deliveries`. Delivered: the row,
 * and for an alert's notification the alert's count and a `notified` history row, change in one transaction (a
 * registry event's notification, issue 31, carries its rendered message and has no alert to count on). A failed attempt throws, so Temporal
 * retries it with backoff (the same notification id is the receiver's idempotency key on every attempt); a
 * notification already delivered is a no-op, so a run repeated after a crash never notifies twice.
 */
export async function deliverNotification(deps: DeliveryDeps, notificationId: string, attempt: number, now = new Date()): Promise<DeliveryOutcome> {
  const { ds } = deps;
  const n = await ds.getRepository(AlertNotification).findOneBy({ id: notificationId });
  if (!n) return { status: 'gone' };
  if (n.status === 'delivered') return { status: 'already_delivered' };
  if (n.status === 'failed') return { status: 'failed' };
  const channel = await ds.getRepository(AlertChannel).findOneBy({ id: n.channelId });
  if (!channel || !channel.isEnabled) {
    await giveUp(ds, notificationId, channel ? 'The channel is disabled' : 'The channel was deleted');
    throw ApplicationFailure.nonRetryable(channel ? 'The channel is disabled' : 'The channel was deleted', CHANNEL_UNAVAILABLE);
  }
  const message: ChannelMessage = n.alertId ? renderAlert(n.payload as unknown as AlertMessage) : (n.payload as unknown as ChannelMessage);
  const result = await deliverMessage(channel, message, { idempotencyKey: n.id, mailer: deps.mailer, allowPrivateTargets: deps.allowPrivateTargets, now });
  await recordAttempt(ds, channel, n.id, attempt, result, deps.failingAfter);
  if (!result.delivered) {
    await ds.getRepository(AlertNotification).update({ id: n.id, status: 'pending' }, { attempts: attempt });
    throw ApplicationFailure.retryable(result.error ?? 'Delivery failed', 'DeliveryFailed');
  }
  await ds.transaction(async (em) => {
    const done = await em
      .createQueryBuilder()
      .update(AlertNotification)
      .set({ status: 'delivered', deliveredAt: now, attempts: attempt })
      .where('id = :id AND status = :pending', { id: n.id, pending: 'pending' })
      .execute();
    if (!done.affected || !n.alertId) return;
    await em.query(`UPDATE alerts SET notification_count = notification_count + 1, last_notified_at = $2, updated_at = now() WHERE id = $1`, [n.alertId, now]);
    await note(em, n, 'notified', { channel_id: n.channelId, notification_id: n.id, reason: n.reason, attempt });
  });
  return { status: 'delivered' };
}

/** The notification is given up (its retries spent, or its channel gone): `failed`, and the history says so. */
export async function giveUp(ds: DataSource, notificationId: string, error: string): Promise<void> {
  await ds.transaction(async (em) => {
    const n = await em.getRepository(AlertNotification).findOne({ where: { id: notificationId }, lock: { mode: 'pessimistic_write' } });
    if (!n || n.status !== 'pending') return;
    await em.getRepository(AlertNotification).update({ id: n.id }, { status: 'failed' });
    await note(em, n, 'notify_failed', { channel_id: n.channelId, notification_id: n.id, reason: n.reason, error });
  });
}

/** The project's notifications still pending since before `before`: owed by an evaluation whose delivery never started. */
export async function stalePending(ds: DataSource, projectId: string, before: Date): Promise<string[]> {
  const rows: { id: string }[] = await ds.query(`SELECT id FROM alert_notifications WHERE project_id = $1 AND status = 'pending' AND created_at < $2 ORDER BY created_at LIMIT 500`, [
    projectId,
    before,
  ]);
  return rows.map((r) => r.id);
}

async function note(em: EntityManager, n: AlertNotification, event: AlertEventKind, detail: Record<string, unknown>): Promise<void> {
  if (!n.alertId) return;
  const alert = await em.getRepository(Alert).findOneBy({ id: n.alertId });
  if (alert) await recordAlertEvent(em, alert, event, { from: alert.state, detail });
}

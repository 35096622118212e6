import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { NotificationReason } from './alert-values';
import type { JsonMap } from './job.entity';

/**
 * A notification owed to one channel (the outbox): written in the same transaction as the alert change (or the
 * registry event) that owes it, delivered afterwards by an activity that retries. Its id is the idempotency key the
 * receiver sees, so a delivery repeated after a crash is recognisable as the same one.
 */
@Entity('alert_notifications')
@Index(['status', 'createdAt'])
export class AlertNotification {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The alert notified; null for a registry event's notification. */
  @Column('uuid', { name: 'alert_id', nullable: true })
  alertId: string | null;

  /** The registry event notified (issue 31); null for an alert's notification. */
  @Column('bigint', { name: 'registry_event_id', nullable: true })
  registryEventId: string | null;

  @Column('uuid', { name: 'channel_id' })
  channelId: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  /** Why an alert is notified, or `registry_event`. */
  @Column('text')
  reason: NotificationReason | 'registry_event';

  /** The alert (or the registry event) as it was when the notification was owed: what every attempt sends. */
  @Column('jsonb')
  payload: JsonMap;

  /** `pending` until delivered or given up (`failed`). */
  @Column('text', { default: 'pending' })
  status: 'pending' | 'delivered' | 'failed';

  @Column('integer', { default: 0 })
  attempts: number;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'delivered_at', nullable: true })
  deliveredAt: Date | null;
}

import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One attempt to deliver a notification (or a channel test) to a channel: append-only. */
@Entity('alert_deliveries')
@Index(['channelId', 'createdAt'])
export class AlertDelivery {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('uuid', { name: 'channel_id' })
  channelId: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  /** null for a channel test. */
  @Column('uuid', { name: 'notification_id', nullable: true })
  notificationId: string | null;

  @Column('integer')
  attempt: number;

  /** `delivered` or `failed`. */
  @Column('text')
  status: 'delivered' | 'failed';

  /** The receiver's HTTP status (null for mail, or when no answer came). */
  @Column('integer', { name: 'status_code', nullable: true })
  statusCode: number | null;

  @Column('double precision', { name: 'latency_ms' })
  latencyMs: number;

  @Column('text', { nullable: true })
  error: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { ChannelType } from './alert-values';
import type { JsonMap } from './job.entity';

/**
 * Where a project's alerts are sent. `config` holds what the type needs (email: `recipients`; slack: `webhook_url`;
 * webhook: `url`), `secret` the webhook's signing key; answers mask both the Slack URL and the secret.
 */
@Entity('alert_channels')
@Index(['projectId', 'createdAt'])
export class AlertChannel {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text')
  name: string;

  @Column('text')
  type: ChannelType;

  @Column('jsonb')
  config: JsonMap;

  @Column('text', { nullable: true })
  secret: string | null;

  @Column('boolean', { name: 'is_enabled', default: true })
  isEnabled: boolean;

  /** Delivery attempts (tests included) failed in a row; reset by the next success. */
  @Column('integer', { name: 'consecutive_failures', default: 0 })
  consecutiveFailures: number;

  /** Set once `consecutiveFailures` reaches the failing mark; cleared by a success. */
  @Column('boolean', { default: false })
  failing: boolean;

  @Column('timestamptz', { name: 'last_delivery_at', nullable: true })
  lastDeliveryAt: Date | null;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}

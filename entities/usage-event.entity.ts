import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';

/** What is metered for billing; each kind's unit is in its name. */
export const USAGE_KINDS = ['training_minutes', 'predictions', 'storage_gb_hours'] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];

/**
 * One metered quantity of one user's usage. `idempotency_key` is unique: a retried activity or a repeated sample writes
 * nothing twice (a training job's minutes are keyed by its job id, a day's storage sample by user and day); predictions
 * are one row per deployment, user and minute, whose quantity the API processes add their counts to.
 */
@Entity('usage_events')
@Index(['userId', 'occurredAt'])
export class UsageEvent extends BaseEntity {
  @Column('uuid', { name: 'user_id' })
  userId: string;

  /** Null for usage of no one project (the user's storage) or of a project deleted since. */
  @Column('uuid', { name: 'project_id', nullable: true })
  projectId: string | null;

  @Column('text')
  kind: UsageKind;

  @Column('double precision')
  quantity: number;

  @Column('text', { name: 'idempotency_key', unique: true })
  idempotencyKey: string;

  @Column('timestamptz', { name: 'occurred_at' })
  occurredAt: Date;
}

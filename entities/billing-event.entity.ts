import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A provider webhook event already processed, by the provider's own event id: a replayed event (the same id again,
 * validly signed) finds its row and changes nothing. Written in the transaction that applies the event.
 */
@Entity('billing_events')
export class BillingEvent {
  /** `<provider>:<event id>` (`stripe:evt_…`). */
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  type: string;

  /** The user the event concerned, when one was found. */
  @Column('uuid', { name: 'user_id', nullable: true })
  userId: string | null;

  /** What applying it did (`plan_changed`, `status_changed`, `ignored`…). */
  @Column('text')
  outcome: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'received_at' })
  receivedAt: Date;
}

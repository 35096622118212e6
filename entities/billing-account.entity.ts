import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A user's account at the billing provider and the state of their subscription, as the provider's webhooks last
 * reported it. The plan itself lives on the user (part plans' `assignPlan`); `subscribed_plan` is the plan the
 * subscription pays for.
 */
@Entity('billing_accounts')
export class BillingAccount {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @Column('text')
  provider: string;

  /** The provider's customer id (`cus_…`); shown to users masked only. */
  @Column('text', { name: 'customer_id', unique: true })
  customerId: string;

  @Column('text', { name: 'subscription_id', nullable: true })
  subscriptionId: string | null;

  /** The provider's subscription status (`active`, `trialing`, `past_due`, `canceled`, `unpaid`, `incomplete`…); null: none yet. */
  @Column('text', { name: 'subscription_status', nullable: true })
  subscriptionStatus: string | null;

  @Column('text', { name: 'subscribed_plan', nullable: true })
  subscribedPlan: string | null;

  @Column('timestamptz', { name: 'current_period_start', nullable: true })
  currentPeriodStart: Date | null;

  @Column('timestamptz', { name: 'current_period_end', nullable: true })
  currentPeriodEnd: Date | null;

  @Column('boolean', { name: 'cancel_at_period_end', default: false })
  cancelAtPeriodEnd: boolean;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}

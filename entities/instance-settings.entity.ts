import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * The instance's settings, set by admins (`PUT /api/admin/settings`): one row (id 1). A null column has not been set
 * and takes its default from the configuration (services/admin/settings.ts).
 */
@Entity('instance_settings')
export class InstanceSettings {
  /** Always 1: the table holds one row (a CHECK constraint says so). */
  @PrimaryColumn('smallint')
  id: number;

  /** `open`, `invite_only` or `closed`. */
  @Column('text', { nullable: true })
  registration: 'open' | 'invite_only' | 'closed' | null;

  /** The plan name of users without one of their own. */
  @Column('text', { name: 'default_plan', nullable: true })
  defaultPlan: string | null;

  /** Lower-cased domains registration accepts; an empty list accepts any. */
  @Column('text', { name: 'allowed_email_domains', array: true, nullable: true })
  allowedEmailDomains: string[] | null;

  /** Lifetime of new sessions without `remember`. */
  @Column('integer', { name: 'session_lifetime_hours', nullable: true })
  sessionLifetimeHours: number | null;

  @Column('uuid', { name: 'updated_by', nullable: true })
  updatedBy: string | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}

import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** What a retention policy acts on: one policy per kind, instance-wide (services/retention/). */
export const RETENTION_KINDS = ['inference_logs', 'experiment_logs', 'dataset_versions', 'reports', 'synthetic_outputs', 'audit_entries'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** `delete` removes the rows (and their files); `anonymize` blanks the personal parts and keeps the rows. */
export const RETENTION_ACTIONS = ['delete', 'anonymize'] as const;
export type RetentionAction = (typeof RETENTION_ACTIONS)[number];

/**
 * How long the instance keeps one kind of record: the newest `keep_latest` (per owner: a deployment's logs, a
 * dataset's versions, ...) or those younger than `keep_days`, exactly one of the two. Run daily by the `retention`
 * job kind while enabled.
 */
@Entity('retention_policies')
export class RetentionPolicy {
  @PrimaryColumn('text')
  kind: RetentionKind;

  @Column('integer', { name: 'keep_days', nullable: true })
  keepDays: number | null;

  @Column('integer', { name: 'keep_latest', nullable: true })
  keepLatest: number | null;

  @Column('text')
  action: RetentionAction;

  @Column('boolean', { default: true })
  enabled: boolean;

  /** The superuser who last set it (null once that account is deleted). */
  @Column('uuid', { name: 'updated_by', nullable: true })
  updatedBy: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}

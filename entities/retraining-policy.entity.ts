import { Column, Entity, Index, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from './base.entity';
import type { JsonMap } from './job.entity';
import type { RetrainingGate, RetrainingOutcome, RetrainingTriggers } from './retraining-values';

/** When and how a registered model is retrained, judged against its champion, and what happens to a better challenger. */
@Entity('retraining_policies')
@Index(['projectId', 'createdAt'])
export class RetrainingPolicy extends BaseEntity {
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('uuid', { name: 'registered_model_id' })
  registeredModelId: string;

  @Column('text')
  name: string;

  @Column('boolean', { default: true })
  enabled: boolean;

  @Column('jsonb')
  triggers: RetrainingTriggers;

  /** Overrides of the champion's experiment config (max_models, max_runtime_secs, ...). */
  @Column('jsonb', { default: () => "'{}'" })
  experiment: JsonMap;

  @Column('jsonb')
  gate: RetrainingGate;

  @Column('text')
  outcome: RetrainingOutcome;

  /** The canary rollout's steps and options (outcome `canary`). */
  @Column('jsonb', { nullable: true })
  canary: JsonMap | null;

  @Column('integer', { name: 'cooldown_secs' })
  cooldownSecs: number;

  /** The dataset the training slices of this policy's runs are versions of (made by its first run). */
  @Column('uuid', { name: 'slice_dataset_id', nullable: true })
  sliceDatasetId: string | null;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}

import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';
import type { TransitionStatus, TransitionTarget } from './registry-values';

/** A request to move a version to a stage: pending until an admin or owner approves or rejects it. */
@Entity('registry_transitions')
@Index(['versionId', 'createdAt'])
export class RegistryTransition extends BaseEntity {
  @Column('uuid', { name: 'version_id' })
  versionId: string;

  @Column('uuid', { name: 'registered_model_id' })
  registeredModelId: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text', { name: 'to_stage' })
  toStage: TransitionTarget;

  @Column('text', { default: 'pending' })
  status: TransitionStatus;

  /** Null: the system (a retraining policy). */
  @Column('uuid', { name: 'requested_by', nullable: true })
  requestedBy: string | null;

  @Column('text', { nullable: true })
  comment: string | null;

  @Column('uuid', { name: 'decided_by', nullable: true })
  decidedBy: string | null;

  @Column('timestamptz', { name: 'decided_at', nullable: true })
  decidedAt: Date | null;

  @Column('text', { name: 'decision_comment', nullable: true })
  decisionComment: string | null;

  /** The deployment an approved move to staging or production made. */
  @Column('uuid', { name: 'deployment_id', nullable: true })
  deploymentId: string | null;
}

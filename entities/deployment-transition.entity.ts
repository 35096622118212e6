import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One move of a deployment between stages: append-only, never updated. */
@Entity('deployment_transitions')
export class DeploymentTransition {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('uuid', { name: 'deployment_id' })
  deploymentId: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  /** null for the creation. */
  @Column('text', { name: 'from_stage', nullable: true })
  fromStage: string | null;

  @Column('text', { name: 'to_stage' })
  toStage: string;

  @Column('uuid', { name: 'model_id' })
  modelId: string;

  @Column('uuid', { name: 'actor_id', nullable: true })
  actorId: string | null;

  @Column('text')
  reason: string;

  @Column('timestamptz', { default: () => 'now()' })
  at: Date;
}

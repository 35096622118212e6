import { Column, Entity, Index, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from './base.entity';

/** A named model of a project in the registry (MLflow's "registered model"): its versions point at trained models. */
@Entity('registered_models')
@Index(['projectId', 'name'], { unique: true })
export class RegisteredModel extends BaseEntity {
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text')
  name: string;

  @Column('text', { default: '' })
  description: string;

  @Column('jsonb', { default: () => "'{}'" })
  tags: Record<string, string>;

  /** Aliases whose move deploys the version they point at to production. */
  @Column('text', { name: 'auto_deploy_aliases', array: true, default: () => "'{}'" })
  autoDeployAliases: string[];

  /** The highest version number handed out (versions are numbered under this row's lock; never reused). */
  @Column('integer', { name: 'latest_version', default: 0 })
  latestVersion: number;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}

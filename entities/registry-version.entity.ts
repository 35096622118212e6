import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';
import type { JsonMap } from './job.entity';
import type { RegistryStage } from './registry-values';

/**
 * One version of a registered model: a trained model with where it came from (experiment, dataset version) and its
 * metrics as they were when it was registered. Immutable except `stage`, `tags`, `description` and `deploymentId`.
 */
@Entity('registry_versions')
@Index(['registeredModelId', 'version'], { unique: true })
export class RegistryVersion extends BaseEntity {
  @Column('uuid', { name: 'registered_model_id' })
  registeredModelId: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('integer')
  version: number;

  @Index()
  @Column('uuid', { name: 'model_id' })
  modelId: string;

  @Column('uuid', { name: 'experiment_id' })
  experimentId: string;

  @Column('uuid', { name: 'dataset_version_id', nullable: true })
  datasetVersionId: string | null;

  /** The model's leaderboard metrics when the version was registered. */
  @Column('jsonb')
  metrics: JsonMap;

  @Column('text', { default: 'none' })
  stage: RegistryStage;

  @Column('jsonb', { default: () => "'{}'" })
  tags: Record<string, string>;

  @Column('text', { default: '' })
  description: string;

  /** The deployment the registry last made (or was told of) for this version. */
  @Column('uuid', { name: 'deployment_id', nullable: true })
  deploymentId: string | null;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;
}

import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from './base.entity';
import type { JsonMap } from './job.entity';

/** A trained model of an experiment: metrics and explanations here, bytes in artifacts. */
@Entity('models')
export class Model extends BaseEntity {
  @Index()
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Index()
  @Column('uuid', { name: 'experiment_id' })
  experimentId: string;

  @Column('text')
  name: string;

  @Column('text')
  algo: string;

  @Column('boolean', { name: 'is_best', default: false })
  isBest: boolean;

  @Column('boolean', { name: 'is_production', default: false })
  isProduction: boolean;

  @Column('boolean', { name: 'is_staging', default: false })
  isStaging: boolean;

  @Column('uuid', { name: 'staging_deployment_id', nullable: true })
  stagingDeploymentId: string | null;

  /** Leaderboard metrics (cross-validated, or on the validation split when nfolds is 0). */
  @Column('jsonb')
  metrics: JsonMap;

  /** name → {default, actual}. */
  @Column('jsonb')
  parameters: JsonMap;

  /** varimp, roc curve, confusion matrix, scoring history. */
  @Column('jsonb')
  explain: JsonMap;

  /** The versioned serialized model (engine JSON). */
  @Column('uuid', { name: 'artifact_id' })
  artifactId: string;

  @Column('uuid', { name: 'onnx_artifact_id', nullable: true })
  onnxArtifactId: string | null;

  @Column('integer', { name: 'training_time_ms' })
  trainingTimeMs: number;

  @Column('double precision', { name: 'predict_time_per_row_ms' })
  predictTimePerRowMs: number;

  /** Position in the experiment's training order (1 = first trained). */
  @Column('integer')
  sequence: number;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { JsonMap } from './job.entity';

/**
 * One drift computation of a deployment (a `drift_compute` job): PSI per feature of its logged
 * inputs against its model's training data. Every run is kept; `GET …/drift` answers the latest.
 */
@Entity('drift_results')
@Index(['deploymentId', 'computedAt'])
export class DriftResult {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('uuid', { name: 'deployment_id' })
  deploymentId: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('uuid', { name: 'job_id', nullable: true })
  jobId: string | null;

  @Column('uuid', { name: 'model_id' })
  modelId: string;

  @Column('uuid', { name: 'dataset_version_id' })
  datasetVersionId: string;

  @Column('text', { name: 'overall_status' })
  overallStatus: string;

  @Column('double precision', { name: 'max_psi' })
  maxPsi: number;

  /** Feature name → {psi, status}. */
  @Column('jsonb')
  features: JsonMap;

  @Column('integer', { name: 'inference_rows' })
  inferenceRows: number;

  @Column('bigint', { name: 'reference_rows' })
  referenceRows: string;

  /** The newest log row read: the window the inputs came from ends there. */
  @Column('timestamptz', { name: 'window_end', nullable: true })
  windowEnd: Date | null;

  @Column('timestamptz', { name: 'window_start', nullable: true })
  windowStart: Date | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'computed_at' })
  computedAt: Date;
}

import { Column, Entity, Index, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from './base.entity';
import type { JsonMap } from './job.entity';

export const EXPERIMENT_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

/** An AutoML run on one dataset version; its status moves with its `automl_train` job. */
@Entity('experiments')
export class Experiment extends BaseEntity {
  @Index()
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('uuid', { name: 'dataset_version_id' })
  datasetVersionId: string;

  @Column('text')
  name: string;

  @Column('text', { name: 'target_column' })
  targetColumn: string;

  /** `classification` or `regression` (aliases are mapped on creation). */
  @Column('text', { name: 'problem_type' })
  problemType: string;

  /** Detected: binary, multiclass or regression. */
  @Column('text', { name: 'problem_kind' })
  problemKind: string;

  @Column('text')
  status: ExperimentStatus;

  /** The normalized AutoML config (every key filled). */
  @Column('jsonb')
  config: JsonMap;

  @Column('boolean', { name: 'use_gpu', default: false })
  useGpu: boolean;

  @Column('uuid', { name: 'job_id', nullable: true })
  jobId: string | null;

  @Column('uuid', { name: 'best_model_id', nullable: true })
  bestModelId: string | null;

  @Column('text', { nullable: true })
  error: string | null;

  /** Live progress: models done, current algorithm, elapsed vs budget. */
  @Column('jsonb', { default: {} })
  progress: JsonMap;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  @Column('timestamptz', { name: 'started_at', nullable: true })
  startedAt: Date | null;

  @Column('timestamptz', { name: 'finished_at', nullable: true })
  finishedAt: Date | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}

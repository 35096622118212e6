import { Column, Entity, Index } from 'typeorm';
import { JobTrackedEntity } from './job-tracked.entity';
import type { JsonMap } from './job.entity';

export const EXPERIMENT_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

/** How a leaking feature was caught: single-feature AUC, single-feature R², or an exact value → target mapping. */
export type LeakageMeasure = 'auc' | 'r2' | 'functional_dependence';

/** A warning found before training; `message` is the sentence shown to people. */
export interface ExperimentWarning {
  kind: 'leakage';
  column: string;
  measure: LeakageMeasure;
  score: number;
  message: string;
}

/** An AutoML run on one dataset version; its status moves with its `automl_train` job. */
@Entity('experiments')
export class Experiment extends JobTrackedEntity<ExperimentStatus> {
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

  /** The normalized AutoML config (every key filled). */
  @Column('jsonb')
  config: JsonMap;

  @Column('boolean', { name: 'use_gpu', default: false })
  useGpu: boolean;

  @Column('uuid', { name: 'job_id', nullable: true })
  jobId: string | null;

  @Column('uuid', { name: 'best_model_id', nullable: true })
  bestModelId: string | null;

  /** Live progress: models done, current algorithm, elapsed vs budget. */
  @Column('jsonb', { default: {} })
  progress: JsonMap;

  /** Found in data preparation, before any model is trained (leakage); empty until then. */
  @Column('jsonb', { default: () => "'[]'" })
  warnings: ExperimentWarning[];

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;
}

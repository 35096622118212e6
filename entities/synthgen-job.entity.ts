import { Column, Entity, Index } from 'typeorm';
import { JobTrackedEntity } from './job-tracked.entity';
import type { JsonMap } from './job.entity';

/** The spec's synthgen job statuses (and list filter values); a canceled job is `failed` with the error `Canceled`. */
export const SYNTHGEN_JOB_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type SynthgenJobStatus = (typeof SYNTHGEN_JOB_STATUSES)[number];

export const SYNTHGEN_JOB_TYPES = ['train', 'generate'] as const;
export type SynthgenJobType = (typeof SYNTHGEN_JOB_TYPES)[number];

/**
 * One training or generation of a synthgen model. Its id is its `jobs` row's id (one job, one id), and its
 * status follows that row in the spec's spelling. A completed generation holds its CSV and Parquet artifacts,
 * its quality report and its privacy check.
 */
@Entity('synthgen_jobs')
@Index(['projectId', 'createdAt'])
export class SynthgenJob extends JobTrackedEntity<SynthgenJobStatus> {
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Index()
  @Column('uuid', { name: 'model_id' })
  modelId: string;

  @Column('text', { name: 'job_type' })
  jobType: SynthgenJobType;

  /** Generation: {num_rows, seed, conditions}; training: the model's config. */
  @Column('jsonb', { default: {} })
  config: JsonMap;

  /** The CSV output (what `download` sends by default). */
  @Column('uuid', { name: 'output_artifact_id', nullable: true })
  outputArtifactId: string | null;

  @Column('uuid', { name: 'parquet_artifact_id', nullable: true })
  parquetArtifactId: string | null;

  @Column('integer', { name: 'rows_generated', nullable: true })
  rowsGenerated: number | null;

  /** SDMetrics' quality report of the output against the training data, with per-column distributions. */
  @Column('jsonb', { nullable: true })
  quality: JsonMap | null;

  /** Distance to closest record of the output against the training rows and a holdout. */
  @Column('jsonb', { nullable: true })
  privacy: JsonMap | null;

  /** What happened, in order (attempts, resumes, fallbacks); at most a few dozen lines. */
  @Column('jsonb', { default: [] })
  log: string[];

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;
}

import { Column, Entity, Index } from 'typeorm';
import { JobTrackedEntity } from './job-tracked.entity';
import type { JsonMap } from './job.entity';

/** The spec's model statuses: `pending` while its `synthgen_train` job is queued or running, then `ready` or `failed`. */
export const SYNTHGEN_MODEL_STATUSES = ['pending', 'ready', 'failed'] as const;
export type SynthgenModelStatus = (typeof SYNTHGEN_MODEL_STATUSES)[number];

/** The four generative model types of the spec. */
export const SYNTHGEN_MODEL_TYPES = ['ctgan', 'copulagan', 'tvae', 'gaussian_copula'] as const;
export type SynthgenModelType = (typeof SYNTHGEN_MODEL_TYPES)[number];

/**
 * A generative model trained on one dataset version of its project. Its status follows its train job
 * (`services/job-kinds.ts`); the fitted model is an artifact, and while a neural model trains its latest
 * checkpoint is one too, so a retried attempt resumes from it.
 */
@Entity('synthgen_models')
@Index(['projectId', 'createdAt'])
export class SynthgenModel extends JobTrackedEntity<SynthgenModelStatus> {
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('uuid', { name: 'dataset_id' })
  datasetId: string;

  @Index()
  @Column('uuid', { name: 'dataset_version_id' })
  datasetVersionId: string;

  @Column('text')
  name: string;

  @Column('text', { name: 'model_type' })
  modelType: SynthgenModelType;

  /** The model type's options with the defaults filled in (what training used). */
  @Column('jsonb', { default: {} })
  config: JsonMap;

  /** Train a neural model on the GPU queue when a GPU worker takes it in time. */
  @Column('boolean', { name: 'use_gpu', default: false })
  useGpu: boolean;

  /** The serialized model, once trained. */
  @Column('uuid', { name: 'artifact_id', nullable: true })
  artifactId: string | null;

  /** The latest training checkpoint of the running train job (removed when training ends). */
  @Column('uuid', { name: 'checkpoint_artifact_id', nullable: true })
  checkpointArtifactId: string | null;

  @Column('integer', { name: 'checkpoint_epoch', nullable: true })
  checkpointEpoch: number | null;

  @Column('uuid', { name: 'train_job_id', nullable: true })
  trainJobId: string | null;

  /** Rows the model was fitted on, and rows of the version held out of training for the privacy check. */
  @Column('integer', { name: 'training_rows', nullable: true })
  trainingRows: number | null;

  @Column('integer', { name: 'holdout_rows', nullable: true })
  holdoutRows: number | null;

  /** The fitted columns as the engine describes them (name, kind, integer, range, missing rate). */
  @Column('jsonb', { nullable: true })
  columns: JsonMap[] | null;

  @Column('double precision', { name: 'training_secs', nullable: true })
  trainingSecs: number | null;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;
}

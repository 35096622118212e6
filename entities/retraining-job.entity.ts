import { Column, Entity, Index } from 'typeorm';
import type { JobStatus, JsonMap } from './job.entity';
import { JobTrackedEntity } from './job-tracked.entity';
import type { RetrainingEvaluation, RetrainingState, RetrainingTriggerKind } from './retraining-values';

/**
 * One retraining of a policy: its `retraining_run` job (whose status, error and times the job writes through
 * `JobTrackedEntity`) and its own `state`, which the job's activities and the approval move.
 */
@Entity('retraining_jobs')
@Index(['policyId', 'createdAt'])
export class RetrainingJob extends JobTrackedEntity<JobStatus> {
  @Column('uuid', { name: 'policy_id' })
  policyId: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('uuid', { name: 'registered_model_id' })
  registeredModelId: string;

  @Column('jsonb')
  trigger: { kind: RetrainingTriggerKind; detail: JsonMap };

  @Column('text')
  state: RetrainingState;

  @Column('uuid', { name: 'job_id', nullable: true })
  jobId: string | null;

  @Column('uuid', { name: 'experiment_id', nullable: true })
  experimentId: string | null;

  /** The dataset version retrained on (the latest of the champion's dataset when the job started training). */
  @Column('uuid', { name: 'dataset_version_id', nullable: true })
  datasetVersionId: string | null;

  /** The training slice of it the experiment trained on (the rest is the holdout). */
  @Column('uuid', { name: 'training_version_id', nullable: true })
  trainingVersionId: string | null;

  /** The seed of the split, and how many rows were held out. */
  @Column('integer', { name: 'holdout_seed' })
  holdoutSeed: number;

  @Column('integer', { name: 'holdout_rows', nullable: true })
  holdoutRows: number | null;

  @Column('uuid', { name: 'champion_version_id', nullable: true })
  championVersionId: string | null;

  @Column('uuid', { name: 'challenger_version_id', nullable: true })
  challengerVersionId: string | null;

  @Column('uuid', { name: 'rollout_id', nullable: true })
  rolloutId: string | null;

  @Column('uuid', { name: 'transition_request_id', nullable: true })
  transitionRequestId: string | null;

  @Column('jsonb', { nullable: true })
  evaluation: RetrainingEvaluation | null;

  @Column('text', { nullable: true })
  reason: string | null;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;
}

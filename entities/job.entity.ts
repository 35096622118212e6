import { Column, Entity, Index } from 'typeorm';
import { JobTrackedEntity } from './job-tracked.entity';

/**
 * The job kinds this service runs. A kind is added together with its workflow, its activities
 * and its entry in `services/job-kinds.ts` (typed against this union, so a kind without an
 * entry does not compile).
 */
export const JOB_KINDS = [
  'project_export',
  'automl_train',
  'dataset_profile',
  'drift_compute',
  'report_generate',
  'privacy_detect',
  'privacy_transform',
  'synthgen_train',
  'synthgen_generate',
] as const;
/** A jsonb payload; `any` because TypeORM's deep-partial typing cannot follow `unknown`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonMap = Record<string, any>;

export type JobKind = (typeof JOB_KINDS)[number];

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'canceled'];

/**
 * The source of truth for every long-running request. The workflow id is derived from the
 * job id (`job-<id>`), so starting it twice is idempotent.
 */
@Entity('jobs')
@Index(['status'])
export class Job extends JobTrackedEntity<JobStatus> {
  @Index()
  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text')
  kind: JobKind;

  @Column('uuid', { name: 'entity_id', nullable: true })
  entityId: string | null;

  @Column('integer', { default: 0 })
  progress: number;

  @Column('text', { nullable: true })
  message: string | null;

  /** Input given to the workflow (ids only) so the reconciler can start it again. */
  @Column('jsonb', { default: {} })
  input: JsonMap;

  @Column('jsonb', { nullable: true })
  result: JsonMap | null;

  @Column('text', { name: 'workflow_id' })
  workflowId: string;

  @Column('text', { name: 'run_id', nullable: true })
  runId: string | null;

  @Column('text', { name: 'task_queue' })
  taskQueue: string;

  @Column('integer', { default: 0 })
  attempt: number;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  /** When the job was let run its work under its user's share of the workers (null while it waits). */
  @Column('timestamptz', { name: 'admitted_at', nullable: true })
  admittedAt: Date | null;
}

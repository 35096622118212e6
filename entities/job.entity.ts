import { Column, Entity, Index } from 'typeorm';
import { JobTrackedEntity } from './job-tracked.entity';

/**
 * The job kinds this service runs, listed once: by the registry (`JOB_KINDS_REGISTRY` in `services/job-kinds.ts`),
 * which adds one key here per entry (TypeScript's interface merging). So `Job.kind` is typed by the registry while
 * entities/ imports nothing from services/, and a kind is added by its registry entry alone (README, "Adding a job
 * kind"). The column is plain text (no enum type, no CHECK): a new kind takes no migration.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by services/job-kinds.ts
export interface RegisteredJobKinds {}

/** A registered job kind (`drift_compute`, …). */
export type JobKind = keyof RegisteredJobKinds & string;

/** A jsonb payload; `any` because TypeORM's deep-partial typing cannot follow `unknown`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonMap = Record<string, any>;

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
  /** The project it acts on; null for an instance-wide job (`retention`), which only superusers see. */
  @Index()
  @Column('uuid', { name: 'project_id', nullable: true })
  projectId: string | null;

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

import type { EntityManager } from 'typeorm';
import {
  BuilderSession,
  type BuilderSessionStatus,
  BuilderStep,
  type BuilderStepStatus,
  Experiment,
  type JobKind,
  type JobStatus,
  type JobTrackedEntity,
  PrivacySession,
  RetrainingJob,
  type PrivacySessionStatus,
  Report,
  SynthgenJob,
  type SynthgenJobStatus,
  SynthgenModel,
  type SynthgenModelStatus,
} from '../entities';
import type { QueueFamily } from '../workflows/job-input';
import type { RequiredScope, ScopeResource } from './scopes';
import { unlinkCheckpoint } from './synthgen/checkpoints';

/**
 * The resource a job moves (an experiment, a report, ...): an entity class whose status, error and timestamps
 * (`JobTrackedEntity`) `services/job-status.ts` keeps in step with the job, in the resource's own spelling of the
 * status. Named by its class, so a typo or a removed entity is a compile error, and written through its metadata.
 */
export interface JobResource<E extends JobTrackedEntity = JobTrackedEntity> {
  entity: new () => E;
  /** The resource's status for a job status; the job's own spelling when omitted. */
  statusOf?: (status: JobStatus) => E['status'];
  /** Which id names the row: the job's `entity_id` (default), or the job's own id (a row that shares it). */
  key?: 'entity' | 'job';
  /** The resource's `error` when the job is canceled (a spelling without `canceled` says why it failed). */
  canceledError?: string;
}

type ResourceOptions<E extends JobTrackedEntity> = Omit<JobResource<E>, 'entity'>;

/**
 * A resource entry, checked against its entity: `statusOf` spells every job status as one of the entity's statuses,
 * and may be left out only when the entity's statuses include all of the job's.
 */
function moves<E extends JobTrackedEntity>(
  entity: new () => E,
  ...options: JobStatus extends E['status'] ? [ResourceOptions<E>?] : [ResourceOptions<E> & Required<Pick<ResourceOptions<E>, 'statusOf'>>]
): JobResource {
  return { entity, ...options[0] } as JobResource;
}

export interface JobKindDef {
  /**
   * The workflow function's exported name, checked against its module: `'xWorkflow' satisfies WorkflowIn<typeof
   * import('../workflows/x')>`, so a typo or a removed workflow is a compile error.
   */
  workflowType: string;
  /** The task-queue family whose workers run the workflow. */
  queue: QueueFamily;
  /** What follows the job's status: one resource, or several (a synthgen training moves its model and its synthgen job). */
  resource?: JobResource | readonly JobResource[];
  /** The API-key scope resource of what the job acts on: cancelling it needs `write:` of it. */
  scopeResource: ScopeResource;
  /**
   * Files the job keeps only while it is open (a neural training's checkpoint, which a retried attempt resumes from):
   * unlinked in the transaction that closes the job, whatever the outcome, given the job's `entity_id`; returns their
   * storage keys, removed from the store once that transaction commits. So no path to `failed` or `canceled` (a cancel
   * while no attempt runs, retries spent, the reconciler) leaves them behind.
   */
  releaseOnClose?: (em: EntityManager, entityId: string) => Promise<string[]>;
  /**
   * Its body holds an ml-cpu activity slot from start to end, so it runs under its user's share of the workers
   * (MAX_RUNNING_JOBS_PER_USER, services/job-admission.ts). AutoML is not: its models are activities of their own, and
   * the queue's fairness key already lets tenants take turns between them.
   */
  fairShare?: true;
}

/**
 * The workflows a module of workflows/ exports: its functions named `…Workflow`, which are what the workers register
 * (workflows/index.ts bundles every module of the folder and registers exactly these; the worker checks the registry
 * against them at start, `workers/workflow-check.ts`).
 */
export type WorkflowIn<M> = { [K in keyof M]: K extends `${string}Workflow` ? (M[K] extends (input: never) => Promise<unknown> ? K : never) : never }[keyof M];

/**
 * Every job kind, registered once: the one list of kinds. Its keys are the `JobKind` union (merged into
 * `RegisteredJobKinds` below, which types `Job.kind`). What else a kind takes: README, "Adding a job kind".
 */
const REGISTRY = {
  project_export: { workflowType: 'projectExportWorkflow' satisfies WorkflowIn<typeof import('../workflows/project-export')>, queue: 'io', scopeResource: 'projects' },
  automl_train: { workflowType: 'automlTrainWorkflow' satisfies WorkflowIn<typeof import('../workflows/automl-train')>, queue: 'cpu', resource: moves(Experiment), scopeResource: 'experiments' },
  dataset_profile: { workflowType: 'datasetProfileWorkflow' satisfies WorkflowIn<typeof import('../workflows/dataset-profile')>, queue: 'cpu', scopeResource: 'datasets', fairShare: true },
  drift_compute: { workflowType: 'driftComputeWorkflow' satisfies WorkflowIn<typeof import('../workflows/drift-compute')>, queue: 'cpu', scopeResource: 'deployments', fairShare: true },
  report_generate: { workflowType: 'reportGenerateWorkflow' satisfies WorkflowIn<typeof import('../workflows/report-generate')>, queue: 'io', resource: moves(Report), scopeResource: 'reports' },
  // A privacy session moves through both kinds, each in its own words: open is `detecting` / `transforming`,
  // success `detected` / `completed` (the spec's), and a finished detection does not stop a later transform.
  privacy_detect: {
    workflowType: 'privacyDetectWorkflow' satisfies WorkflowIn<typeof import('../workflows/privacy-detect')>,
    queue: 'cpu',
    resource: moves(PrivacySession, { statusOf: (s) => PRIVACY_DETECT_STATUS[s] }),
    scopeResource: 'privacy',
    fairShare: true,
  },
  privacy_transform: {
    workflowType: 'privacyTransformWorkflow' satisfies WorkflowIn<typeof import('../workflows/privacy-transform')>,
    queue: 'cpu',
    resource: moves(PrivacySession, { statusOf: (s) => PRIVACY_TRANSFORM_STATUS[s] }),
    scopeResource: 'privacy',
    fairShare: true,
  },
  // SynthGen keeps the spec's spellings: a model is `pending` until trained, then `ready` or `failed`; a synthgen job
  // (the row sharing the job's id) is `pending`, `running`, then `completed` or `failed`. The spec has no canceled
  // status for either: a canceled job leaves both `failed`, with the error `Canceled`.
  synthgen_train: {
    workflowType: 'synthgenTrainWorkflow' satisfies WorkflowIn<typeof import('../workflows/synthgen-train')>,
    queue: 'cpu',
    resource: [
      moves(SynthgenModel, { statusOf: (s) => SYNTHGEN_MODEL_STATUS[s], canceledError: 'Canceled' }),
      moves(SynthgenJob, { key: 'job', statusOf: (s) => SYNTHGEN_JOB_STATUS[s], canceledError: 'Canceled' }),
    ],
    scopeResource: 'synthgen',
    fairShare: true,
    releaseOnClose: async (em, modelId) => {
      const key = await unlinkCheckpoint(em, modelId);
      return key ? [key] : [];
    },
  },
  synthgen_generate: {
    workflowType: 'synthgenGenerateWorkflow' satisfies WorkflowIn<typeof import('../workflows/synthgen-generate')>,
    queue: 'cpu',
    resource: moves(SynthgenJob, { key: 'job', statusOf: (s) => SYNTHGEN_JOB_STATUS[s], canceledError: 'Canceled' }),
    scopeResource: 'synthgen',
    fairShare: true,
  },
  // A retraining's row follows its job (status, error, times); its own `state` the activities and approvals move.
  retraining_run: {
    workflowType: 'retrainingRunWorkflow' satisfies WorkflowIn<typeof import('../workflows/retraining-run')>,
    queue: 'io',
    resource: moves(RetrainingJob),
    scopeResource: 'deployments',
  },
  // A builder session's step execution (entity: the step), finalize (entity: the session) or replay (entity: the version
  // replayed on, which follows nothing). A step is `executing` until `executed`; a failed or canceled run leaves it
  // `failed` with the error and its previous output. A session is `finalizing` until `finalized`, or `failed`.
  builder_run: {
    workflowType: 'builderRunWorkflow' satisfies WorkflowIn<typeof import('../workflows/builder-run')>,
    queue: 'cpu',
    resource: [
      moves(BuilderStep, { statusOf: (s) => BUILDER_STEP_STATUS[s], canceledError: 'Canceled' }),
      moves(BuilderSession, { statusOf: (s) => BUILDER_SESSION_STATUS[s], canceledError: 'Canceled' }),
    ],
    scopeResource: 'datasets',
    fairShare: true,
  },
  // Instance-wide (no project): queued by a superuser or the daily schedule, seen and canceled through /api/admin/retention.
  retention: { workflowType: 'retentionWorkflow' satisfies WorkflowIn<typeof import('../workflows/retention')>, queue: 'io', scopeResource: 'projects' },
} satisfies Record<string, JobKindDef>;

declare module '../entities/job.entity' {
  // The registry's keys are the job kinds (see RegisteredJobKinds): listing a kind here is all the entity needs.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface RegisteredJobKinds extends Record<keyof typeof REGISTRY, true> {}
}

export const JOB_KINDS_REGISTRY: Readonly<Record<JobKind, JobKindDef>> = REGISTRY;

const BUILDER_STEP_STATUS: Record<JobStatus, BuilderStepStatus> = { queued: 'executing', running: 'executing', succeeded: 'executed', failed: 'failed', canceled: 'failed' };
const BUILDER_SESSION_STATUS: Record<JobStatus, BuilderSessionStatus> = { queued: 'finalizing', running: 'finalizing', succeeded: 'finalized', failed: 'failed', canceled: 'failed' };
const PRIVACY_DETECT_STATUS: Record<JobStatus, PrivacySessionStatus> = { queued: 'detecting', running: 'detecting', succeeded: 'detected', failed: 'failed', canceled: 'canceled' };
const PRIVACY_TRANSFORM_STATUS: Record<JobStatus, PrivacySessionStatus> = { queued: 'transforming', running: 'transforming', succeeded: 'completed', failed: 'failed', canceled: 'canceled' };
const SYNTHGEN_MODEL_STATUS: Record<JobStatus, SynthgenModelStatus> = { queued: 'pending', running: 'pending', succeeded: 'ready', failed: 'failed', canceled: 'failed' };
const SYNTHGEN_JOB_STATUS: Record<JobStatus, SynthgenJobStatus> = { queued: 'pending', running: 'running', succeeded: 'completed', failed: 'failed', canceled: 'failed' };

/** Every registered kind, in registry order: the jobs route's `kind` filter and so its OpenAPI enum follow the registry. */
export const REGISTERED_JOB_KINDS = Object.keys(JOB_KINDS_REGISTRY) as [JobKind, ...JobKind[]];

/** A kind's resources as a list (none, one or several). */
export function jobResources(kind: JobKind): readonly JobResource[] {
  const r = JOB_KINDS_REGISTRY[kind].resource;
  return r === undefined ? [] : 'entity' in r ? [r as JobResource] : (r as readonly JobResource[]);
}

/** The scope an API key needs to cancel a job of this kind: a write on what the job acts on. */
export function jobWriteScope(kind: JobKind): RequiredScope {
  return `write:${JOB_KINDS_REGISTRY[kind].scopeResource}`;
}

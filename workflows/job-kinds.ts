/**
 * Which workflow runs each job kind and on which task queue family. Plain data, shared by
 * the API (to start jobs) and the reconciler; no workflow code is imported from here.
 */
export type QueueFamily = 'cpu' | 'gpu' | 'io';

export interface JobRoute {
  workflowType: string;
  queue: QueueFamily;
}

export const JOB_ROUTES: Record<string, JobRoute> = {
  project_export: { workflowType: 'projectExportWorkflow', queue: 'io' },
  automl_train: { workflowType: 'automlTrainWorkflow', queue: 'cpu' },
  dataset_profile: { workflowType: 'datasetProfileWorkflow', queue: 'cpu' },
};

/** The workflow id of a job: derived, so a repeated start of the same job is idempotent. */
export function workflowIdForJob(jobId: string): string {
  return `job-${jobId}`;
}

/** Input every job workflow receives: ids only; activities reload what they need. */
export interface JobWorkflowInput {
  jobId: string;
  projectId: string;
  /** Concrete task queue names (prefixed per deployment); workflows read no config. */
  queues: { cpu: string; gpu: string; io: string };
}

/** Error type names activities throw for faults that retrying cannot fix. */
export const NON_RETRYABLE_ERROR_TYPES = ['DataError', 'ConfigError', 'ValidationError', 'NotFoundError'];

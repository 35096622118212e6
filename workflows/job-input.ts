/**
 * What every job workflow shares with the code that starts it: plain types and constants, no
 * workflow code, so the API and services can import it.
 */
export type QueueFamily = 'cpu' | 'gpu' | 'io';

/** The workflow id of a job: derived, so a repeated start of the same job is idempotent. */
export function workflowIdForJob(jobId: string): string {
  return `job-${jobId}`;
}

/** Input every job workflow receives: ids only; activities reload what they need. */
export interface JobWorkflowInput {
  jobId: string;
  projectId: string;
  /** Concrete task queue names (prefixed per deployment); workflows read no config. */
  queues: Record<QueueFamily, string>;
  /** The light queue every worker process polls, for the status writes and admission check; absent: `queues.io`. */
  statusQueue?: string;
}

/**
 * Error type names that retrying cannot fix. Activities already raise these as non-retryable
 * failures (`activities/failures.ts`); listing them in every retry policy also covers a plain
 * error that carries one of these names.
 */
export const NON_RETRYABLE_ERROR_TYPES = ['NotFoundError', 'ValidationError', 'DataError', 'ConflictError', 'ForbiddenError', 'ConfigError'];

/** The signal a finished job sends to its user's oldest waiting job: a share of the workers is free (services/job-admission.ts). */
export const ADMISSION_WAKE_SIGNAL = 'jobAdmissionWake';

/**
 * The id of a notification's delivery workflow (`alertDeliveryWorkflow`, workflows/alerts-evaluate.ts): starting it
 * twice (the evaluation cycle and a later pickup, or the registry after its commit) starts it once.
 */
export function deliveryWorkflowId(notificationId: string): string {
  return `alert-notification-${notificationId}`;
}

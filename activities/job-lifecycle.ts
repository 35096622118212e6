import type { JobStatus } from '../entities';
import type { Services } from '../services';

export interface JobLifecycleActivities {
  /** True when the job may start its work now; false: it waits for its user's share of the workers (services/job-admission.ts). */
  admitJob(jobId: string): Promise<boolean>;
  markJobRunning(jobId: string): Promise<void>;
  markJobFinished(jobId: string, outcome: { status: JobStatus; result?: Record<string, unknown>; error?: string | null }): Promise<void>;
}

/** The status writes every job workflow makes through `runJob` (workflows/job-lifecycle.ts), and its admission. */
export function createJobLifecycleActivities({ jobs, jobAdmission }: Services): JobLifecycleActivities {
  return {
    admitJob(jobId) {
      return jobAdmission.admit(jobId);
    },
    async markJobRunning(jobId) {
      await jobs.setStatus(jobId, { status: 'running' });
    },
    async markJobFinished(jobId, outcome) {
      await jobs.setStatus(jobId, outcome);
      await jobAdmission.wakeWaiting(jobId);
    },
  };
}

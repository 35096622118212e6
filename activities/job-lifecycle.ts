import type { JobStatus } from '../entities';
import type { Services } from '../services';

export interface JobLifecycleActivities {
  markJobRunning(jobId: string): Promise<void>;
  markJobFinished(jobId: string, outcome: { status: JobStatus; result?: Record<string, unknown>; error?: string | null }): Promise<void>;
}

/** The status writes every job workflow makes through `runJob` (workflows/job-lifecycle.ts). */
export function createJobLifecycleActivities({ jobs }: Services): JobLifecycleActivities {
  return {
    async markJobRunning(jobId) {
      await jobs.setStatus(jobId, { status: 'running' });
    },
    async markJobFinished(jobId, outcome) {
      await jobs.setStatus(jobId, outcome);
    },
  };
}

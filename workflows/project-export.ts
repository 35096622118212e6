import { proxyActivities } from '@temporalio/workflow';
import type { ProjectExportActivities } from '../activities/project-export';
import { JobWorkflowInput, NON_RETRYABLE_ERROR_TYPES } from './job-input';
import { runJob } from './job-lifecycle';

const exporter = proxyActivities<ProjectExportActivities>({
  startToCloseTimeout: '2h',
  // A killed worker stops heartbeating; the attempt then times out and another worker retries.
  heartbeatTimeout: '10s',
  retry: { maximumAttempts: 5, initialInterval: '1s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
});

/** Builds a ZIP of a project's manifest and artifacts and stores it as an artifact. */
export async function projectExportWorkflow(input: JobWorkflowInput): Promise<{ artifact_id: string; size_bytes: number; files: number }> {
  return runJob(input, async (state) => {
    state.step = 'archiving artifacts';
    const result = await exporter.buildProjectExport({ jobId: input.jobId, projectId: input.projectId });
    state.step = 'done';
    return result;
  });
}

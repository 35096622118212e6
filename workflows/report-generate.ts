import { proxyActivities } from '@temporalio/workflow';
import type { ReportGenerateActivities, ReportJobResult } from '../activities/report-generate';
import { JobWorkflowInput, NON_RETRYABLE_ERROR_TYPES } from './job-input';
import { runJob } from './job-lifecycle';

export interface ReportGenerateInput extends JobWorkflowInput {
  reportId: string;
}

/** Renders a report (`POST /api/reports`) into its artifact on the io queue; `GET /api/reports/{id}/view` serves it. */
export async function reportGenerateWorkflow(input: ReportGenerateInput): Promise<ReportJobResult> {
  const reports = proxyActivities<ReportGenerateActivities>({
    taskQueue: input.queues.io,
    startToCloseTimeout: '15m',
    // A killed worker stops heartbeating; the attempt then times out and another worker retries.
    heartbeatTimeout: '60s',
    retry: { maximumAttempts: 3, initialInterval: '2s', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
  });
  return runJob(input, async (state) => {
    state.step = 'rendering';
    const result = await reports.generateReport({ jobId: input.jobId, reportId: input.reportId });
    state.step = 'done';
    return result;
  });
}

import type { Services } from '../services';
import type { ReportJobResult } from '../services/reports/service';
import { jobActivity } from './job-activity';

export interface ReportGenerateActivities {
  generateReport(input: { jobId: string; reportId: string }): Promise<ReportJobResult>;
}

/** The `report_generate` job's activity (see `ReportService.generate`); a canceled run stores nothing. */
export function createReportGenerateActivities({ jobs, reports }: Services): ReportGenerateActivities {
  return {
    generateReport: ({ jobId, reportId }) => jobActivity(jobs, jobId, 'starting', (progress) => reports.generate(reportId, progress)),
  };
}

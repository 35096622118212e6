import type { ActivityDeps } from '../deps';
import type { ReportJobResult } from '../../services/reports/service';
import { jobActivity } from '../job-activity';

export interface ReportGenerateActivities {
  generateReport(input: { jobId: string; reportId: string }): Promise<ReportJobResult>;
}

/** The `report_generate` job's activity (see `ReportService.generate`); a canceled run stores nothing. */
export function createReportGenerateActivities({ services: { jobs, reports } }: ActivityDeps): ReportGenerateActivities {
  return {
    generateReport: ({ jobId, reportId }) => jobActivity(jobs, jobId, 'starting', (progress) => reports.generate(reportId, progress)),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createReportGenerateActivities;

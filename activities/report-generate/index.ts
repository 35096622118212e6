import type { ActivityDeps } from '../deps';
import { jobActivity } from '../job-activity';
import { generateReport, type ReportJobResult } from './generate';

export type { ReportJobResult };

export interface ReportGenerateActivities {
  generateReport(input: { jobId: string; reportId: string }): Promise<ReportJobResult>;
}

/** The `report_generate` job's worker side (`ReportService.create` queues it; the work is generate.ts): a canceled run stores nothing. */
export function createReportGenerateActivities({ services, dataSource, store, config }: ActivityDeps): ReportGenerateActivities {
  const deps = { ds: dataSource, store, experiments: services.experiments, config };
  return {
    generateReport: ({ jobId, reportId }) => jobActivity(services.jobs, jobId, 'starting', (progress) => generateReport(deps, reportId, progress)),
  };
}

/** This kind's activities, as activities/index.ts registers every kind folder's. */
export const activities = createReportGenerateActivities;

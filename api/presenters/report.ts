import type { Report } from '../../entities';
import type { Presented } from './common.schema';
import type { reportSchema } from './report.schema';

type ReportJson = Presented<typeof reportSchema>;

/** The spec's Report: id, project_id, kind, entity_id, status, summary, artifact_id, job_id, created_at (plus options and error). */
export function presentReport(r: Report): ReportJson {
  return {
    id: r.id,
    project_id: r.projectId,
    kind: r.kind,
    entity_id: r.entityId,
    status: r.status,
    summary: r.summary,
    artifact_id: r.status === 'succeeded' ? r.artifactId : null,
    job_id: r.jobId,
    // Stored as asked, resolved (services/reports/options.ts `ReportOptions`).
    options: r.options as ReportJson['options'],
    error: r.error,
    created_at: r.createdAt,
    finished_at: r.finishedAt,
  };
}

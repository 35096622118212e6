import type { Report } from '../../entities';

/** The spec's Report: id, project_id, kind, entity_id, status, summary, artifact_id, job_id, created_at (plus options and error). */
export function presentReport(r: Report) {
  return {
    id: r.id,
    project_id: r.projectId,
    kind: r.kind,
    entity_id: r.entityId,
    status: r.status,
    summary: r.summary,
    artifact_id: r.status === 'succeeded' ? r.artifactId : null,
    job_id: r.jobId,
    options: r.options,
    error: r.error,
    created_at: r.createdAt,
    finished_at: r.finishedAt,
  };
}

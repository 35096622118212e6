import type { Job } from '../../entities';

export function presentJob(job: Job, extra: Record<string, unknown> = {}) {
  return {
    id: job.id,
    project_id: job.projectId,
    kind: job.kind,
    entity_id: job.entityId,
    status: job.status,
    progress: job.progress,
    message: job.message,
    error: job.error,
    result: job.result,
    workflow_id: job.workflowId,
    run_id: job.runId,
    task_queue: job.taskQueue,
    attempt: job.attempt,
    created_at: job.createdAt,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    updated_at: job.updatedAt,
    ...extra,
  };
}

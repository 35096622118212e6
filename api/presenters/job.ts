import type { Job } from '../../entities';

/** The builder session a `builder_run` job works for (its step, session or replayed version is its entity_id). */
function builderSession(job: Job): { builder_session_id?: string } {
  const id = job.kind === 'builder_run' ? job.input.sessionId : undefined;
  return typeof id === 'string' ? { builder_session_id: id } : {};
}

/** `extra`: what a route adds beside the row (its Temporal UI link, a live view). */
export function presentJob<E extends Record<string, unknown> = Record<never, never>>(job: Job, extra: E = {} as E) {
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
    ...builderSession(job),
    ...extra,
  };
}

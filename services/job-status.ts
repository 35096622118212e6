import { type DataSource, type EntityManager, In, Not } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Job, JobStatus, type JobTrackedEntity, JsonMap, TERMINAL_JOB_STATUSES } from '../entities';
import type { ArtifactStore } from '../platform/artifact-store';
import { recordTrainingUsage } from './billing/usage';
import { JOB_KINDS_REGISTRY, jobResources } from './job-kinds';

const OPEN: JobStatus[] = ['queued', 'running'];

export interface JobOutcome {
  status: JobStatus;
  result?: Record<string, unknown>;
  error?: string | null;
  message?: string;
}

/**
 * Moves a job and the resource it drives, in one transaction, and only from an open status:
 * a job that is already finished stays as it is (a late or repeated write changes nothing).
 * The one way job status is written: by the workflows' status activities, by a cancel that
 * found no workflow, and by the reconciler. A job that closes drops the files it kept only while
 * open (its kind's `releaseOnClose`): their rows in the same transaction, their bytes after it commits.
 */
export async function writeJobStatus(ds: DataSource, store: Pick<ArtifactStore, 'remove'>, jobId: string, outcome: JobOutcome): Promise<boolean> {
  const { moved, released } = await ds.transaction(async (em) => {
    const patch: QueryDeepPartialEntity<Job> = { status: outcome.status, message: outcome.message ?? outcome.status };
    if (outcome.status === 'running') {
      patch.startedAt = () => 'COALESCE(started_at, now())';
    } else {
      patch.finishedAt = () => 'COALESCE(finished_at, now())';
      patch.error = outcome.error ?? null;
    }
    if (outcome.status === 'succeeded') {
      patch.progress = 100;
      patch.result = (outcome.result ?? {}) as JsonMap;
    }
    const updated = await em
      .getRepository(Job)
      .createQueryBuilder()
      .update(Job)
      .set(patch)
      .where('id = :jobId AND status IN (:...open)', { jobId, open: OPEN })
      .returning('kind, entity_id, status, error')
      .execute();
    const row = updated.raw[0] as { kind: Job['kind']; entity_id: string | null; status: JobStatus; error: string | null } | undefined;
    if (!row) return { moved: false, released: [] };
    await moveResource(em, row.kind, jobId, row.entity_id, row.status, row.error);
    // A training job's minutes are metered as it closes, in this transaction (idempotent by job id).
    if (TERMINAL_JOB_STATUSES.includes(row.status)) await recordTrainingUsage(em, jobId);
    const release = JOB_KINDS_REGISTRY[row.kind].releaseOnClose;
    const released = release && row.entity_id && TERMINAL_JOB_STATUSES.includes(row.status) ? await release(em, row.entity_id) : [];
    return { moved: true, released };
  });
  // Best effort (remove never rejects): a file left by a crash right here is the artifact sweep's.
  for (const key of released) await store.remove(key);
  return moved;
}

/**
 * The job's resources follow its status, each in its own spelling; a finished resource stays finished. Written through
 * each resource's entity (its table and `JobTrackedEntity` columns from the metadata), so no table name is spelled here.
 */
async function moveResource(em: EntityManager, kind: Job['kind'], jobId: string, entityId: string | null, status: JobStatus, error: string | null): Promise<void> {
  for (const resource of jobResources(kind)) {
    const id = resource.key === 'job' ? jobId : entityId;
    if (!id) continue;
    const spelled = (s: JobStatus) => resource.statusOf?.(s) ?? s;
    const patch: QueryDeepPartialEntity<JobTrackedEntity> = {
      status: spelled(status),
      error: status === 'canceled' && resource.canceledError ? resource.canceledError : error,
      updatedAt: () => 'now()',
    };
    if (status === 'running') patch.startedAt = () => 'COALESCE(started_at, now())';
    if (TERMINAL_JOB_STATUSES.includes(status)) patch.finishedAt = () => 'now()';
    await em
      .createQueryBuilder()
      .update(resource.entity)
      .set(patch)
      .where({ id, status: Not(In(TERMINAL_JOB_STATUSES.map(spelled))) })
      .execute();
  }
}

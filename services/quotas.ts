import type { EntityManager } from 'typeorm';
import type { Config } from '../platform/config';
import { ForbiddenError } from './errors';

/** Bytes as a person reads them: 1.5 GB, 320 MB. */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${n} bytes` : `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/**
 * The storage quotas (`max_storage_bytes` per owner, `max_storage_bytes_per_project`): what a project's artifacts
 * (dataset files, models, exports, reports) hold is charged to the project and to its owner. Checked before an upload
 * is committed and before a job that writes files is created, so a full account is told at once (403) instead of
 * finding out from a job that failed; a job already running may finish past the line (nothing is cut half-written).
 */
export async function assertStorageRoom(em: EntityManager, config: Config, projectId: string, incomingBytes = 0): Promise<void> {
  const perUser = config.quotas.maxStorageBytesPerUser;
  const perProject = config.quotas.maxStorageBytesPerProject;
  if (perUser === null && perProject === null) return;
  const [row] = await em.query(
    `WITH owner AS (SELECT user_id FROM project_members WHERE project_id = $1 AND role = 'owner' LIMIT 1)
     SELECT (SELECT coalesce(sum(size_bytes), 0) FROM artifacts WHERE project_id = $1)::text AS project_bytes,
            (SELECT coalesce(sum(a.size_bytes), 0) FROM artifacts a
               JOIN project_members m ON m.project_id = a.project_id AND m.role = 'owner'
              WHERE m.user_id IN (SELECT user_id FROM owner))::text AS owner_bytes`,
    [projectId],
  );
  const project = Number(row.project_bytes) + incomingBytes;
  const owner = Number(row.owner_bytes) + incomingBytes;
  if (perProject !== null && project > perProject) {
    throw new ForbiddenError(
      `Storage quota reached: this project would hold ${formatBytes(project)} of at most ${formatBytes(perProject)} (max_storage_bytes_per_project of the plan); delete datasets, models, reports or exports to free space`,
    );
  }
  if (perUser !== null && owner > perUser) {
    throw new ForbiddenError(
      `Storage quota reached: the projects of this project's owner would hold ${formatBytes(owner)} of at most ${formatBytes(perUser)} (max_storage_bytes of the plan); delete datasets, models, reports or exports to free space`,
    );
  }
}

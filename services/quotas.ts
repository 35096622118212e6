import type { EntityManager } from 'typeorm';
import { ForbiddenError } from './errors';
import { limitsOfUser } from './plans';

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
 * The limits are the plan of the project's owner (services/plans.ts `planOfUser`): whoever uploads, the owner pays.
 */
export async function assertStorageRoom(em: EntityManager, projectId: string, incomingBytes = 0): Promise<void> {
  const [ownerRow]: { user_id: string }[] = await em.query(`SELECT user_id FROM project_members WHERE project_id = $1 AND role = 'owner' ORDER BY created_at LIMIT 1`, [projectId]);
  if (!ownerRow) return; // a project being deleted: nothing to charge
  const limits = await limitsOfUser(em, ownerRow.user_id);
  const perUser = limits.max_storage_bytes;
  const perProject = limits.max_storage_bytes_per_project;
  if (perUser === null && perProject === null) return;
  const [row] = await em.query(
    `WITH owner AS (SELECT $2::uuid AS user_id)
     SELECT (SELECT coalesce(sum(size_bytes), 0) FROM artifacts WHERE project_id = $1)::text AS project_bytes,
            (SELECT coalesce(sum(a.size_bytes), 0) FROM artifacts a
               JOIN project_members m ON m.project_id = a.project_id AND m.role = 'owner'
              WHERE m.user_id IN (SELECT user_id FROM owner))::text AS owner_bytes`,
    [projectId, ownerRow.user_id],
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

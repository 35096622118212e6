import type { DataSource, EntityManager } from 'typeorm';
import type { UsageKind } from '../../entities';

/** Jobs whose running time is metered as `training_minutes`. */
const TRAINING_KINDS = ['automl_train', 'synthgen_train'];

export type UsageTotals = Record<UsageKind, number>;

/** One metered quantity; a second record with the same key is ignored (idempotent). */
export interface UsageRecord {
  userId: string;
  projectId: string | null;
  kind: UsageKind;
  quantity: number;
  idempotencyKey: string;
  occurredAt: Date;
}

/** Writes a usage event unless its key is already there; true when it was written. */
export async function recordUsage(em: EntityManager | DataSource, r: UsageRecord): Promise<boolean> {
  const rows: unknown[] = await em.query(
    `INSERT INTO usage_events (id, user_id, project_id, kind, quantity, idempotency_key, occurred_at)
     VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
    [r.userId, r.projectId, r.kind, r.quantity, r.idempotencyKey, r.occurredAt],
  );
  return rows.length === 1;
}

/**
 * A training job's minutes, from its `started_at` to its `finished_at`, charged to whoever started it. Called by
 * `writeJobStatus` in the transaction that closes the job, which happens once; the key (`training:<job id>`) keeps a
 * repeated call (a retried status activity, the reconciler) from counting them twice. A job that never ran counts nothing.
 */
export async function recordTrainingUsage(em: EntityManager, jobId: string): Promise<void> {
  await em.query(
    `INSERT INTO usage_events (id, user_id, project_id, kind, quantity, idempotency_key, occurred_at)
     SELECT gen_random_uuid(), j.created_by, j.project_id, 'training_minutes',
            greatest(extract(epoch FROM (j.finished_at - j.started_at)) / 60, 0), 'training:' || j.id, j.finished_at
       FROM jobs j
      WHERE j.id = $1 AND j.kind = ANY($2) AND j.created_by IS NOT NULL AND j.started_at IS NOT NULL AND j.finished_at IS NOT NULL
     ON CONFLICT (idempotency_key) DO NOTHING`,
    [jobId, TRAINING_KINDS],
  );
}

/**
 * Today's storage sample of every user who owns projects: the GB their projects' artifacts hold now, times 24 hours
 * (one sample stands for the day). Keyed by user and day: run it as often as you like, a day is counted once.
 */
export async function sampleStorage(ds: DataSource, now = new Date()): Promise<number> {
  const day = now.toISOString().slice(0, 10);
  const rows: unknown[] = await ds.query(
    `INSERT INTO usage_events (id, user_id, project_id, kind, quantity, idempotency_key, occurred_at)
     SELECT gen_random_uuid(), m.user_id, NULL, 'storage_gb_hours', coalesce(sum(a.size_bytes), 0) / 1e9 * 24, 'storage:' || m.user_id || ':' || $1, $2
       FROM project_members m LEFT JOIN artifacts a ON a.project_id = m.project_id
      WHERE m.role = 'owner'
      GROUP BY m.user_id
     ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
    [day, now],
  );
  return rows.length;
}

/** The user's usage between two instants, per kind (kinds with none are 0). */
export async function usageTotals(ds: DataSource, userId: string, from: Date, to: Date): Promise<UsageTotals> {
  const rows: { kind: UsageKind; total: number }[] = await ds.query(
    `SELECT kind, sum(quantity)::float8 AS total FROM usage_events WHERE user_id = $1 AND occurred_at >= $2 AND occurred_at < $3 GROUP BY kind`,
    [userId, from, to],
  );
  const totals: UsageTotals = { training_minutes: 0, predictions: 0, storage_gb_hours: 0 };
  for (const r of rows) totals[r.kind] = Number(r.total);
  return totals;
}

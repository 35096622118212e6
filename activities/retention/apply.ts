import type { DataSource, EntityManager } from 'typeorm';
import { deleteAuditEntriesBefore } from '../../services/audit/retention';
import { auditCutoff, nextCandidates, type RetentionRule } from '../../services/retention/candidates';

/** Rows applied in one transaction: a batch commits whole or not at all, so a retry finds no half-applied batch. */
export const RETENTION_BATCH = 500;

/** What one batch did: rows taken, and the storage keys of the files whose rows went with them (removed after commit). */
export interface BatchOutcome {
  rows: number;
  storageKeys: string[];
}

/**
 * Applies the rule to its next batch of candidates, in one transaction: selected and changed together, so what the
 * rule keeps (a version an experiment started using a moment ago) is read where it is acted on. The files of deleted
 * rows are returned for removal once committed (a removal that fails leaves an unreferenced file, which the artifact
 * sweep removes later). Zero rows: the rule has nothing more to take.
 */
export function applyBatch(ds: DataSource, r: RetentionRule): Promise<BatchOutcome> {
  return ds.transaction(async (em) => {
    const batch = await nextCandidates(em, r, RETENTION_BATCH);
    if (!batch.length) return { rows: 0, storageKeys: [] };
    const ids = batch.map((b) => b.id);
    if (r.kind === 'audit_entries') return { rows: await applyAudit(em, r, batch), storageKeys: [] };
    if (r.action === 'anonymize') {
      // Only inference logs reach here (the policy refuses anonymize elsewhere): their stored request rows go.
      const [, n] = (await em.query('UPDATE inference_logs SET inputs = NULL WHERE id = ANY($1::bigint[])', [ids])) as [unknown, number];
      return { rows: n, storageKeys: [] };
    }
    switch (r.kind) {
      case 'inference_logs':
        return { rows: await deleted(em, 'DELETE FROM inference_logs WHERE id = ANY($1::bigint[])', [ids]), storageKeys: [] };
      case 'experiment_logs':
        return { rows: await deleted(em, 'DELETE FROM experiment_logs WHERE id = ANY($1::bigint[])', [ids]), storageKeys: [] };
      case 'dataset_versions': {
        const gone = (await em.query('DELETE FROM dataset_versions WHERE id = ANY($1::uuid[]) RETURNING artifact_id', [ids])) as [{ artifact_id: string }[], number];
        return {
          rows: gone[1],
          storageKeys: await deleteArtifacts(
            em,
            gone[0].map((g) => g.artifact_id),
            null,
            [],
          ),
        };
      }
      case 'reports': {
        const gone = (await em.query('DELETE FROM reports WHERE id = ANY($1::uuid[]) RETURNING artifact_id', [ids])) as [{ artifact_id: string | null }[], number];
        return {
          rows: gone[1],
          storageKeys: await deleteArtifacts(
            em,
            gone[0].flatMap((g) => (g.artifact_id ? [g.artifact_id] : [])),
            'report',
            ids,
          ),
        };
      }
      case 'synthetic_outputs': {
        const held = (await em.query('SELECT output_artifact_id, parquet_artifact_id FROM synthgen_jobs WHERE id = ANY($1::uuid[])', [ids])) as {
          output_artifact_id: string | null;
          parquet_artifact_id: string | null;
        }[];
        // The generation's row stays (its outputs' columns fall to null with their artifacts): its download answers 409.
        const outputs = held.flatMap((h) => [h.output_artifact_id, h.parquet_artifact_id].filter((a): a is string => a !== null));
        return { rows: held.length, storageKeys: await deleteArtifacts(em, outputs, 'synthgen_job', ids) };
      }
    }
  });
}

async function deleted(em: EntityManager, sql: string, params: unknown[]): Promise<number> {
  const [, n] = (await em.query(sql, params)) as [unknown, number];
  return n;
}

/** Deletes artifact rows by id and those owned by `ownerType`/`ownerIds`; their storage keys. */
async function deleteArtifacts(em: EntityManager, ids: string[], ownerType: string | null, ownerIds: string[]): Promise<string[]> {
  const [rows] = (await em.query(`DELETE FROM artifacts WHERE id = ANY($1::uuid[]) OR (owner_type = $2 AND owner_id = ANY($3::uuid[])) RETURNING storage_key`, [ids, ownerType, ownerIds])) as [
    { storage_key: string }[],
    number,
  ];
  return rows.map((r) => r.storage_key);
}

/**
 * Audit entries, through part audit's door for deletes (it lets this transaction past the append-only trigger); the
 * anonymizing update sets the same transaction-local switch, which the trigger also lets through for an UPDATE.
 */
async function applyAudit(em: EntityManager, r: RetentionRule, batch: { id: string; at: Date }[]): Promise<number> {
  if (r.action === 'anonymize') {
    await em.query("SELECT set_config('mlsvc.audit_retention', 'on', true)");
    return deleted(em, 'UPDATE audit_log SET ip = NULL, user_agent = NULL WHERE id = ANY($1::uuid[])', [batch.map((b) => b.id)]);
  }
  // By time (the door's only form): up to just past the batch's newest, never past the rule's cutoff.
  const cutoff = await auditCutoff(em, r);
  if (!cutoff) return 0;
  const newest = batch[batch.length - 1].at.getTime() + 1;
  return deleteAuditEntriesBefore(em, new Date(Math.min(newest, cutoff.getTime())));
}

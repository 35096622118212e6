import type { DataSource } from 'typeorm';
import type { ArtifactStore } from '../../platform/artifact-store';
import type { Logger } from '../../platform/logger';
import type { RetentionJobInput, RetentionJobResult } from '../../services/retention';
import type { JobProgress } from '../job-activity';
import { applyBatch } from './apply';

/** Where a run stands, carried by the heartbeat: rows taken so far per kind, files removed. */
export interface RetentionResume {
  rows: Record<string, number>;
  files: number;
}

/**
 * Works through the job's policies in order, a batch at a time, until each has nothing left to take. Progress is by
 * policy (the total is not counted first: that would cost another pass over the largest tables).
 */
export async function runRetention(
  deps: { ds: DataSource; store: Pick<ArtifactStore, 'remove'>; log: Logger },
  input: RetentionJobInput,
  progress: JobProgress<RetentionResume>,
  resumeFrom: RetentionResume | undefined,
): Promise<RetentionJobResult> {
  const state: RetentionResume = { rows: { ...resumeFrom?.rows }, files: resumeFrom?.files ?? 0 };
  const asOf = new Date(input.as_of);
  for (const [i, p] of input.policies.entries()) {
    const rule = { kind: p.kind, action: p.action, keepDays: p.keep_days, keepLatest: p.keep_latest, asOf };
    state.rows[p.kind] ??= 0;
    for (;;) {
      // Throws once the job is canceled: the run stops here, between two committed batches.
      await progress((100 * i) / input.policies.length, `${p.kind}: ${state.rows[p.kind]} ${p.action === 'delete' ? 'deleted' : 'anonymized'}`, state);
      const batch = await applyBatch(deps.ds, rule);
      if (!batch.rows) break;
      state.rows[p.kind] += batch.rows;
      for (const key of batch.storageKeys) {
        // The row is gone; a file that cannot be removed now is unreferenced, and the artifact sweep removes it later.
        await deps.store.remove(key).then(
          () => (state.files += 1),
          (err: unknown) => deps.log.warn({ err, key }, 'retention: stored file not removed; the artifact sweep will'),
        );
      }
    }
  }
  return {
    as_of: input.as_of,
    kinds: input.policies.map((p) => ({ kind: p.kind, action: p.action, rows: state.rows[p.kind] ?? 0 })),
    files_removed: state.files,
  };
}

import type { DataSource } from 'typeorm';
import type { ArtifactStore } from '../platform/artifact-store';
import type { Logger } from '../platform/logger';

/** Storage keys looked up in one query. */
const BATCH = 500;
/** Removed keys named in the sweep's log line (the count is always there). */
const LOGGED_KEYS = 20;

export interface SweepResult {
  /** Stored objects older than the grace period. */
  checked: number;
  /** Of those, the ones no artifact row referenced: removed. */
  removed: number;
}

/**
 * Removes stored files that no artifact row references: what an attempt that died between storing a file and
 * committing its row left behind, or a retried attempt's duplicate. Every writer stores the file first and commits its
 * row right after, so a file younger than `graceSecs` may be one whose row is on its way and is never touched; the
 * grace period must be longer than any single write takes (ARTIFACT_SWEEP_GRACE_SECS). Run by the API's maintenance
 * loop every ARTIFACT_SWEEP_INTERVAL_SECS; several processes sweeping at once remove nothing twice that matters.
 */
export class ArtifactSweep {
  constructor(
    private readonly ds: DataSource,
    private readonly store: ArtifactStore,
    private readonly log: Logger,
    private readonly graceSecs: number,
  ) {}

  /** One pass over the store; stops between batches once `signal` is aborted (the process is stopping). */
  async run(signal?: AbortSignal): Promise<SweepResult> {
    const olderThan = Date.now() - this.graceSecs * 1000;
    const result: SweepResult = { checked: 0, removed: 0 };
    const removedKeys: string[] = [];
    let batch: string[] = [];
    const flush = async () => {
      const orphans = await this.unreferenced(batch);
      batch = [];
      for (const key of orphans) {
        await this.store.remove(key);
        result.removed += 1;
        if (removedKeys.length < LOGGED_KEYS) removedKeys.push(key);
      }
    };
    for await (const o of this.store.list()) {
      if (signal?.aborted) break;
      if (o.storedAt.getTime() >= olderThan) continue;
      result.checked += 1;
      batch.push(o.storageKey);
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length && !signal?.aborted) await flush();
    if (result.removed) this.log.info({ ...result, keys: removedKeys, graceSecs: this.graceSecs }, 'artifact sweep: removed stored files no artifact row references');
    return result;
  }

  /** The keys of `keys` that no artifact row names. */
  private async unreferenced(keys: string[]): Promise<string[]> {
    if (!keys.length) return [];
    const rows: { storage_key: string }[] = await this.ds.query('SELECT storage_key FROM artifacts WHERE storage_key = ANY($1)', [keys]);
    const referenced = new Set(rows.map((r) => r.storage_key));
    return keys.filter((k) => !referenced.has(k));
  }
}

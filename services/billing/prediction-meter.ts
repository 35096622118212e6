import type { DataSource } from 'typeorm';
import type { Logger } from '../../platform/logger';

/** How often the counted predictions are written (one statement for everything counted). */
const FLUSH_EVERY_MS = 10_000;

interface Counted {
  userId: string;
  projectId: string;
  /** The idempotency key's source part: `<deployment id>` (the key deployments have always had) or `model:<model id>`. */
  source: string;
  minute: string;
  n: number;
}

/**
 * Predictions are metered in batches: the predict path only adds to a counter in memory (no database work per
 * request); every {@link FLUSH_EVERY_MS} the counts go out as one upsert of one `usage_events` row per source, user
 * and minute (`predictions:<deployment>:<user>:<minute>`, `predictions:model:<model>:<user>:<minute>`), to which every
 * API process adds its count. A flush that fails keeps its counts for the next one; `close()` (the API's clean
 * shutdown) writes what is left.
 */
export class PredictionMeter {
  private counts = new Map<string, Counted>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly ds: DataSource,
    private readonly log: Logger,
  ) {}

  /** Counts `n` predictions a deployment answered for a user (its own predict route, or an A/B test's variant). */
  count(userId: string, deployment: { id: string; projectId: string }, n: number, at = new Date()): void {
    this.add({ userId, projectId: deployment.projectId, source: deployment.id, minute: minuteOf(at), n });
  }

  /** Counts `n` predictions a model answered when called directly (`POST /api/models/{id}/predict`, its batch form). */
  countModel(userId: string, model: { id: string; projectId: string }, n: number, at = new Date()): void {
    this.add({ userId, projectId: model.projectId, source: `model:${model.id}`, minute: minuteOf(at), n });
  }

  private add(counted: Counted): void {
    const key = `${counted.source}:${counted.userId}:${counted.minute}`;
    const c = this.counts.get(key);
    if (c) c.n += counted.n;
    else this.counts.set(key, { ...counted });
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush().catch((err) => this.log.warn({ err }, 'prediction usage not written; kept for the next flush')), FLUSH_EVERY_MS);
      this.timer.unref();
    }
  }

  /** Writes what was counted (one flush at a time). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.counts.size) return;
    const batch = [...this.counts.values()];
    this.counts = new Map();
    this.flushing = this.write(batch)
      .catch((err) => {
        // Put the counts back for the next flush (merged with what arrived meanwhile).
        for (const b of batch) this.add(b);
        throw err;
      })
      .finally(() => (this.flushing = null));
    await this.flushing;
  }

  async close(): Promise<void> {
    await this.flush().catch((err) => this.log.warn({ err }, 'prediction usage not written at shutdown'));
    if (this.timer) clearTimeout(this.timer);
  }

  private async write(batch: Counted[]): Promise<void> {
    // A project deleted since the count leaves its usage without a project (the foreign key would refuse the row).
    await this.ds.query(
      `INSERT INTO usage_events (id, user_id, project_id, kind, quantity, idempotency_key, occurred_at)
       SELECT gen_random_uuid(), b.user_id, p.id, 'predictions', b.n, 'predictions:' || b.source || ':' || b.user_id || ':' || b.minute, b.minute::timestamptz
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::float8[]) AS b(user_id, project_id, source, minute, n)
         JOIN users u ON u.id = b.user_id
         LEFT JOIN projects p ON p.id = b.project_id
       ON CONFLICT (idempotency_key) DO UPDATE SET quantity = usage_events.quantity + EXCLUDED.quantity`,
      [batch.map((b) => b.userId), batch.map((b) => b.projectId), batch.map((b) => b.source), batch.map((b) => b.minute), batch.map((b) => b.n)],
    );
  }
}

/** The minute `at` falls in, as the ISO instant of its start (the key's and the row's time). */
function minuteOf(at: Date): string {
  return new Date(Math.floor(at.getTime() / 60_000) * 60_000).toISOString();
}

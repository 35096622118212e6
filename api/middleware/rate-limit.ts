import type { DataSource } from 'typeorm';
import type { Config } from '../../platform/config';
import type { AppContext } from '../context';
import { tooManyRequests } from '../errors';

export type RateBucket = 'general' | 'auth' | 'predict' | 'train' | 'report' | 'ai' | 'members';

/** The longest window of `hitLimit` (a plan's predictions per minute); the table keeps windows twice this long. */
const PLAN_WINDOW_MS_MAX = 60_000;

/** How often counted hits are written to the shared table. */
const FLUSH_MS = 100;

interface Window {
  key: string;
  start: Date;
  /** The window's length (the buckets' WINDOW_SECS, or a plan limit's own). */
  ms: number;
  /** The shared count as last read from PostgreSQL (every process's flushed hits). */
  shared: number;
  /** Hits being written right now (not yet in `shared`). */
  writing: number;
  /** Hits counted here and not yet written. */
  unflushed: number;
  /** The first hit of a window in this process waits for the shared count. */
  synced?: Promise<void>;
}

/**
 * Fixed-window counters shared by every API process through PostgreSQL, counted in memory
 * and written behind. The first hit of a window in a process reads the shared count (one
 * round trip); later hits are decided locally as shared + unwritten and written in one batched
 * upsert every FLUSH_MS. Within one process the count is exact; across processes a window
 * can admit what the others counted in their last FLUSH_MS. That is the price of keeping a
 * write off every request: at peak a per-request upsert was the slowest step of a prediction.
 * Headers on every limited response, Retry-After on 429.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private flushTimer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private lastSweep = 0;

  constructor(
    private readonly ds: DataSource,
    private readonly limits: Config['rateLimits'],
    /** Told of every refused request (metrics). */
    private readonly onRejected: (bucket: RateBucket) => void = () => undefined,
  ) {}

  async hit(ctx: AppContext, bucket: RateBucket, subject: string): Promise<void> {
    await this.count(ctx, `${bucket}:${subject}`, this.limits[bucket], this.limits.windowSecs, () => this.onRejected(bucket));
  }

  /**
   * A window of its own beside the buckets (a plan's `predictions_per_minute`): `key` counted in windows of
   * `windowSecs`, refused past `limit` (null: counted, never refused) with `detail` naming the limit. Its headers are
   * set only on the refusal, so those of the route's bucket stay on the answers it lets through.
   */
  async hitLimit(ctx: AppContext, key: string, limit: number | null, windowSecs: number, detail: string): Promise<void> {
    await this.count(ctx, key, limit ?? Number.MAX_SAFE_INTEGER, windowSecs, () => undefined, { detail, quiet: true });
  }

  private async count(ctx: AppContext, key: string, limit: number, windowSecs: number, rejected: () => void, opts: { detail?: string; quiet?: boolean } = {}): Promise<void> {
    const windowMs = windowSecs * 1000;
    const now = Date.now();
    const start = Math.floor(now / windowMs) * windowMs;
    const resetAt = Math.floor((start + windowMs) / 1000);
    let w = this.windows.get(key);
    if (!w || w.start.getTime() !== start) {
      w = { key, start: new Date(start), ms: windowMs, shared: 0, writing: 0, unflushed: 0 };
      this.windows.set(key, w);
    }
    w.unflushed++;
    if (!w.synced) {
      const first = w;
      first.synced = this.write([first]).catch((err) => {
        first.synced = undefined; // the next hit tries again
        throw err;
      });
    }
    await w.synced;
    this.scheduleFlush();
    const count = w.shared + w.writing + w.unflushed;
    const headers = {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - count)),
      'X-RateLimit-Reset': String(resetAt),
    };
    this.maybeSweep(now, windowMs);
    if (count > limit) {
      rejected();
      throw tooManyRequests({ ...headers, 'Retry-After': String(Math.max(1, resetAt - Math.floor(now / 1000))) }, opts.detail);
    }
    if (!opts.quiet) for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
  }

  /** Writes what is counted and not yet written (tests, and the API's graceful shutdown, so a restart forgets no hit). */
  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    await this.flushing;
    const dirty = [...this.windows.values()].filter((w) => w.unflushed > 0);
    if (dirty.length) await this.write(dirty);
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flushing = this.flush().catch(() => undefined); // counted hits stay unflushed and go with the next batch
    }, FLUSH_MS);
    this.flushTimer.unref();
  }

  /** One upsert for a batch of windows; each learns the shared count it now has. */
  private async write(batch: Window[]): Promise<void> {
    const deltas = batch.map((w) => w.unflushed);
    batch.forEach((w, i) => {
      w.unflushed = 0;
      w.writing += deltas[i];
    });
    try {
      const rows: { bucket_key: string; count: number }[] = await this.ds.query(
        `INSERT INTO rate_limit_windows (bucket_key, window_start, count)
         SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::int[])
         ON CONFLICT (bucket_key, window_start) DO UPDATE SET count = rate_limit_windows.count + EXCLUDED.count
         RETURNING bucket_key, count`,
        [batch.map((w) => w.key), batch.map((w) => w.start), deltas],
      );
      const counts = new Map(rows.map((r) => [r.bucket_key, Number(r.count)]));
      // Two writes of one window can overlap (first-hit sync and a batch): the larger count is the newer.
      for (const w of batch) w.shared = Math.max(w.shared, counts.get(w.key) ?? 0);
    } catch (err) {
      batch.forEach((w, i) => (w.unflushed += deltas[i]));
      throw err;
    } finally {
      batch.forEach((w, i) => (w.writing -= deltas[i]));
    }
  }

  /** Old windows are dead weight, here and in the table; drop them now and then. */
  private maybeSweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [k, w] of this.windows) if (w.start.getTime() + w.ms < now && w.unflushed === 0) this.windows.delete(k);
    // The longest window any limit uses (a plan's minute may outlast the buckets' window).
    const longest = Math.max(windowMs, this.limits.windowSecs * 1000, PLAN_WINDOW_MS_MAX);
    void this.ds.query('DELETE FROM rate_limit_windows WHERE window_start < $1', [new Date(now - 2 * longest)]).catch(() => undefined);
  }
}

import type { DataSource } from 'typeorm';
import type { Config } from '../../platform/config';
import type { AppContext } from '../context';
import { tooManyRequests } from '../errors';

export type RateBucket = 'general' | 'auth' | 'predict' | 'train' | 'report' | 'ai';

/**
 * Fixed-window counters in PostgreSQL, so every API process shares them. One atomic
 * upsert per request; headers on every limited response, Retry-After on 429.
 */
export class RateLimiter {
  private lastSweep = 0;

  constructor(
    private readonly ds: DataSource,
    private readonly limits: Config['rateLimits'],
  ) {}

  async hit(ctx: AppContext, bucket: RateBucket, subject: string): Promise<void> {
    const limit = this.limits[bucket];
    const windowMs = this.limits.windowSecs * 1000;
    const now = Date.now();
    const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
    const resetAt = Math.floor((windowStart.getTime() + windowMs) / 1000);
    const rows: { count: number }[] = await this.ds.query(
      `INSERT INTO rate_limit_windows (bucket_key, window_start, count) VALUES ($1, $2, 1)
       ON CONFLICT (bucket_key, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
       RETURNING count`,
      [`${bucket}:${subject}`, windowStart],
    );
    const count = Number(rows[0].count);
    const headers = {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - count)),
      'X-RateLimit-Reset': String(resetAt),
    };
    this.maybeSweep(now, windowMs);
    if (count > limit) {
      throw tooManyRequests({ ...headers, 'Retry-After': String(Math.max(1, resetAt - Math.floor(now / 1000))) });
    }
    for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
  }

  /** Old windows are dead weight; drop them now and then. */
  private maybeSweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < 5 * 60 * 1000) return;
    this.lastSweep = now;
    void this.ds
      .query('DELETE FROM rate_limit_windows WHERE window_start < $1', [new Date(now - 2 * windowMs)])
      .catch(() => undefined);
  }
}

import { TtlCache } from '../../platform/ttl-cache';
import { PREDICTIONS_WINDOW, type Plans } from '../../services/plans';
import type { AppContext } from '../context';
import type { RateLimiter } from './rate-limit';

/** A plan change reaches the predict path within this time (the plan is read once per user per window, not per request). */
const PLAN_CACHE_MS = 5_000;

/**
 * The plan's `predictions_per_minute`, checked on every `predict` route after its rate bucket: the caller's predict
 * requests, over all deployments, in one-minute windows shared by the API processes like the buckets. Past the limit:
 * 429 with Retry-After and a detail naming the limit. Counted even without a limit, so usage shows this minute's.
 */
export function planPredictionLimit(plans: Plans, limiter: RateLimiter): (ctx: AppContext, userId: string) => Promise<void> {
  const limits = new TtlCache<string, number | null>(PLAN_CACHE_MS);
  return async (ctx, userId) => {
    const limit = await limits.getOrLoad(userId, async () => (await plans.of(userId)).limits.predictions_per_minute);
    const detail = `Rate limit exceeded: at most ${limit} predictions a minute (predictions_per_minute of the plan)`;
    await limiter.hitLimit(ctx, PREDICTIONS_WINDOW.key(userId), limit, PREDICTIONS_WINDOW.secs, detail);
  };
}

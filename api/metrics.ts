import { timingSafeEqual, createHash } from 'node:crypto';
import type Koa from 'koa';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { BoundedLabel, createRegistry } from '../platform/metrics';
import type { Logger } from '../platform/logger';
import type { Services } from '../services';
import type { RateBucket } from './middleware/rate-limit';

/** Methods that get their own label value; anything else (PROPFIND, TRACE …) is `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Distinct model ids the prediction counter labels per process before it lumps the rest as `_other`. */
const MAX_MODEL_SERIES = 500;
/** Latency buckets (seconds): a cached prediction takes about a millisecond, an upload or an export minutes. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
/** A scrape never waits longer than this for the jobs count (the other series are answered anyway). */
const JOBS_QUERY_TIMEOUT_MS = 2_000;

/**
 * The API's Prometheus metrics (README "Metrics" lists them). Labels are bounded: routes are the router's templates
 * (`/api/models/:model_id/predict`, never the raw URL), unknown paths share `unmatched`, model ids are capped per
 * process, and no user, project or request data becomes a label.
 */
export class ApiMetrics {
  readonly registry: Registry;
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route' | 'status'>;
  private readonly predictions: Counter<'model_id'>;
  private readonly rejections: Counter<'bucket'>;
  private readonly logsDropped: Counter<'reason'>;
  private readonly modelLabel = new BoundedLabel(MAX_MODEL_SERIES);

  constructor(services: Pick<Services, 'jobs' | 'serving' | 'inferenceLogs'>, log: Logger) {
    const registers = [(this.registry = createRegistry())];
    this.requests = new Counter({ name: 'mlsvc_http_requests_total', help: 'HTTP requests answered, by method, route template and status', labelNames: ['method', 'route', 'status'], registers });
    this.latency = new Histogram({
      name: 'mlsvc_http_request_duration_seconds',
      help: 'Time from the request to the last byte of its answer, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.predictions = new Counter({
      name: 'mlsvc_predictions_total',
      help: `Rows scored, by model (at most ${MAX_MODEL_SERIES} model ids per process; the rest as _other)`,
      labelNames: ['model_id'],
      registers,
    });
    this.rejections = new Counter({ name: 'mlsvc_rate_limit_rejections_total', help: 'Requests refused with 429, by rate-limit bucket', labelNames: ['bucket'], registers });
    new Gauge({
      name: 'mlsvc_jobs',
      help: 'Open jobs (queued, running) by kind and status, read from the jobs table at scrape time',
      labelNames: ['kind', 'status'],
      registers,
      async collect() {
        this.reset();
        try {
          const rows = await withTimeout(services.jobs.openCounts(), JOBS_QUERY_TIMEOUT_MS);
          for (const r of rows) this.set({ kind: r.kind, status: r.status }, r.count);
        } catch (err) {
          // The scrape still answers the other series; a missing mlsvc_jobs says the database did not.
          log.warn({ err }, 'metrics: jobs could not be counted');
        }
      },
    });
    services.serving.onPredicted((modelId, rows) => this.predictions.inc({ model_id: this.modelLabel.of(modelId) }, rows));
    this.logsDropped = new Counter({
      name: 'mlsvc_inference_logs_dropped_total',
      help: 'Inference log rows dropped instead of written: unwritable (the database refused the row) or buffer_full (the buffer overflowed while the database was unreachable)',
      labelNames: ['reason'],
      registers,
    });
    // Both series from the start: an alert on their rate needs them before the first drop.
    for (const reason of ['unwritable', 'buffer_full'] as const) this.logsDropped.inc({ reason }, 0);
    services.inferenceLogs.onDropped((rows, reason) => this.logsDropped.inc({ reason }, rows));
  }

  /** Counts a 429 (given to the rate limiter). */
  rateLimited(bucket: RateBucket): void {
    this.rejections.inc({ bucket });
  }

  /**
   * Times every request until its answer is sent (a streamed download included) and counts it under the route the
   * router matched. First in the chain, so errors and refusals are counted with the status they were answered with.
   */
  middleware(): Koa.Middleware {
    return async (ctx, next) => {
      const started = process.hrtime.bigint();
      ctx.res.once('close', () => {
        const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
        const labels = {
          method: METHODS.has(ctx.method) ? ctx.method : 'other',
          route: typeof matched === 'string' ? matched : 'unmatched',
          // A client that went away before any answer is `aborted`, not the 200 Node presets.
          status: ctx.res.headersSent ? String(ctx.res.statusCode) : 'aborted',
        };
        this.requests.inc(labels);
        this.latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      });
      await next();
    };
  }

  /**
   * Answers a scrape. With a token configured the caller must send it as a bearer token (compared in constant time);
   * a missing or wrong one is a 401 that says nothing more.
   */
  async scrape(ctx: Koa.Context, token: string | null): Promise<void> {
    if (token !== null && !bearerMatches(ctx.get('authorization'), token)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.body = { detail: 'Not authenticated' };
      return;
    }
    ctx.set('Content-Type', this.registry.contentType);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await this.registry.metrics();
  }
}

function bearerMatches(header: string, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header);
  if (!m) return false;
  // Hashes have equal lengths, so the comparison leaks neither the token nor its length.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1].trim()), digest(token));
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

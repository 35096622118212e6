import type { DataSource } from 'typeorm';
import { InferenceLog, PrivacyPolicy, PrivacyRule } from '../entities';
import type { Logger } from '../platform/logger';
import type { Access } from './access';
import type { DeploymentPredictOptions, RoutedRequest } from './deployment-predictions';
import type { Page, PageQuery } from './lists';
import type { InputRow } from './model-serving';
import { ValidationError } from './errors';
import { anonymizeJson, DEFAULT_PRIVACY_THRESHOLD, LogPolicy, PayloadPrivacy, privatizeRows } from './payload-privacy';
import { effectiveRules } from './privacy/effective-rules';
import { projectSecrets } from './privacy/secrets';

const POLICY_CACHE_MS = 5_000;
const MAX_CACHED_POLICIES = 1_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One predict request as it is buffered before its row is written. */
interface PendingLog {
  deploymentId: string;
  requestedDeploymentId: string;
  modelId: string;
  projectId: string;
  requestId: string;
  latencyMs: number;
  statusCode: number;
  /** The request's predictions and (with store_payload) rows, made private and serialized when written, off the request path. */
  predictions: unknown[] | null;
  rows: InputRow[] | null;
  single: boolean;
  privacy: PayloadPrivacy;
  createdAt: Date;
}

/** A pending row's prediction and inputs as stored: PII masked or redacted per its privacy. */
function storedPayload(b: PendingLog, policy?: LogPolicy): { prediction: string | null; inputs: string | null } {
  const one = <T>(xs: T[]) => (b.single ? xs[0] : xs);
  const predictions = b.predictions && b.privacy.anonymize ? anonymizeJson(b.predictions, b.privacy.threshold, policy) : b.predictions;
  const rows = b.rows ? privatizeRows(b.rows, b.privacy, policy) : null;
  return { prediction: predictions === null ? null : JSON.stringify(one(predictions)), inputs: rows === null ? null : JSON.stringify(one(rows)) };
}

export interface InferenceLogQuery extends PageQuery {
  since?: Date;
  until?: Date;
}

const MAX_BATCH = 5_000;
/** What the buffer holds at most while the database is unreachable; older rows are dropped (and counted). */
const MAX_BUFFERED = 100_000;

/**
 * Inference logs, written off the request path: a predict request appends to an in-memory buffer
 * and answers; every `flushEveryMs` (INFERENCE_LOG_FLUSH_MS, 200) the buffer goes to PostgreSQL in one INSERT (unnest over
 * column arrays, so a batch is one statement with ten parameters whatever its size). A failed
 * write keeps the rows for the next flush; past MAX_BUFFERED the oldest are dropped and counted
 * in `stats().dropped` (a warning is logged), so a database outage costs logs, never memory or
 * latency. `close()` (the API's clean shutdown) writes what is left. Reads in this process flush
 * first, so a caller sees its own requests.
 */
/** The longest window `traffic` aggregates (744 hourly rows). */
const MAX_TRAFFIC_WINDOW_MS = 31 * 24 * 3600_000;

export class InferenceLogs {
  private buffer: PendingLog[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | null = null;
  private written = 0;
  private dropped = 0;

  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly log: Logger,
    private readonly flushEveryMs = 200,
  ) {}

  /**
   * Buffers the log row of one request. Inputs are kept only with `store_payload` (the request's
   * option, else the deployment's); what is kept is made private when the row is written (see
   * {@link storedPayload}), not here on the request path.
   */
  record(
    r: RoutedRequest,
    e: { requestId: string; latencyMs: number; statusCode: number; predictions: unknown[] | null; rows: InputRow[]; single: boolean; options?: Partial<DeploymentPredictOptions> },
  ): void {
    const config = r.deployment.config as {
      store_payload?: boolean;
      privacy_column_map?: Record<string, string>;
      privacy_anonymize_logs?: boolean;
      privacy_threshold?: number;
      privacy_policy_id?: string | null;
    };
    const store = e.options?.store_payload ?? config.store_payload ?? false;
    const privacy: PayloadPrivacy = {
      columnMap: config.privacy_column_map ?? {},
      anonymize: e.options?.anonymize_logs ?? config.privacy_anonymize_logs ?? false,
      threshold: config.privacy_threshold ?? DEFAULT_PRIVACY_THRESHOLD,
      policyId: e.options?.privacy_policy_id ?? config.privacy_policy_id ?? null,
    };
    if (this.buffer.length >= MAX_BUFFERED) {
      this.buffer.shift();
      if (this.dropped++ % 1000 === 0) this.log.warn({ dropped: this.dropped }, 'inference log buffer full: dropping the oldest rows');
    }
    this.buffer.push({
      deploymentId: r.deployment.id,
      requestedDeploymentId: r.requested.id,
      modelId: r.model.id,
      projectId: r.deployment.projectId,
      requestId: e.requestId,
      latencyMs: e.latencyMs,
      statusCode: e.statusCode,
      predictions: e.predictions,
      rows: store ? e.rows : null,
      single: e.single,
      privacy,
      createdAt: new Date(),
    });
    if (!this.timer) {
      this.timer = setInterval(() => void this.flush(), this.flushEveryMs);
      this.timer.unref();
    }
  }

  /** Writes everything buffered so far (one flush at a time; callers arriving meanwhile wait for it). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (!this.buffer.length) return;
    this.flushing = this.writeBuffered().finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  /** Stops the timer and writes what is left (clean shutdown). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
    if (this.buffer.length) this.log.warn({ lost: this.buffer.length }, 'inference logs not written at shutdown');
  }

  stats() {
    return { buffered: this.buffer.length, written: this.written, dropped: this.dropped };
  }

  /** A deployment's logs, newest first, within [since, until]. */
  async list(userId: string, deploymentId: string, q: InferenceLogQuery): Promise<Page<InferenceLog>> {
    await this.access.deployment(userId, deploymentId);
    await this.flush();
    const qb = this.ds.getRepository(InferenceLog).createQueryBuilder('l').where('l.deployment_id = :deploymentId', { deploymentId });
    if (q.since) qb.andWhere('l.created_at > :since', { since: q.since });
    if (q.until) qb.andWhere('l.created_at < :until', { until: q.until });
    const total = await qb.getCount();
    const items = await qb.orderBy('l.created_at', 'DESC').addOrderBy('l.id', 'DESC').offset(q.offset).limit(q.limit).getMany();
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /** Requests, errors (status ≥ 400) and latency percentiles per hour, over the last 24 hours by default (31 days at most). */
  async traffic(userId: string, deploymentId: string, q: { since?: Date; until?: Date }) {
    await this.access.deployment(userId, deploymentId);
    await this.flush();
    const until = q.until ?? new Date();
    const since = q.since ?? new Date(until.getTime() - 24 * 3600_000);
    // One row per hour: a window is bounded so an answer (and its aggregation) is too.
    if (until.getTime() - since.getTime() > MAX_TRAFFIC_WINDOW_MS) throw ValidationError.field(['query', 'since'], 'The window from since to until may span at most 31 days');
    const rows: { hour: Date; requests: number; errors: number; p50: number; p95: number; p99: number }[] = await this.ds.query(
      `SELECT date_trunc('hour', created_at) AS hour, count(*)::int AS requests, (count(*) FILTER (WHERE status_code >= 400))::int AS errors,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY latency_ms) AS p99
         FROM inference_logs WHERE deployment_id = $1 AND created_at >= $2 AND created_at < $3
        GROUP BY 1 ORDER BY 1`,
      [deploymentId, since, until],
    );
    return { deployment_id: deploymentId, since, until, hours: rows.map((r) => ({ hour: r.hour, requests: r.requests, errors: r.errors, latency_ms: { p50: r.p50, p95: r.p95, p99: r.p99 } })) };
  }

  /** (policy id → rules and keys) for TTL ms: a policy change reaches the logs within that. */
  private readonly policyCache = new Map<string, { at: number; policy: LogPolicy | undefined }>();

  /**
   * The policies the batch's rows name, each read once (and cached briefly). A request's policy id
   * that is not a policy of the row's project is ignored: the row keeps the default redaction.
   */
  private async logPolicies(batch: PendingLog[]): Promise<Map<string, LogPolicy | undefined>> {
    const out = new Map<string, LogPolicy | undefined>();
    for (const b of batch) {
      const id = b.privacy.policyId;
      if (!id || !(b.rows || b.privacy.anonymize)) continue;
      const key = `${b.projectId}/${id}`;
      if (out.has(key)) continue;
      const hit = this.policyCache.get(key);
      if (hit && Date.now() - hit.at < POLICY_CACHE_MS) {
        out.set(key, hit.policy);
        continue;
      }
      const policy = UUID.test(id) ? await this.ds.getRepository(PrivacyPolicy).findOneBy({ id, projectId: b.projectId }) : null;
      const loaded = policy
        ? { ruleOf: effectiveRules(policy, await this.ds.getRepository(PrivacyRule).findBy({ policyId: policy.id })), secrets: await projectSecrets(this.ds, b.projectId) }
        : undefined;
      // Request options name policy ids freely: expired entries go, and the cache never outgrows its bound.
      if (this.policyCache.size >= MAX_CACHED_POLICIES) for (const [k, v] of this.policyCache) if (Date.now() - v.at >= POLICY_CACHE_MS) this.policyCache.delete(k);
      if (this.policyCache.size >= MAX_CACHED_POLICIES) this.policyCache.clear();
      this.policyCache.set(key, { at: Date.now(), policy: loaded });
      out.set(key, loaded);
    }
    return out;
  }

  private async writeBuffered(): Promise<void> {
    while (this.buffer.length) {
      const batch = this.buffer.splice(0, MAX_BATCH);
      let payloads: { prediction: string | null; inputs: string | null }[];
      try {
        const policies = await this.logPolicies(batch);
        payloads = batch.map((b) => storedPayload(b, b.privacy.policyId ? policies.get(`${b.projectId}/${b.privacy.policyId}`) : undefined));
      } catch (err) {
        this.log.warn({ err }, 'inference log privacy policies could not be read; retrying on the next flush');
        this.buffer.unshift(...batch);
        return;
      }
      try {
        // Rows of a deployment deleted meanwhile (its model was deleted) are skipped, not a failed batch.
        await this.ds.query(
          `INSERT INTO inference_logs (deployment_id, requested_deployment_id, model_id, project_id, request_id, latency_ms, status_code, prediction, inputs, created_at)
           SELECT v.* FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::float8[], $7::int[], $8::jsonb[], $9::jsonb[], $10::timestamptz[])
                AS v(deployment_id, requested_deployment_id, model_id, project_id, request_id, latency_ms, status_code, prediction, inputs, created_at)
            WHERE EXISTS (SELECT 1 FROM deployments d WHERE d.id = v.deployment_id)`,
          [
            batch.map((b) => b.deploymentId),
            batch.map((b) => b.requestedDeploymentId),
            batch.map((b) => b.modelId),
            batch.map((b) => b.projectId),
            batch.map((b) => b.requestId),
            batch.map((b) => b.latencyMs),
            batch.map((b) => b.statusCode),
            payloads.map((p) => p.prediction),
            payloads.map((p) => p.inputs),
            batch.map((b) => b.createdAt),
          ],
        );
        this.written += batch.length;
      } catch (err) {
        this.log.warn({ err, rows: batch.length }, 'inference log write failed; retrying on the next flush');
        this.buffer.unshift(...batch);
        const over = this.buffer.length - MAX_BUFFERED;
        if (over > 0) {
          this.buffer.splice(0, over);
          this.dropped += over;
        }
        return;
      }
    }
  }
}

import type { DataSource } from 'typeorm';
import { InferenceLog, Model, PrivacyPolicy, PrivacyRule } from '../entities';
import type { Logger } from '../platform/logger';
import type { Access } from './access';
import type { DeploymentPredictOptions } from './deployment-predictions';
import type { RoutedRequest } from './deployment-routing';
import { sqlDirection, type Page, type PageQuery } from './lists';
import { loggableRows, storableJson } from './loggable-payload';
import type { InputRow, InputWarning } from './model-serving';
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
  /**
   * The request's predictions and (with store_payload) rows, the latter already cut to the model's input columns
   * ({@link loggableRows}); made private and serialized when written, off the request path.
   */
  predictions: unknown[] | null;
  rows: InputRow[] | null;
  /** What the rows lacked or carried beyond the schema (ModelServing's warnings), if anything. */
  warnings: InputWarning[] | null;
  /** The `detail` a refused request was answered with; null when it was answered. */
  error: unknown;
  single: boolean;
  privacy: PayloadPrivacy;
  createdAt: Date;
}

/** A pending row with its JSON columns as they are written. */
interface Serialized {
  pending: PendingLog;
  prediction: string | null;
  inputs: string | null;
  warnings: string | null;
  error: string | null;
}

/** A pending row's prediction, inputs and warnings as stored: PII masked or redacted per its privacy, text storable. */
function serialized(b: PendingLog, policy?: LogPolicy): Serialized {
  const one = <T>(xs: T[]) => (b.single ? xs[0] : xs);
  const predictions = b.predictions && b.privacy.anonymize ? anonymizeJson(b.predictions, b.privacy.threshold, policy) : b.predictions;
  const rows = b.rows ? privatizeRows(b.rows, b.privacy, policy) : null;
  return {
    pending: b,
    prediction: predictions === null ? null : storableJson(one(predictions)),
    inputs: rows === null ? null : storableJson(one(rows)),
    warnings: b.warnings === null ? null : storableJson(b.warnings),
    // An error's detail may quote a value of the request (a validation message): anonymized as predictions are.
    error: b.error === null || b.error === undefined ? null : storableJson(b.privacy.anonymize ? anonymizeJson(b.error, b.privacy.threshold, policy) : b.error),
  };
}

/** Why buffered rows were not written: the database refused their data, or the buffer was full during an outage. */
export type DropReason = 'unwritable' | 'buffer_full';

/**
 * SQLSTATE classes of faults in a row's data (22 data exception, 23 integrity constraint, 54 program limit): retrying
 * cannot fix them. Any other failure (the database unreachable, restarting, overloaded) is retried.
 */
const DATA_FAULT_CLASSES = new Set(['22', '23', '54']);

function sqlState(err: unknown): string | undefined {
  const e = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** How one write went: rows the database refused (by SQLSTATE), and what an outage left unwritten. */
interface WriteOutcome {
  refused: string[];
  unwritten: Serialized[];
  failure?: unknown;
}

/** The orders a log list can be read in (`sort_field`). */
export const INFERENCE_LOG_SORT_FIELDS = ['created_at', 'latency_ms', 'status_code'] as const;

export interface InferenceLogQuery extends PageQuery {
  since?: Date;
  until?: Date;
  /** `ok`: answered (status below 400); `error`: refused or failed (400 and above). */
  status?: 'ok' | 'error';
  status_code?: number;
  sort_field?: (typeof INFERENCE_LOG_SORT_FIELDS)[number];
  sort_direction?: 'asc' | 'desc';
}

/** Column of each sort field; the id breaks ties so pages never overlap. */
const SORT_COLUMNS: Record<(typeof INFERENCE_LOG_SORT_FIELDS)[number], string> = { created_at: 'l.created_at', latency_ms: 'l.latency_ms', status_code: 'l.status_code' };

const MAX_BATCH = 5_000;
/** What the buffer holds at most while the database is unreachable; older rows are dropped (and counted). */
const MAX_BUFFERED = 100_000;
/** While writes keep failing, the log says so at most this often (a flush is tried every 200 ms). */
const OUTAGE_LOG_EVERY_MS = 60_000;

/**
 * Inference logs, written off the request path: a predict request appends to an in-memory buffer
 * and answers; every `flushEveryMs` (INFERENCE_LOG_FLUSH_MS, 200) the buffer goes to PostgreSQL in one INSERT (unnest over
 * column arrays, so a batch is one statement with twelve parameters whatever its size).
 *
 * One row must never hold the others: a batch the database refuses for its data is split in halves until the refused
 * rows are alone, and those are dropped, counted (`stats().dropped`, `onDropped`, the API's
 * `mlsvc_inference_logs_dropped_total`) and logged once per batch. What was recorded is bounded before it is
 * buffered (the model's input columns, scalars; see {@link loggableRows}) and made storable when written. Any other
 * failure (the database unreachable) keeps the rows for the next flush, logged when it starts, at most once a minute
 * while it lasts, and when it ends; past MAX_BUFFERED the oldest are dropped and counted, so an outage costs logs,
 * never memory or latency. `close()` (the API's clean shutdown) writes what is left. Reads in this process flush
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
  private readonly dropListeners: ((rows: number, reason: DropReason) => void)[] = [];
  /** When writes began to fail for a reason other than the rows' data, and when that was last logged. */
  private outageSince: number | null = null;
  private outageLoggedAt = 0;

  /**
   * @param inputsOf the input columns of a model (ModelServing's, for the models it has loaded): what a stored row
   * keeps; a row of a model it does not know keeps no inputs.
   */
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly log: Logger,
    private readonly flushEveryMs = 200,
    private readonly inputsOf: (model: Model) => ReadonlySet<string> | null = () => null,
  ) {}

  /** Calls `listener` with the count and reason of every drop of buffered rows from now on (the API's metrics count them). */
  onDropped(listener: (rows: number, reason: DropReason) => void): void {
    this.dropListeners.push(listener);
  }

  /**
   * Buffers the log row of one request. Inputs are kept only with `store_payload` (the request's
   * option, else the deployment's); what is kept is made private when the row is written (see
   * {@link storedPayload}), not here on the request path.
   */
  record(
    r: RoutedRequest,
    e: {
      requestId: string;
      latencyMs: number;
      statusCode: number;
      predictions: unknown[] | null;
      rows: InputRow[];
      single: boolean;
      warnings?: InputWarning[];
      /** The `detail` of a refused request's answer. */
      error?: unknown;
      options?: Partial<DeploymentPredictOptions>;
    },
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
      this.drop(1, 'buffer_full');
      if (this.dropped % 1000 === 1) this.log.warn({ dropped: this.dropped }, 'inference log buffer full: dropping the oldest rows');
    }
    const inputs = store ? this.inputsOf(r.model) : null;
    this.buffer.push({
      deploymentId: r.deployment.id,
      requestedDeploymentId: r.requested.id,
      modelId: r.model.id,
      projectId: r.deployment.projectId,
      requestId: e.requestId,
      latencyMs: e.latencyMs,
      statusCode: e.statusCode,
      predictions: e.predictions,
      rows: inputs ? loggableRows(e.rows, inputs) : null,
      warnings: e.warnings?.length ? e.warnings : null,
      error: e.error ?? null,
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

  /** A deployment's logs within (since, until), of a status class or code; newest first unless sorted otherwise. */
  async list(userId: string, deploymentId: string, q: InferenceLogQuery): Promise<Page<InferenceLog>> {
    await this.access.deployment(userId, deploymentId);
    await this.flush();
    const qb = this.ds.getRepository(InferenceLog).createQueryBuilder('l').where('l.deployment_id = :deploymentId', { deploymentId });
    if (q.since) qb.andWhere('l.created_at > :since', { since: q.since });
    if (q.until) qb.andWhere('l.created_at < :until', { until: q.until });
    if (q.status === 'ok') qb.andWhere('l.status_code < 400');
    if (q.status === 'error') qb.andWhere('l.status_code >= 400');
    if (q.status_code !== undefined) qb.andWhere('l.status_code = :code', { code: q.status_code });
    const total = await qb.getCount();
    const dir = sqlDirection(q.sort_direction ?? 'desc');
    const items = await qb
      .orderBy(SORT_COLUMNS[q.sort_field ?? 'created_at'], dir)
      .addOrderBy('l.id', dir)
      .offset(q.offset)
      .limit(q.limit)
      .getMany();
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
      let policies: Map<string, LogPolicy | undefined>;
      try {
        policies = await this.logPolicies(batch);
      } catch (err) {
        this.keepForNextFlush(batch, err, 'privacy policies could not be read');
        return;
      }
      const rows: Serialized[] = [];
      let unserializable = 0;
      for (const b of batch) {
        try {
          rows.push(serialized(b, b.privacy.policyId ? policies.get(`${b.projectId}/${b.privacy.policyId}`) : undefined));
        } catch {
          unserializable++;
        }
      }
      const outcome: WriteOutcome = { refused: [], unwritten: [] };
      await this.insertSplitting(rows, outcome);
      const refused = unserializable + outcome.refused.length;
      if (refused) {
        this.drop(refused, 'unwritable');
        // Once per batch, with the SQLSTATEs only: the database's messages quote the refused values, which may be PII.
        this.log.warn({ rows: refused, sqlstates: [...new Set(outcome.refused)], unserializable }, 'inference log rows the database refuses were dropped');
      }
      if (outcome.unwritten.length) {
        this.keepForNextFlush(
          outcome.unwritten.map((r) => r.pending),
          outcome.failure,
          'write failed',
        );
        return;
      }
      if (this.outageSince !== null) {
        this.log.info({ failingForMs: Date.now() - this.outageSince }, 'inference logs are written again');
        this.outageSince = null;
      }
    }
  }

  /**
   * Writes `rows`. A batch the database refuses for its data is split in halves until each refused row is alone; those
   * are left out (their SQLSTATE in `out.refused`). Any other failure stops here: what was not written goes to
   * `out.unwritten`, kept for the next flush.
   */
  private async insertSplitting(rows: Serialized[], out: WriteOutcome): Promise<void> {
    if (!rows.length) return;
    try {
      await this.insert(rows);
      this.written += rows.length;
    } catch (err) {
      const state = sqlState(err);
      if (!state || !DATA_FAULT_CLASSES.has(state.slice(0, 2))) {
        out.unwritten.push(...rows);
        out.failure = err;
      } else if (rows.length === 1) out.refused.push(state);
      else {
        const half = rows.length >> 1;
        await this.insertSplitting(rows.slice(0, half), out);
        if (out.failure === undefined) await this.insertSplitting(rows.slice(half), out);
        else out.unwritten.push(...rows.slice(half));
      }
    }
  }

  private async insert(rows: Serialized[]): Promise<void> {
    const of = <T>(f: (b: PendingLog) => T) => rows.map((r) => f(r.pending));
    // Rows of a deployment deleted meanwhile (its model was deleted) are skipped, not a failed batch.
    await this.ds.query(
      `INSERT INTO inference_logs (deployment_id, requested_deployment_id, model_id, project_id, request_id, latency_ms, status_code, prediction, inputs, warnings, created_at, error)
       SELECT v.* FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::float8[], $7::int[], $8::jsonb[], $9::jsonb[], $10::jsonb[], $11::timestamptz[], $12::jsonb[])
            AS v(deployment_id, requested_deployment_id, model_id, project_id, request_id, latency_ms, status_code, prediction, inputs, warnings, created_at, error)
        WHERE EXISTS (SELECT 1 FROM deployments d WHERE d.id = v.deployment_id)`,
      [
        of((b) => b.deploymentId),
        of((b) => b.requestedDeploymentId),
        of((b) => b.modelId),
        of((b) => b.projectId),
        of((b) => b.requestId),
        of((b) => b.latencyMs),
        of((b) => b.statusCode),
        rows.map((r) => r.prediction),
        rows.map((r) => r.inputs),
        rows.map((r) => r.warnings),
        of((b) => b.createdAt),
        rows.map((r) => r.error),
      ],
    );
  }

  /** Puts rows a failed write left back at the head of the buffer (past MAX_BUFFERED the oldest go), logging the outage sparingly. */
  private keepForNextFlush(rows: PendingLog[], err: unknown, what: string): void {
    this.buffer.unshift(...rows);
    const over = this.buffer.length - MAX_BUFFERED;
    if (over > 0) {
      this.buffer.splice(0, over);
      this.drop(over, 'buffer_full');
    }
    const now = Date.now();
    if (this.outageSince === null) {
      this.outageSince = now;
      this.outageLoggedAt = now;
      this.log.warn({ err, buffered: this.buffer.length }, `inference logs not written (${what}); kept for the next flush`);
    } else if (now - this.outageLoggedAt >= OUTAGE_LOG_EVERY_MS) {
      this.outageLoggedAt = now;
      this.log.warn({ sqlstate: sqlState(err), failingForMs: now - this.outageSince, buffered: this.buffer.length, dropped: this.dropped }, `inference logs still not written (${what})`);
    }
  }

  private drop(rows: number, reason: DropReason): void {
    this.dropped += rows;
    for (const listener of this.dropListeners) listener(rows, reason);
  }
}

import type { DataSource } from 'typeorm';
import { Not } from 'typeorm';
import { type AlertOperator, type AlertRule, Deployment } from '../../entities';
import type { DatasetVersions } from '../../services/dataset-versions';
import type { ModelServing } from '../../services/model-serving';
import { accuracyDegradation, driftPsi, modelStaleness, predictionAnomaly } from './model-metrics';

/** What the metrics are read from: the database, and for the model-based ones the served model and its training data. */
export interface MetricSources {
  ds: DataSource;
  serving: ModelServing;
  datasetVersions: DatasetVersions;
}

/** A rule's metric for one deployment (or for the project: `job_failures`). */
export interface Measurement {
  deploymentId: string | null;
  /** null: nothing to compute it from (no requests in the window, no labels and no stored inputs, ...). */
  value: number | null;
  /** The observations behind the value (requests, compared rows, labelled predictions). */
  samples: number;
  /** Accuracy estimated from the model's probabilities (CBPE) because too few labels arrived. */
  estimated: boolean;
  /**
   * Enough observations for the rule to decide (`min_samples`): a rule neither fires nor resolves without them.
   * Counts and ages (request_volume, job_failures, model_staleness) are always decidable: zero requests is a value.
   */
  sufficient: boolean;
  /** What the measurement adds to the alert's labels (`newer_dataset_version`); not part of its fingerprint. */
  labels: Record<string, string>;
}

/** The window a rule reads: [now − window_minutes, now). */
export interface Window {
  since: Date;
  until: Date;
}

/**
 * One evaluation cycle's shared reads: a query serves every rule of the same metric group and window (and every
 * deployment at once, `GROUP BY deployment_id`), so 100 rules cost a handful of queries, not 100.
 */
export class MeasureCycle {
  private readonly reads = new Map<string, Promise<unknown>>();

  once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let p = this.reads.get(key) as Promise<T> | undefined;
    if (!p) {
      p = read();
      this.reads.set(key, p);
    }
    return p;
  }
}

/** The deployments a project's rules watch by default: every one not archived. */
export function watchedDeployments(ds: DataSource, projectId: string): Promise<Deployment[]> {
  return ds.getRepository(Deployment).find({ where: { projectId, stage: Not('archived') }, order: { createdAt: 'ASC' } });
}

/** The rule's condition on a value. */
export function conditionHolds(operator: AlertOperator, value: number, threshold: number): boolean {
  switch (operator) {
    case 'gt':
      return value > threshold;
    case 'lt':
      return value < threshold;
    case 'gte':
      return value >= threshold;
    case 'lte':
      return value <= threshold;
    case 'eq':
      return value === threshold;
    case 'neq':
      return value !== threshold;
  }
}

/** Whether a measurement makes the rule fire: a value, enough samples, and the condition. */
export function wouldFire(rule: Pick<AlertRule, 'operator' | 'threshold'>, m: Measurement): boolean {
  return m.sufficient && m.value !== null && conditionHolds(rule.operator, m.value, rule.threshold);
}

/**
 * The rule's metric now, one measurement per deployment in its scope (its own deployment, else each of
 * `deployments`; `job_failures` is the project's, one measurement without a deployment). Reads only the window, on
 * indexed columns (`inference_logs (deployment_id, created_at)`, `jobs (project_id)`), bounded where rows are read
 * into memory.
 */
export async function measureRule(src: MetricSources, rule: AlertRule, deployments: Deployment[], now: Date, cycle = new MeasureCycle()): Promise<Measurement[]> {
  const window: Window = { since: new Date(now.getTime() - rule.windowMinutes * 60_000), until: now };
  const key = `${rule.windowMinutes}:${now.getTime()}`;
  if (rule.metric === 'job_failures') {
    const n = await cycle.once(`jobs:${rule.projectId}:${key}`, () => failedJobs(src.ds, rule.projectId, window));
    return [{ deploymentId: null, value: n, samples: n, estimated: false, sufficient: true, labels: {} }];
  }
  const scope = rule.deploymentId ? deployments.filter((d) => d.id === rule.deploymentId) : deployments;
  if (!scope.length) return [];
  switch (rule.metric) {
    case 'error_rate':
    case 'latency_p95':
    case 'latency_p99':
    case 'request_volume': {
      const stats = await cycle.once(`traffic:${deployments.map((d) => d.id).join()}:${key}`, () => traffic(src.ds, deployments, window));
      return scope.map((d) => fromTraffic(rule, d.id, stats.get(d.id)));
    }
    default:
      return Promise.all(scope.map((d) => cycle.once(`${rule.metric}:${d.id}:${key}:${rule.minSamples}`, () => modelMetric(src, rule, d, window))));
  }
}

function modelMetric(src: MetricSources, rule: AlertRule, d: Deployment, window: Window): Promise<Measurement> {
  switch (rule.metric) {
    case 'drift_psi':
      return driftPsi(src, d, window, rule.minSamples);
    case 'prediction_anomaly':
      return predictionAnomaly(src, d, window, rule.minSamples);
    case 'accuracy_degradation':
      return accuracyDegradation(src, d, window, rule.minSamples);
    case 'model_staleness':
      return modelStaleness(src.ds, d, window.until);
    default:
      throw new Error(`no measurement for metric ${rule.metric}`);
  }
}

interface TrafficStats {
  requests: number;
  errors: number;
  p95: number | null;
  p99: number | null;
}

/** Requests, errors and latency percentiles of the window, per deployment, in one indexed query. */
async function traffic(ds: DataSource, deployments: Deployment[], window: Window): Promise<Map<string, TrafficStats>> {
  const rows: { deployment_id: string; requests: number; errors: number; p95: number | null; p99: number | null }[] = await ds.query(
    `SELECT deployment_id, count(*)::int AS requests, (count(*) FILTER (WHERE status_code >= 400))::int AS errors,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95,
            percentile_cont(0.99) WITHIN GROUP (ORDER BY latency_ms) AS p99
       FROM inference_logs
      WHERE deployment_id = ANY($1::uuid[]) AND created_at >= $2 AND created_at < $3
      GROUP BY deployment_id`,
    [deployments.map((d) => d.id), window.since, window.until],
  );
  return new Map(rows.map((r) => [r.deployment_id, { requests: r.requests, errors: r.errors, p95: r.p95, p99: r.p99 }]));
}

function fromTraffic(rule: AlertRule, deploymentId: string, s: TrafficStats | undefined): Measurement {
  const requests = s?.requests ?? 0;
  const base = { deploymentId, samples: requests, estimated: false, labels: {} };
  if (rule.metric === 'request_volume') return { ...base, value: requests, sufficient: true };
  const value = !s || requests === 0 ? null : rule.metric === 'error_rate' ? s.errors / requests : rule.metric === 'latency_p95' ? s.p95 : s.p99;
  return { ...base, value, sufficient: value !== null && requests >= rule.minSamples };
}

/** Jobs of the project that failed in the window. */
async function failedJobs(ds: DataSource, projectId: string, window: Window): Promise<number> {
  const [row]: { n: number }[] = await ds.query(`SELECT count(*)::int AS n FROM jobs WHERE project_id = $1 AND status = 'failed' AND finished_at >= $2 AND finished_at < $3`, [
    projectId,
    window.since,
    window.until,
  ]);
  return row.n;
}

import type { DataSource } from 'typeorm';
import type { Logger } from '../platform/logger';
import type { DeploymentPredictOptions } from './deployment-predictions';
import { RoutedRequest, trafficBucket } from './deployment-routing';
import type { ServingTarget } from './deployment-targets';
import type { DeploymentService } from './deployments';
import type { InferenceLogs } from './inference-logs';
import type { InputRow } from './model-serving';

/** Pairs read at most for a comparison (the newest). */
const MAX_COMPARED_REQUESTS = 20_000;

/**
 * The shadow of a served request, when the production deployment has a shadow candidate and the request falls in its
 * sample: scored by the candidate and logged in the candidate's own inference log under the same request id. Called
 * once the answer is sent; its errors are logged, never answered.
 */
export async function mirrorToShadow(
  deps: { deployments: DeploymentService; inferenceLogs: InferenceLogs; log: Logger },
  t: ServingTarget,
  served: RoutedRequest,
  e: { requestId: string; rows: InputRow[]; single: boolean; options: DeploymentPredictOptions },
): Promise<void> {
  const shadow = t.shadow;
  // Only the stable's own answers are mirrored (a canary's share is the canary's), and only the sample (a salted
  // bucket, so the sample does not line up with the canary's buckets).
  if (!shadow || served.deployment.id !== t.deployment.id || trafficBucket(`shadow:${e.requestId}`) >= shadow.samplePercent) return;
  const routed: RoutedRequest = { requested: t.deployment, deployment: shadow.deployment, model: shadow.model };
  const t0 = process.hrtime.bigint();
  const ms = () => Number(process.hrtime.bigint() - t0) / 1e6;
  const record = (statusCode: number, predictions: unknown[] | null) =>
    deps.inferenceLogs.record(routed, { requestId: e.requestId, latencyMs: ms(), statusCode, predictions, rows: e.rows, single: e.single, options: { store_payload: false } });
  try {
    const out = await deps.deployments.predict(routed, e.rows, { ...e.options, include_contributions: false });
    record(
      200,
      out.predictions.map((p) => p.prediction),
    );
  } catch (err) {
    const status = (err as { name?: string }).name === 'ValidationError' || (err as { name?: string }).name === 'DataError' ? 422 : 500;
    record(status, null);
    deps.log.debug({ err: (err as Error).message, deployment: shadow.deployment.id }, 'shadow prediction failed');
  }
}

export interface ShadowComparison {
  deployment_id: string;
  shadow_deployment_id: string;
  rollout_id: string;
  since: Date;
  /** Requests the stable answered (200) in the period. */
  requests: number;
  /** Of those, the ones the shadow answered too (each row of a batch compared). */
  compared: number;
  agreement_rate: number | null;
  mean_abs_delta: number | null;
  delta_p50: number | null;
  delta_p95: number | null;
  tolerance: number;
  latency_ms: { stable: { p50: number | null; p95: number | null }; shadow: { p50: number | null; p95: number | null } };
  /** Mirrored requests the shadow failed. */
  errors: number;
}

/**
 * The stable's answers against the shadow's, request by request (the same request id), since the shadow began.
 * Classification agrees on the same label; regression when |Δ| ≤ `tolerance`. Deltas are over numeric answers only.
 */
export async function compareShadow(ds: DataSource, p: { stableId: string; shadowId: string; rolloutId: string; since: Date; tolerance: number }): Promise<ShadowComparison> {
  const pairs: { stable: unknown; shadow: unknown; shadow_status: number | null }[] = await ds.query(
    `SELECT s.prediction AS stable, c.prediction AS shadow, c.status_code AS shadow_status
       FROM inference_logs s
       LEFT JOIN inference_logs c ON c.deployment_id = $2 AND c.request_id = s.request_id
      WHERE s.deployment_id = $1 AND s.status_code = 200 AND s.created_at >= $3
      ORDER BY s.created_at DESC LIMIT $4`,
    [p.stableId, p.shadowId, p.since, MAX_COMPARED_REQUESTS],
  );
  const [lat]: { sp50: number | null; sp95: number | null; cp50: number | null; cp95: number | null; errors: number }[] = await ds.query(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE deployment_id = $1) AS sp50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE deployment_id = $1) AS sp95,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE deployment_id = $2 AND status_code = 200) AS cp50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE deployment_id = $2 AND status_code = 200) AS cp95,
            (count(*) FILTER (WHERE deployment_id = $2 AND status_code >= 400))::int AS errors
       FROM inference_logs WHERE deployment_id = ANY(ARRAY[$1, $2]::uuid[]) AND created_at >= $3`,
    [p.stableId, p.shadowId, p.since],
  );
  let compared = 0;
  let agreed = 0;
  const deltas: number[] = [];
  for (const r of pairs) {
    if (r.shadow_status !== 200 || r.shadow === null || r.shadow === undefined) continue;
    const a = Array.isArray(r.stable) ? r.stable : [r.stable];
    const b = Array.isArray(r.shadow) ? r.shadow : [r.shadow];
    if (a.length !== b.length) continue;
    a.forEach((x, i) => {
      compared += 1;
      const y = b[i];
      if (typeof x === 'number' && typeof y === 'number') {
        const d = Math.abs(x - y);
        deltas.push(d);
        if (d <= p.tolerance) agreed += 1;
      } else if (String(x) === String(y)) agreed += 1;
    });
  }
  deltas.sort((x, y) => x - y);
  const q = (f: number) => (deltas.length ? deltas[Math.min(deltas.length - 1, Math.floor(f * deltas.length))] : null);
  return {
    deployment_id: p.stableId,
    shadow_deployment_id: p.shadowId,
    rollout_id: p.rolloutId,
    since: p.since,
    requests: pairs.length,
    compared,
    agreement_rate: compared ? agreed / compared : null,
    mean_abs_delta: deltas.length ? deltas.reduce((s, d) => s + d, 0) / deltas.length : null,
    delta_p50: q(0.5),
    delta_p95: q(0.95),
    tolerance: p.tolerance,
    latency_ms: { stable: { p50: lat?.sp50 ?? null, p95: lat?.sp95 ?? null }, shadow: { p50: lat?.cp50 ?? null, p95: lat?.cp95 ?? null } },
    errors: lat?.errors ?? 0,
  };
}

import type { DataSource } from 'typeorm';
import type { AbMetric, AbTest } from '../entities';
import { RunningMoments, sequentialTest, type Moments, type SequentialResult } from '../engine/stats';
import { sameLabel } from './outcome-labels';

/** What log loss charges a row whose actual class had probability 0 (the usual clip, as scikit-learn does). */
const MIN_PROBABILITY = 1e-15;

export interface AbVariantStats {
  name: string;
  deployment_id: string;
  n: number;
  mean: number | null;
  std: number | null;
}

export interface AbComparison {
  variant: string;
  against: string;
  effect: number | null;
  ci_low: number | null;
  ci_high: number | null;
  p_value: number;
  significant: boolean;
}

/** A test's statistics as read now: each variant's observations, and each variant against the control. */
export interface AbStats {
  metric: AbMetric;
  higher_is_better: boolean;
  alpha: number;
  /** The level each comparison is tested at (Bonferroni over the variants compared with the control). */
  adjusted_alpha: number;
  min_samples: number;
  variants: AbVariantStats[];
  comparisons: AbComparison[];
}

export function higherIsBetter(metric: AbMetric): boolean {
  return metric !== 'log_loss';
}

/**
 * The observations of a test per variant, as moments, and the sequential test over them (engine/stats). One
 * observation is:
 * - conversion / revenue: one assigned request, its posted outcome or 0 when none was posted (a conversion rate and
 *   revenue per request over every exposure, as A/B tools count them);
 * - accuracy: one labelled row (feedback on the variant's deployment), 1 when the prediction was right;
 * - log_loss: one labelled row of a classifier, −ln p(actual class).
 */
export async function readAbStats(ds: DataSource, test: AbTest): Promise<{ stats: AbStats; result: SequentialResult }> {
  const moments = test.primaryMetric === 'conversion' || test.primaryMetric === 'revenue' ? await outcomeMoments(ds, test.id) : await labelledMoments(ds, test.id, test.primaryMetric);
  const arms = test.variants.map((v) => moments.get(v.name) ?? { n: 0, mean: 0, variance: 0 });
  const result = sequentialTest(arms, { alpha: test.alpha, minSamples: test.minSamples, higherIsBetter: higherIsBetter(test.primaryMetric) });
  const finite = (x: number | null) => (x !== null && Number.isFinite(x) ? x : null);
  const stats: AbStats = {
    metric: test.primaryMetric,
    higher_is_better: higherIsBetter(test.primaryMetric),
    alpha: test.alpha,
    adjusted_alpha: result.adjustedAlpha,
    min_samples: test.minSamples,
    variants: test.variants.map((v, i) => ({
      name: v.name,
      deployment_id: v.deployment_id,
      n: arms[i].n,
      mean: arms[i].n ? finite(arms[i].mean) : null,
      std: arms[i].n > 1 ? finite(Math.sqrt(arms[i].variance)) : null,
    })),
    comparisons: result.comparisons.map((c) => ({
      variant: test.variants[c.arm].name,
      against: test.variants[0].name,
      effect: arms[0].n && arms[c.arm].n ? finite(c.effect) : null,
      ci_low: finite(c.ciLow),
      ci_high: finite(c.ciHigh),
      p_value: c.pValue,
      significant: c.significant,
    })),
  };
  return { stats, result };
}

/** Every assigned request counts, its outcome or 0; PostgreSQL's avg and var_samp are stable for large values. */
async function outcomeMoments(ds: DataSource, testId: string): Promise<Map<string, Moments>> {
  const rows: { variant: string; n: number; mean: number; variance: number | null }[] = await ds.query(
    `SELECT a.variant, count(*)::int AS n, avg(coalesce(o.value, 0)) AS mean, var_samp(coalesce(o.value, 0)) AS variance
       FROM ab_assignments a LEFT JOIN ab_outcomes o ON o.test_id = a.test_id AND o.request_id = a.request_id
      WHERE a.test_id = $1 GROUP BY a.variant`,
    [testId],
  );
  return new Map(rows.map((r) => [r.variant, { n: r.n, mean: Number(r.mean), variance: Number(r.variance ?? 0) }]));
}

/** Labelled rows: a batch request pairs its rows with an array of outcomes (a mismatched one is left out, not guessed). */
async function labelledMoments(ds: DataSource, testId: string, metric: AbMetric): Promise<Map<string, Moments>> {
  const rows: { variant: string; predictions: unknown[] | null; probabilities: (Record<string, number> | null)[] | null; actual: unknown }[] = await ds.query(
    `SELECT a.variant, a.predictions, a.probabilities, f.actual
       FROM ab_assignments a JOIN inference_feedback f ON f.deployment_id = a.deployment_id AND f.request_id = a.request_id
      WHERE a.test_id = $1 AND a.predictions IS NOT NULL`,
    [testId],
  );
  const acc = new Map<string, RunningMoments>();
  for (const r of rows) {
    const predictions = r.predictions ?? [];
    const actuals = Array.isArray(r.actual) ? r.actual : [r.actual];
    if (actuals.length !== predictions.length) continue;
    const m = acc.get(r.variant) ?? new RunningMoments();
    acc.set(r.variant, m);
    actuals.forEach((actual, i) => {
      const value = metric === 'accuracy' ? (sameLabel(actual, predictions[i]) ? 1 : 0) : logLoss(actual, r.probabilities?.[i] ?? null);
      if (value !== null) m.add(value);
    });
  }
  return new Map([...acc].map(([k, m]) => [k, m.snapshot()]));
}

/** −ln p(actual) from a row's class probabilities (its class named as the model names it, or any spelling sameLabel takes). */
function logLoss(actual: unknown, probabilities: Record<string, number> | null): number | null {
  if (!probabilities) return null;
  const key = Object.keys(probabilities).find((k) => sameLabel(actual, k));
  const p = key === undefined ? 0 : Number(probabilities[key]);
  return -Math.log(Math.max(Number.isFinite(p) ? p : 0, MIN_PROBABILITY));
}

import { binarySummary, type Frame, getColumn, largerIsBetter, metricKey, multiclassMetrics, regressionMetrics } from '../../engine/automl';

/** A model's predictions as the serving layer answers them. */
export interface ScoredRows {
  kind: 'binary' | 'multiclass' | 'regression';
  classes: string[];
  predictions: { prediction: unknown; probabilities?: Record<string, number> }[];
}

/** The actual values of the target column of a frame, as text for classes and numbers for regression (null: missing). */
export function actualValues(frame: Frame, target: string): (string | number | null)[] {
  const c = getColumn(frame, target);
  const out: (string | number | null)[] = [];
  for (let i = 0; i < frame.nrows; i++) {
    if (c.kind === 'categorical') out.push(c.codes[i] < 0 ? null : c.levels[c.codes[i]]);
    else if (c.kind === 'numeric') out.push(Number.isNaN(c.values[i]) ? null : c.values[i]);
    else out.push(Number.isNaN(c.epochMs[i]) ? null : c.epochMs[i]);
  }
  return out;
}

/**
 * One model's value of `sortMetric` (an experiment's sort metric: AUC, logloss, RMSE, ...) on labelled rows, computed as
 * training computes it (engine/automl/metrics). Rows without a label, or with a class the model does not know, are
 * left out. NaN when no row is left or the metric does not apply to the model's kind.
 */
export function holdoutMetric(scored: ScoredRows, actual: (string | number | null)[], sortMetric: string): number {
  const key = metricKey(sortMetric);
  const rows = actual.map((a, i) => ({ a, p: scored.predictions[i] })).filter((r) => r.a !== null && r.p);
  if (scored.kind === 'regression') {
    const y = rows.map((r) => Number(r.a));
    const pred = rows.map((r) => Number(r.p.prediction));
    if (!y.length) return NaN;
    const m = regressionMetrics(y, pred) as unknown as Record<string, number>;
    return key === 'deviance' ? m.mean_residual_deviance : (m[key] ?? NaN);
  }
  const index = new Map(scored.classes.map((c, k) => [c, k]));
  const known = rows.filter((r) => index.has(String(r.a)));
  if (!known.length) return NaN;
  if (scored.kind === 'binary') {
    const positive = scored.classes[1];
    const y = known.map((r) => (String(r.a) === positive ? 1 : 0));
    const p = known.map((r) => r.p.probabilities?.[positive] ?? 0);
    if (new Set(y).size < 2 && ['auc', 'aucpr', 'mcc'].includes(key)) return NaN;
    return (binarySummary(y, p) as unknown as Record<string, number>)[key] ?? NaN;
  }
  const K = scored.classes.length;
  const y = known.map((r) => index.get(String(r.a)) as number);
  const probs = known.flatMap((r) => scored.classes.map((c) => r.p.probabilities?.[c] ?? 0));
  return (multiclassMetrics(y, probs, K) as unknown as Record<string, number>)[key] ?? NaN;
}

/** How much better the challenger is than the champion on `sortMetric` (positive: better), whatever its direction. */
export function improvementOf(sortMetric: string, champion: number, challenger: number): number {
  return largerIsBetter(sortMetric) ? challenger - champion : champion - challenger;
}

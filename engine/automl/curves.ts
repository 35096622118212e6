import { CumulativeCounts, cumulativeCounts } from './metrics';

/**
 * Threshold curves of a binary model on held-out scores (out-of-fold or validation rows): the precision-recall
 * curve and a threshold table, kept with the model so its page can show them without the data.
 */

/** Precision and recall at each threshold, recall increasing (threshold decreasing); `p >= threshold` is positive. */
export interface PrecisionRecallCurve {
  precision: number[];
  recall: number[];
  thresholds: number[];
}

/** The figures of predicting positive at `p >= threshold`. */
export interface ThresholdRow {
  threshold: number;
  /** Fraction of the held-out rows predicted positive. */
  positive_rate: number;
  precision: number;
  recall: number;
  f1: number;
  /** Precision over the base rate of positives: how much better than picking rows at random. */
  lift: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export interface BinaryCurves {
  pr_curve: PrecisionRecallCurve;
  threshold_table: ThresholdRow[];
}

/** Points kept of a PR curve: a curve on many rows has one point per distinct score. */
export const MAX_CURVE_POINTS = 200;
/** Rows of a threshold table: one per 5% of the held-out rows predicted positive. */
export const THRESHOLD_ROWS = 20;

/** Indices 0..len-1 thinned to at most `max`, first and last kept. */
export function thinIndices(len: number, max: number): number[] {
  if (len <= max) return Array.from({ length: len }, (_, i) => i);
  const out: number[] = [];
  const step = (len - 1) / (max - 1);
  for (let i = 0; i < max; i++) out.push(Math.round(i * step));
  return [...new Set(out)];
}

/** The PR curve from cumulative counts (sklearn precision_recall_curve, without its (recall 0, precision 1) end point). */
export function precisionRecallCurve(counts: CumulativeCounts, maxPoints = MAX_CURVE_POINTS): PrecisionRecallCurve {
  const { thr, tps, fps } = counts;
  const P = tps[tps.length - 1];
  const out: PrecisionRecallCurve = { precision: [], recall: [], thresholds: [] };
  for (const k of thinIndices(thr.length, maxPoints)) {
    out.precision.push(tps[k] / (tps[k] + fps[k]));
    out.recall.push(tps[k] / P);
    out.thresholds.push(thr[k]);
  }
  return out;
}

/**
 * Precision, recall, F1 and lift where the top 5%, 10%, … 100% of the rows by score are predicted positive. Score
 * quantiles rather than fixed probabilities, so a model whose scores sit in a narrow band still gets a useful table;
 * ties can merge quantiles, so there may be fewer rows. Thresholds decrease down the table.
 */
export function thresholdTable(counts: CumulativeCounts, rows = THRESHOLD_ROWS): ThresholdRow[] {
  const { thr, tps, fps } = counts;
  const P = tps[tps.length - 1];
  const N = fps[fps.length - 1];
  const n = P + N;
  const out: ThresholdRow[] = [];
  let k = 0;
  for (let q = 1; q <= rows; q++) {
    const want = (q / rows) * n;
    while (k < thr.length - 1 && tps[k] + fps[k] < want) k++;
    if (out.length && out[out.length - 1].threshold === thr[k]) continue;
    const tp = tps[k];
    const fp = fps[k];
    const precision = tp / (tp + fp);
    const recall = tp / P;
    out.push({
      threshold: thr[k],
      positive_rate: (tp + fp) / n,
      precision,
      recall,
      f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0,
      lift: precision / (P / n),
      tp,
      fp,
      fn: P - tp,
      tn: N - fp,
    });
  }
  return out;
}

/** Both curves of held-out labels `y` (0/1) and positive-class scores `p`; null without both classes (nothing to rank). */
export function binaryCurves(y: ArrayLike<number>, p: ArrayLike<number>): BinaryCurves | null {
  if (y.length === 0) return null;
  for (let i = 0; i < p.length; i++) if (!Number.isFinite(p[i])) return null;
  const counts = cumulativeCounts(y, p);
  const P = counts.tps[counts.tps.length - 1];
  const N = counts.fps[counts.fps.length - 1];
  if (P === 0 || N === 0) return null;
  return { pr_curve: precisionRecallCurve(counts), threshold_table: thresholdTable(counts) };
}

/**
 * Model metrics, defined as scikit-learn defines them (H2O agrees except where noted).
 *
 * - AUCPR is average precision, sklearn's average_precision_score: sum over thresholds of
 *   (R_n - R_{n-1}) * P_n, a step-wise area under the precision-recall curve. H2O computes its
 *   AUCPR from a trapezoid over binned thresholds, so its values can differ in the third decimal.
 * - Threshold-dependent binary metrics (accuracy, MCC, mean_per_class_error, F1, confusion matrix)
 *   are reported, as H2O does, at the threshold that maximizes F1; "predicted positive" means
 *   p >= threshold.
 */

function check(y: ArrayLike<number>, p: ArrayLike<number>): void {
  if (y.length !== p.length) throw new Error('metrics: length mismatch');
  if (y.length === 0) throw new Error('metrics: empty input');
}

/** Distinct scores in decreasing order with cumulative true/false positive counts at each. */
export interface CumulativeCounts {
  thr: number[];
  tps: number[];
  fps: number[];
}

/**
 * Sorting positives and negatives separately with the native numeric sort and merging is several
 * times faster than sorting an index array with a comparator (this runs once per scoring event).
 */
export function cumulativeCounts(y: ArrayLike<number>, p: ArrayLike<number>): CumulativeCounts {
  let np = 0;
  for (let i = 0; i < y.length; i++) if (y[i] > 0.5) np++;
  const pos = new Float64Array(np);
  const neg = new Float64Array(y.length - np);
  let a = 0;
  let b = 0;
  for (let i = 0; i < y.length; i++) {
    if (y[i] > 0.5) pos[a++] = p[i];
    else neg[b++] = p[i];
  }
  pos.sort();
  neg.sort();
  const thr: number[] = [];
  const tps: number[] = [];
  const fps: number[] = [];
  let i = pos.length - 1;
  let j = neg.length - 1;
  let tp = 0;
  let fp = 0;
  while (i >= 0 || j >= 0) {
    const t = i < 0 ? neg[j] : j < 0 ? pos[i] : Math.max(pos[i], neg[j]);
    while (i >= 0 && pos[i] === t) {
      tp++;
      i--;
    }
    while (j >= 0 && neg[j] === t) {
      fp++;
      j--;
    }
    thr.push(t);
    tps.push(tp);
    fps.push(fp);
  }
  return { thr, tps, fps };
}

export interface RocCurve {
  fpr: number[];
  tpr: number[];
  thresholds: number[];
}

/** ROC curve as sklearn roc_curve(drop_intermediate=False): starts at (0, 0) with threshold +Infinity. */
export function rocCurve(y: ArrayLike<number>, p: ArrayLike<number>, counts?: CumulativeCounts): RocCurve {
  check(y, p);
  const { thr, tps, fps } = counts ?? cumulativeCounts(y, p);
  const P = tps[tps.length - 1];
  const N = fps[fps.length - 1];
  return {
    fpr: [0, ...fps.map((f) => (N > 0 ? f / N : NaN))],
    tpr: [0, ...tps.map((t) => (P > 0 ? t / P : NaN))],
    thresholds: [Infinity, ...thr],
  };
}

/** Area under the ROC curve (trapezoid over all distinct thresholds, ties handled exactly). */
export function auc(y: ArrayLike<number>, p: ArrayLike<number>, counts?: CumulativeCounts): number {
  check(y, p);
  const { tps, fps } = counts ?? cumulativeCounts(y, p);
  const P = tps[tps.length - 1];
  const N = fps[fps.length - 1];
  if (P === 0 || N === 0) return NaN;
  // Trapezoids in count space, normalized once at the end.
  let a = 0;
  let pf = 0;
  let pt = 0;
  for (let k = 0; k < tps.length; k++) {
    a += (fps[k] - pf) * (tps[k] + pt);
    pf = fps[k];
    pt = tps[k];
  }
  return a / (2 * P * N);
}

/** Average precision (sklearn average_precision_score), reported as AUCPR. */
export function averagePrecision(y: ArrayLike<number>, p: ArrayLike<number>, counts?: CumulativeCounts): number {
  check(y, p);
  const { tps, fps } = counts ?? cumulativeCounts(y, p);
  const P = tps[tps.length - 1];
  if (P === 0) return NaN;
  let ap = 0;
  let prevRecall = 0;
  for (let k = 0; k < tps.length; k++) {
    const recall = tps[k] / P;
    const precision = tps[k] / (tps[k] + fps[k]);
    ap += (recall - prevRecall) * precision;
    prevRecall = recall;
  }
  return ap;
}

/** Binary log loss with probabilities clipped to [1e-15, 1 - 1e-15]. */
export function binaryLogloss(y: ArrayLike<number>, p: ArrayLike<number>): number {
  check(y, p);
  let s = 0;
  for (let i = 0; i < y.length; i++) {
    const q = Math.min(1 - 1e-15, Math.max(1e-15, p[i]));
    s -= y[i] > 0.5 ? Math.log(q) : Math.log(1 - q);
  }
  return s / y.length;
}

/** Confusion matrix [[TN, FP], [FN, TP]] (rows actual, columns predicted) at p >= threshold. */
export function binaryConfusion(y: ArrayLike<number>, p: ArrayLike<number>, threshold: number): number[][] {
  check(y, p);
  const m = [
    [0, 0],
    [0, 0],
  ];
  for (let i = 0; i < y.length; i++) m[y[i] > 0.5 ? 1 : 0][p[i] >= threshold ? 1 : 0]++;
  return m;
}

/** Matthews correlation coefficient from a 2x2 confusion matrix (0 when undefined, as sklearn). */
export function mccFromConfusion(m: number[][]): number {
  const [[tn, fp], [fn, tp]] = m;
  const d = Math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn));
  return d === 0 ? 0 : (tp * tn - fp * fn) / d;
}

/** F1 of the positive class from a 2x2 confusion matrix. */
export function f1FromConfusion(m: number[][]): number {
  const tp = m[1][1];
  const d = 2 * tp + m[0][1] + m[1][0];
  return d === 0 ? 0 : (2 * tp) / d;
}

/** Mean over classes of the per-class error rate (1 - recall), from a square confusion matrix. */
export function meanPerClassErrorFromConfusion(m: number[][]): number {
  let s = 0;
  let k = 0;
  for (let c = 0; c < m.length; c++) {
    const row = m[c].reduce((a, b) => a + b, 0);
    if (row === 0) continue;
    s += 1 - m[c][c] / row;
    k++;
  }
  return k ? s / k : NaN;
}

/** Threshold maximizing F1 among the distinct scores (ties: the highest threshold), and that F1. */
export function maxF1Threshold(y: ArrayLike<number>, p: ArrayLike<number>, counts?: CumulativeCounts): { threshold: number; f1: number } {
  const { thr, tps, fps } = counts ?? cumulativeCounts(y, p);
  const P = tps[tps.length - 1];
  let best = { threshold: thr[0], f1: -1 };
  for (let k = 0; k < thr.length; k++) {
    const fn = P - tps[k];
    const d = 2 * tps[k] + fps[k] + fn;
    const f1 = d === 0 ? 0 : (2 * tps[k]) / d;
    if (f1 > best.f1) best = { threshold: thr[k], f1 };
  }
  return best;
}

export interface BinaryMetrics {
  auc: number;
  aucpr: number;
  logloss: number;
  /** At the max-F1 threshold, like the metrics below. */
  accuracy: number;
  mcc: number;
  mean_per_class_error: number;
  f1: number;
  max_f1_threshold: number;
  confusion_matrix: number[][];
  roc: RocCurve;
}

/** All binary metrics; y in {0, 1}, p the probability of class 1. */
export function binaryMetrics(y: ArrayLike<number>, p: ArrayLike<number>): BinaryMetrics {
  return binaryMetricsWithOptions(y, p, true) as BinaryMetrics;
}

/** binaryMetrics without the ROC curve (cheaper, for per-tree scoring). */
export function binarySummary(y: ArrayLike<number>, p: ArrayLike<number>): Omit<BinaryMetrics, 'roc'> {
  return binaryMetricsWithOptions(y, p, false);
}

function binaryMetricsWithOptions(y: ArrayLike<number>, p: ArrayLike<number>, withRoc: boolean): Omit<BinaryMetrics, 'roc'> & { roc?: RocCurve } {
  check(y, p);
  const counts = cumulativeCounts(y, p);
  const { threshold, f1 } = maxF1Threshold(y, p, counts);
  const cm = binaryConfusion(y, p, threshold);
  return {
    auc: auc(y, p, counts),
    aucpr: averagePrecision(y, p, counts),
    logloss: binaryLogloss(y, p),
    accuracy: (cm[0][0] + cm[1][1]) / y.length,
    mcc: mccFromConfusion(cm),
    mean_per_class_error: meanPerClassErrorFromConfusion(cm),
    f1,
    max_f1_threshold: threshold,
    confusion_matrix: cm,
    ...(withRoc ? { roc: rocCurve(y, p, counts) } : {}),
  };
}

export interface MulticlassMetrics {
  logloss: number;
  accuracy: number;
  mean_per_class_error: number;
  /** Rows actual class, columns predicted class (argmax, first on ties). */
  confusion_matrix: number[][];
}

/** Multiclass metrics; y holds class indices, probs is row-major n x K. */
export function multiclassMetrics(y: ArrayLike<number>, probs: ArrayLike<number>, K: number): MulticlassMetrics {
  const n = y.length;
  if (probs.length !== n * K) throw new Error('multiclassMetrics: probs must be n x K');
  const cm = Array.from({ length: K }, () => new Array<number>(K).fill(0));
  let ll = 0;
  let correct = 0;
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let k = 0; k < K; k++) {
      if (probs[i * K + k] > probs[i * K + best]) best = k;
    }
    // Rows are not renormalized (sklearn >= 1.5 only warns when they do not sum to one).
    const q = Math.min(1 - 1e-15, Math.max(1e-15, probs[i * K + y[i]]));
    ll -= Math.log(q);
    cm[y[i]][best]++;
    if (best === y[i]) correct++;
  }
  return { logloss: ll / n, accuracy: correct / n, mean_per_class_error: meanPerClassErrorFromConfusion(cm), confusion_matrix: cm };
}

export type DevianceKind = 'gaussian' | 'poisson' | 'gamma' | 'tweedie' | 'laplace' | 'quantile' | 'huber';

/** Mean deviance as sklearn's mean_tweedie_deviance (power 0 gaussian = MSE, 1 poisson, 2 gamma). */
export function meanTweedieDeviance(y: ArrayLike<number>, mu: ArrayLike<number>, power: number): number {
  check(y, mu);
  let s = 0;
  for (let i = 0; i < y.length; i++) {
    const a = y[i];
    const m = mu[i];
    let d: number;
    if (power === 0) d = (a - m) ** 2;
    else if (power === 1) d = 2 * ((a > 0 ? a * Math.log(a / m) : 0) - a + m);
    else if (power === 2) d = 2 * (Math.log(m / a) + a / m - 1);
    else {
      const p = power;
      const t1 = a > 0 ? Math.pow(a, 2 - p) / ((1 - p) * (2 - p)) : 0;
      d = 2 * (t1 - (a * Math.pow(m, 1 - p)) / (1 - p) + Math.pow(m, 2 - p) / (2 - p));
    }
    s += d;
  }
  return s / y.length;
}

/** Mean pinball (quantile) loss, sklearn mean_pinball_loss. */
export function quantileLoss(y: ArrayLike<number>, pred: ArrayLike<number>, alpha: number): number {
  check(y, pred);
  let s = 0;
  for (let i = 0; i < y.length; i++) {
    const r = y[i] - pred[i];
    s += r >= 0 ? alpha * r : (alpha - 1) * r;
  }
  return s / y.length;
}

export interface RegressionMetrics {
  mse: number;
  rmse: number;
  mae: number;
  /** NaN when any actual or predicted value is below -1 (H2O); sklearn raises instead. */
  rmsle: number;
  r2: number;
  mean_residual_deviance: number;
}

export interface DevianceOptions {
  distribution?: DevianceKind;
  tweediePower?: number;
  quantileAlpha?: number;
  huberDelta?: number;
}

/** Regression metrics; mean_residual_deviance follows the distribution (gaussian: equals MSE). */
export function regressionMetrics(y: ArrayLike<number>, pred: ArrayLike<number>, opts: DevianceOptions = {}): RegressionMetrics {
  check(y, pred);
  const n = y.length;
  let se = 0;
  let ae = 0;
  let sle = 0;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += y[i];
  mean /= n;
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const r = y[i] - pred[i];
    se += r * r;
    ae += Math.abs(r);
    sle += (Math.log1p(y[i]) - Math.log1p(pred[i])) ** 2;
    ss += (y[i] - mean) ** 2;
  }
  const mse = se / n;
  return {
    mse,
    rmse: Math.sqrt(mse),
    mae: ae / n,
    rmsle: Math.sqrt(sle / n),
    r2: ss === 0 ? (se === 0 ? 1 : 0) : 1 - se / ss,
    mean_residual_deviance: meanResidualDeviance(y, pred, opts),
  };
}

/** Mean residual deviance for a distribution, as H2O reports it. */
export function meanResidualDeviance(y: ArrayLike<number>, pred: ArrayLike<number>, opts: DevianceOptions = {}): number {
  switch (opts.distribution ?? 'gaussian') {
    case 'gaussian':
      return meanTweedieDeviance(y, pred, 0);
    case 'poisson':
      return meanTweedieDeviance(y, pred, 1);
    case 'gamma':
      return meanTweedieDeviance(y, pred, 2);
    case 'tweedie':
      return meanTweedieDeviance(y, pred, opts.tweediePower ?? 1.5);
    case 'laplace': {
      let s = 0;
      for (let i = 0; i < y.length; i++) s += Math.abs(y[i] - pred[i]);
      return s / y.length;
    }
    case 'quantile':
      return quantileLoss(y, pred, opts.quantileAlpha ?? 0.5);
    case 'huber': {
      const d = opts.huberDelta ?? 1;
      let s = 0;
      for (let i = 0; i < y.length; i++) {
        const r = Math.abs(y[i] - pred[i]);
        s += r <= d ? r * r : 2 * d * r - d * d;
      }
      return s / y.length;
    }
  }
}

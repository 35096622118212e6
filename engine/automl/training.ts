/**
 * Pieces shared by all trainers: the training-data bundle, feature specs, per-event metrics and
 * early stopping.
 */
import * as os from 'os';
import { BinnedData, binFrame } from './binning';
import { Frame, Target } from './frame';
import { binarySummary, multiclassMetrics, regressionMetrics, DevianceKind } from './metrics';
import { FeatureMatrix, FeatureSpec, Link, marginsToProbabilities, toFeatureMatrix } from './model';
import { BinRoutes, Tree, leafOfBinnedRow, leafOfRow } from './trees';

/** What every trainer takes. Bin once with binFrame() and pass `binned` to share it across models and folds. */
export interface TrainingData {
  /** Prepared feature columns (no target; datetimes expanded). */
  features: Frame;
  target: Target;
  binned?: BinnedData;
  /** Training rows (default: all rows). */
  rows?: Uint32Array;
  /** Validation rows of the same frame (cross-validation folds). */
  validRows?: Uint32Array;
  /** A separate validation frame (features prepared like `features`). */
  validation?: { features: Frame; target: Target };
}

/** Threads for histogram building: n > 0 as given, otherwise every available core. */
/**
 * H2O's score_tree_interval 0 ("auto"). Scoring the training frame after a tree costs about as
 * much as growing it on large data (800k rows: half of GBM's time), so large frames are scored
 * every ceil(rows / 100k) trees, and frames up to 100k rows after every tree. Unlike H2O's
 * time-based duty cycle this is deterministic: histories and early stopping repeat for a seed.
 * Early stopping counts scoring events, as in H2O.
 */
export function scoreTreeInterval(requested: number, rows: number): number {
  return requested > 0 ? requested : Math.max(1, Math.ceil(rows / 100_000));
}

export function resolveThreads(n: number | undefined): number {
  if (n !== undefined && n > 0) return Math.floor(n);
  return Math.max(1, os.availableParallelism());
}

/** Feature specs (names, kinds, levels) of a prepared feature frame. */
export function featureSpecs(frame: Frame): FeatureSpec[] {
  return frame.columns.map((c, j) => {
    if (c.kind === 'datetime') throw new Error(`expand datetime column ${frame.names[j]} before training`);
    return { name: frame.names[j], kind: c.kind, levels: c.kind === 'categorical' ? c.levels.slice() : [] };
  });
}

export function allRows(n: number): Uint32Array {
  const r = new Uint32Array(n);
  for (let i = 0; i < n; i++) r[i] = i;
  return r;
}

/** Resolves defaults of a TrainingData bundle. */
export function resolveData(d: TrainingData): { binned: BinnedData; rows: Uint32Array; specs: FeatureSpec[]; K: number } {
  const binned = d.binned ?? binFrame(d.features);
  if (binned.nrows !== d.features.nrows) throw new Error('binned data does not match the feature frame');
  return { binned, rows: d.rows ?? allRows(d.features.nrows), specs: featureSpecs(d.features), K: d.target.kind === 'multiclass' ? d.target.classes.length : 1 };
}

/**
 * Incrementally maintained margins of the validation set: rows of the training frame (binned
 * traversal) or a separate frame (raw traversal, as scoring does).
 */
export class ValidationMargins {
  readonly y: Float64Array;
  readonly margins: Float64Array;
  private readonly matrix: FeatureMatrix | null;
  private readonly row: Float64Array;

  constructor(
    private readonly d: TrainingData,
    specs: FeatureSpec[],
    private readonly K: number,
    base: number[],
    private readonly binned: BinnedData,
  ) {
    if (d.validation) {
      this.matrix = toFeatureMatrix(specs, d.validation.features);
      this.y = d.validation.target.y;
    } else {
      this.matrix = null;
      const vr = d.validRows as Uint32Array;
      this.y = Float64Array.from(vr, (r) => d.target.y[r]);
    }
    const n = this.y.length;
    this.margins = new Float64Array(n * K);
    for (let i = 0; i < n; i++) for (let k = 0; k < K; k++) this.margins[i * K + k] = base[k];
    this.row = new Float64Array(specs.length);
  }

  /** Adds scale * tree output to output k. */
  add(tree: Tree, routes: BinRoutes, k: number, scale: number): void {
    const K = this.K;
    const n = this.y.length;
    if (this.matrix) {
      const x = this.matrix;
      for (let i = 0; i < n; i++) {
        for (let f = 0; f < x.length; f++) this.row[f] = x[f][i];
        this.margins[i * K + k] += scale * tree.value[leafOfRow(tree, this.row)];
      }
    } else {
      const vr = this.d.validRows as Uint32Array;
      for (let i = 0; i < n; i++) this.margins[i * K + k] += scale * tree.value[leafOfBinnedRow(tree, routes, this.binned, vr[i])];
    }
  }
}

export interface MetricOptions {
  distribution?: DevianceKind;
  tweediePower?: number;
  quantileAlpha?: number;
}

/**
 * Metrics of one scoring event. Binary: logloss, auc, aucpr, classification_error (at max F1);
 * multiclass: logloss, classification_error, mean_per_class_error; regression: rmse, mse, mae,
 * deviance (mean residual deviance of the distribution).
 */
export function eventMetrics(kind: Target['kind'], y: Float64Array, margins: Float64Array, link: Link, K: number, opts: MetricOptions = {}): Record<string, number> {
  if (kind === 'regression') {
    const pred = link === 'log' ? margins.map((v) => Math.exp(v)) : margins;
    const m = regressionMetrics(y, pred, { distribution: opts.distribution, tweediePower: opts.tweediePower, quantileAlpha: opts.quantileAlpha });
    return { rmse: m.rmse, mse: m.mse, mae: m.mae, deviance: m.mean_residual_deviance };
  }
  if (kind === 'binary' && y.length > 0 && y.length === margins.length && (link === 'logistic' || link === 'average')) return binaryEventMetrics(y, margins, link);
  if (kind === 'binary') {
    const probs = marginsToProbabilities(margins, link, 2);
    const p = new Float64Array(y.length);
    for (let i = 0; i < y.length; i++) p[i] = probs[2 * i + 1];
    const m = binarySummary(y, p);
    return { logloss: m.logloss, auc: m.auc, aucpr: m.aucpr, classification_error: 1 - m.accuracy };
  }
  const probs = marginsToProbabilities(margins, link, K);
  const m = multiclassMetrics(y, probs, K);
  return { logloss: m.logloss, classification_error: 1 - m.accuracy, mean_per_class_error: m.mean_per_class_error };
}

/**
 * The binary scoring-event metrics of binarySummary (metrics.ts), computed in one pass over the
 * sorted scores without materializing the cumulative-count arrays, the probability matrix or a
 * second pass for the confusion matrix: same operations in the same order, so the same numbers.
 * This runs after every tree by default (H2O GBM's score_tree_interval 1) and was most of GBM's
 * training time on large data.
 */
function binaryEventMetrics(y: Float64Array, margins: Float64Array, link: Link): Record<string, number> {
  const n = y.length;
  let np = 0;
  for (let i = 0; i < n; i++) if (y[i] > 0.5) np++;
  const pos = new Float64Array(np);
  const neg = new Float64Array(n - np);
  let a = 0;
  let b = 0;
  let ll = 0;
  for (let i = 0; i < n; i++) {
    // As marginsToProbabilities and binaryLogloss.
    const m = margins[i];
    const p = link === 'logistic' ? 1 / (1 + Math.exp(-m)) : Math.min(1, Math.max(0, m));
    const q = Math.min(1 - 1e-15, Math.max(1e-15, p));
    if (y[i] > 0.5) {
      pos[a++] = p;
      ll -= Math.log(q);
    } else {
      neg[b++] = p;
      ll -= Math.log(1 - q);
    }
  }
  sortScores(pos);
  sortScores(neg);
  // cumulativeCounts' merge, with auc(), averagePrecision() and maxF1Threshold() folded in.
  const P = np;
  const N = n - np;
  let i = pos.length - 1;
  let j = neg.length - 1;
  let tp = 0;
  let fp = 0;
  let area = 0;
  let pf = 0;
  let pt = 0;
  let ap = 0;
  let prevRecall = 0;
  let bestF1 = -1;
  let bestTp = 0;
  let bestFp = 0;
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
    if (t !== t) break; // NaN scores: cumulativeCounts would not terminate either way; stop here.
    area += (fp - pf) * (tp + pt);
    pf = fp;
    pt = tp;
    const recall = tp / P;
    const precision = tp / (tp + fp);
    ap += (recall - prevRecall) * precision;
    prevRecall = recall;
    const d = 2 * tp + fp + (P - tp);
    const f1 = d === 0 ? 0 : (2 * tp) / d;
    if (f1 > bestF1) {
      bestF1 = f1;
      bestTp = tp;
      bestFp = fp;
    }
  }
  // Confusion matrix at the max-F1 threshold (p >= threshold): the cumulative counts there.
  const accuracy = (N - bestFp + bestTp) / n;
  return {
    logloss: ll / n,
    auc: P === 0 || N === 0 ? NaN : area / (2 * P * N),
    aucpr: P === 0 ? NaN : ap,
    classification_error: 1 - accuracy,
  };
}

/**
 * Sorts scores ascending, as Float64Array.prototype.sort does: a 4-pass LSD radix sort on the
 * bit patterns when every value is >= +0 (then bit order is numeric order and NaN sorts last), else
 * the built-in sort. About 4x faster than the built-in sort on 400k probabilities.
 */
function sortScores(v: Float64Array): void {
  const n = v.length;
  if (n < 4096) {
    v.sort();
    return;
  }
  const bits = new Uint32Array(v.buffer, v.byteOffset, 2 * n);
  for (let i = 0; i < n; i++) {
    if (bits[2 * i + 1] >= 0x80000000) {
      v.sort();
      return;
    }
  }
  let src: Float64Array = v;
  let srcBits: Uint32Array = bits;
  let dst: Float64Array = new Float64Array(n);
  let dstBits: Uint32Array = new Uint32Array(dst.buffer);
  const count = new Int32Array(65536);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass >> 1;
    const shift = (pass & 1) * 16;
    count.fill(0);
    for (let i = 0; i < n; i++) count[(srcBits[2 * i + word] >>> shift) & 0xffff]++;
    // A digit shared by every value leaves the order unchanged: skip the pass.
    if (count[(srcBits[word] >>> shift) & 0xffff] === n) continue;
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const k = count[(srcBits[2 * i + word] >>> shift) & 0xffff]++;
      dstBits[2 * k] = srcBits[2 * i];
      dstBits[2 * k + 1] = srcBits[2 * i + 1];
    }
    const t = src;
    src = dst;
    dst = t;
    const tb = srcBits;
    srcBits = dstBits;
    dstBits = tb;
  }
  if (src !== v) v.set(src);
}

/** Metrics where larger is better; every other metric is minimized. */
const MAXIMIZED = new Set(['auc', 'aucpr']);

/** Resolves H2O's stopping_metric 'AUTO' (logloss for classification, deviance for regression). */
export function resolveStoppingMetric(metric: string, kind: Target['kind']): string {
  const m = metric.toLowerCase();
  if (m === 'auto') return kind === 'regression' ? 'deviance' : 'logloss';
  if (m === 'misclassification') return 'classification_error';
  if (m === 'mean_residual_deviance') return 'deviance';
  return m;
}

/**
 * H2O-style early stopping: stop when the best simple moving average (window `rounds`) of the
 * last `rounds` scoring events does not improve on the best moving average before them by the
 * relative `tolerance`.
 */
export function h2oShouldStop(history: number[], metric: string, rounds: number, tolerance: number): boolean {
  if (rounds <= 0 || history.length < 2 * rounds) return false;
  const sign = MAXIMIZED.has(metric) ? -1 : 1;
  const ma: number[] = [];
  for (let i = rounds - 1; i < history.length; i++) {
    let s = 0;
    for (let j = i - rounds + 1; j <= i; j++) s += history[j];
    ma.push((sign * s) / rounds);
  }
  const ref = Math.min(...ma.slice(0, ma.length - rounds));
  const recent = Math.min(...ma.slice(ma.length - rounds));
  // Minimizing sign * metric: improvement means recent < ref by more than tolerance * |ref|.
  return !(recent < ref - tolerance * Math.abs(ref));
}

/** Index of the best value of a metric history (first on ties). */
export function bestIndex(history: number[], metric: string): number {
  const sign = MAXIMIZED.has(metric) ? -1 : 1;
  let best = 0;
  for (let i = 1; i < history.length; i++) if (sign * history[i] < sign * history[best]) best = i;
  return best;
}

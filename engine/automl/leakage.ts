/**
 * Target leakage, caught before training: a feature that alone predicts the target almost perfectly is almost always
 * the target under another name (titanic's `alive` for `survived`) or something only known after the outcome. Every
 * model then scores near 1.0 and the leaderboard means nothing, so the experiment says so up front.
 *
 * Each feature is scored on its own, on a seeded sample of rows:
 * - out-of-fold bucket encoding: the feature's values (categories, or quantile bins of a number) are replaced by the
 *   target's mean (per class) in that bucket as seen on the other folds, and scored (AUC, one-vs-rest averaged over
 *   classes, or R²). Out-of-fold, so an identifier (every value once) scores like a coin, not perfectly;
 * - for numbers also the value itself (AUC of the raw value in either direction, squared correlation), which catches a
 *   monotone copy of the target that quantile bins would blur;
 * - an exact functional dependence: every value seen more than once maps to a single target value, over many distinct
 *   values and most rows (a code that determines the target).
 */
import { auc } from './metrics';
import type { Column, Frame, ProblemKind } from './frame';
import { Rng, sampleWithoutReplacement } from './random';

export type LeakageMeasure = 'auc' | 'r2' | 'functional_dependence';

export interface LeakageFinding {
  column: string;
  measure: LeakageMeasure;
  /** AUC or R² in [0, 1]; for a functional dependence the share of sampled rows whose value repeats (all consistent). */
  score: number;
  message: string;
}

export interface LeakageOptions {
  /** A score above this names the feature (default 0.98). */
  threshold?: number;
  /** Most rows scored (default 5,000). */
  sampleRows?: number;
  seed?: number;
}

export const LEAKAGE_THRESHOLD = 0.98;
export const LEAKAGE_SAMPLE_ROWS = 5000;
/** Quantile bins of a numeric feature for its bucket encoding. */
const NUMERIC_BINS = 64;
const FOLDS = 5;
/** A functional dependence needs at least this many distinct values seen more than once... */
const FD_MIN_REPEATED_VALUES = 10;
/** ...covering at least this share of the sampled rows. */
const FD_MIN_COVERAGE = 0.5;
/** ...and the rows it covers may not nearly all share one target value. */
const FD_MAX_MAJORITY = 0.9;
/** The raw-value scores need the number present on nearly every row (missing rows would be scored apart). */
const RAW_MIN_PRESENT = 0.95;
/** Keeps the work bounded on very wide data: fewer rows when there are many columns. */
const MAX_SAMPLE_CELLS = 2_000_000;
const MIN_SAMPLE_ROWS = 500;

/** The target of the sample: class index per row (classification) or the value (regression). */
interface SampleTarget {
  kind: ProblemKind;
  y: Float64Array;
  classes: number;
}

/**
 * Features of `frame` (every column but `target`) that alone predict it almost perfectly, strongest first. `kind` is
 * the problem kind the experiment resolved. Rows with a missing target are left out; a frame with fewer than 10 such
 * rows has nothing to say.
 */
export function detectLeakage(frame: Frame, target: string, kind: ProblemKind, opts: LeakageOptions = {}): LeakageFinding[] {
  const threshold = opts.threshold ?? LEAKAGE_THRESHOLD;
  const tj = frame.names.indexOf(target);
  if (tj < 0) return [];
  const present = presentTargetRows(frame.columns[tj]);
  const maxRows = Math.max(MIN_SAMPLE_ROWS, Math.min(opts.sampleRows ?? LEAKAGE_SAMPLE_ROWS, Math.floor(MAX_SAMPLE_CELLS / Math.max(1, frame.names.length))));
  const rng = new Rng(opts.seed ?? 42);
  const rows = Array.from(sampleWithoutReplacement(present.length, maxRows, rng), (i) => present[i]);
  if (rows.length < 10) return [];
  const t = sampleTarget(frame.columns[tj], rows, kind);
  if (kind !== 'regression' && t.classes < 2) return [];
  const folds = foldsOf(rows.length, rng);
  const findings: LeakageFinding[] = [];
  frame.names.forEach((name, j) => {
    if (j === tj) return;
    const finding = scoreFeature(name, frame.columns[j], rows, t, folds, threshold);
    if (finding) findings.push({ ...finding, message: leakageMessage(name, target, finding.measure, finding.score, rows.length) });
  });
  return findings.sort((a, b) => b.score - a.score || a.column.localeCompare(b.column));
}

/** The sentence shown with a finding. */
export function leakageMessage(column: string, target: string, measure: LeakageMeasure, score: number, rows: number): string {
  const how =
    measure === 'functional_dependence'
      ? `each of its repeated values goes with a single ${target} value (${Math.round(score * 100)}% of ${rows} sampled rows)`
      : `${measure === 'auc' ? 'AUC' : 'R²'} ${score.toFixed(3)} on its own, on ${rows} sampled rows`;
  return `Possible target leakage: ${column} alone predicts ${target} almost perfectly (${how}). Leave it out unless it is known before the outcome.`;
}

function scoreFeature(name: string, col: Column, rows: number[], t: SampleTarget, folds: Uint8Array, threshold: number): { column: string; measure: LeakageMeasure; score: number } | null {
  const values = numericValues(col, rows);
  const buckets = col.kind === 'categorical' ? categoricalBuckets(col, rows) : quantileBuckets(values!);
  const measure: LeakageMeasure = t.kind === 'regression' ? 'r2' : 'auc';
  let score = t.kind === 'regression' ? bucketR2(buckets, t.y, folds) : bucketAuc(buckets, t, folds, values);
  if (t.kind === 'regression' && values) score = Math.max(score, squaredCorrelation(values, t.y));
  if (score > threshold) return { column: name, measure, score: round4(score) };
  const fd = functionalDependence(col, rows, t.y);
  if (fd !== null) return { column: name, measure: 'functional_dependence', score: round4(fd) };
  return null;
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

function isMissing(col: Column, i: number): boolean {
  return col.kind === 'categorical' ? col.codes[i] < 0 : Number.isNaN(col.kind === 'numeric' ? col.values[i] : col.epochMs[i]);
}

function presentTargetRows(col: Column): number[] {
  const n = col.kind === 'categorical' ? col.codes.length : col.kind === 'numeric' ? col.values.length : col.epochMs.length;
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (!isMissing(col, i)) out.push(i);
  return out;
}

function sampleTarget(col: Column, rows: number[], kind: ProblemKind): SampleTarget {
  const raw = rows.map((i) => (col.kind === 'categorical' ? col.codes[i] : col.kind === 'numeric' ? col.values[i] : col.epochMs[i]));
  if (kind === 'regression') return { kind, y: Float64Array.from(raw), classes: 0 };
  const index = new Map([...new Set(raw)].sort((a, b) => a - b).map((v, k) => [v, k]));
  return { kind, y: Float64Array.from(raw, (v) => index.get(v)!), classes: index.size };
}

/** Fold of each sampled row, seeded, as even as the row count allows. */
function foldsOf(n: number, rng: Rng): Uint8Array {
  const order = rng.shuffle(Uint32Array.from({ length: n }, (_, i) => i));
  const folds = new Uint8Array(n);
  order.forEach((row, k) => (folds[row] = k % FOLDS));
  return folds;
}

/** The feature's values on the sample as numbers (numeric and datetime columns); null for a categorical one. */
function numericValues(col: Column, rows: number[]): Float64Array | null {
  if (col.kind === 'categorical') return null;
  const src = col.kind === 'numeric' ? col.values : col.epochMs;
  return Float64Array.from(rows, (i) => src[i]);
}

/** Bucket per sampled row: the category's code, missing in a bucket of its own. */
function categoricalBuckets(col: Extract<Column, { kind: 'categorical' }>, rows: number[]): Int32Array {
  const missing = col.levels.length;
  return Int32Array.from(rows, (i) => (col.codes[i] < 0 ? missing : col.codes[i]));
}

/** Bucket per sampled row: its quantile bin (tied values share one), missing in a bucket of its own. */
function quantileBuckets(values: Float64Array): Int32Array {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort();
  const edges: number[] = [];
  for (let k = 1; k < NUMERIC_BINS; k++) {
    const e = sorted[Math.floor((k * sorted.length) / NUMERIC_BINS)];
    if (e !== undefined && (edges.length === 0 || e > edges[edges.length - 1])) edges.push(e);
  }
  return Int32Array.from(values, (v) => (Number.isNaN(v) ? NUMERIC_BINS : upperBound(edges, v)));
}

/** How many edges are <= v. */
function upperBound(edges: number[], v: number): number {
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (edges[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Out-of-fold encoding: for each row, the mean of `value(row)` over the rows of its bucket in the other folds, shrunk
 * toward the mean of those folds with the weight of one row (an unseen bucket gets that mean).
 */
function outOfFoldMeans(buckets: Int32Array, folds: Uint8Array, value: (row: number) => number): Float64Array {
  const nb = buckets.reduce((m, b) => Math.max(m, b), 0) + 1;
  const sum = new Float64Array(FOLDS * nb);
  const cnt = new Float64Array(FOLDS * nb);
  const foldSum = new Float64Array(FOLDS);
  const foldCnt = new Float64Array(FOLDS);
  for (let r = 0; r < buckets.length; r++) {
    const v = value(r);
    sum[folds[r] * nb + buckets[r]] += v;
    cnt[folds[r] * nb + buckets[r]]++;
    foldSum[folds[r]] += v;
    foldCnt[folds[r]]++;
  }
  const totalSum = new Float64Array(nb);
  const totalCnt = new Float64Array(nb);
  for (let f = 0; f < FOLDS; f++) {
    for (let b = 0; b < nb; b++) {
      totalSum[b] += sum[f * nb + b];
      totalCnt[b] += cnt[f * nb + b];
    }
  }
  const allSum = foldSum.reduce((a, b) => a + b, 0);
  const allCnt = foldCnt.reduce((a, b) => a + b, 0);
  const out = new Float64Array(buckets.length);
  for (let r = 0; r < buckets.length; r++) {
    const f = folds[r];
    const b = buckets[r];
    const prior = (allSum - foldSum[f]) / Math.max(1, allCnt - foldCnt[f]);
    out[r] = (totalSum[b] - sum[f * nb + b] + prior) / (totalCnt[b] - cnt[f * nb + b] + 1);
  }
  return out;
}

/**
 * AUC of the out-of-fold class rates (one-vs-rest, averaged over the classes present, for multiclass); for a number
 * also its raw value in whichever direction ranks better, per class.
 */
function bucketAuc(buckets: Int32Array, t: SampleTarget, folds: Uint8Array, values: Float64Array | null): number {
  const classes = t.classes === 2 ? [1] : Array.from({ length: t.classes }, (_, c) => c);
  const raw = values && presentShare(values) >= RAW_MIN_PRESENT ? presentRows(values) : null;
  let total = 0;
  let counted = 0;
  for (const c of classes) {
    const y = Float64Array.from(t.y, (v) => (v === c ? 1 : 0));
    let a = auc(
      y,
      outOfFoldMeans(buckets, folds, (r) => y[r]),
    );
    if (raw) {
      const r = auc(
        Float64Array.from(raw, (i) => y[i]),
        Float64Array.from(raw, (i) => values![i]),
      );
      if (!Number.isNaN(r)) a = Math.max(a, r, 1 - r);
    }
    if (Number.isNaN(a)) continue;
    total += a;
    counted++;
  }
  return counted ? total / counted : 0;
}

/** R² of the out-of-fold bucket means. */
function bucketR2(buckets: Int32Array, y: Float64Array, folds: Uint8Array): number {
  return r2(
    y,
    outOfFoldMeans(buckets, folds, (r) => y[r]),
  );
}

function r2(y: Float64Array, pred: Float64Array): number {
  const mean = y.reduce((a, b) => a + b, 0) / y.length;
  let ssRes = 0;
  let ssTot = 0;
  for (let i = 0; i < y.length; i++) {
    ssRes += (y[i] - pred[i]) ** 2;
    ssTot += (y[i] - mean) ** 2;
  }
  return ssTot > 0 ? 1 - ssRes / ssTot : 0;
}

/** Squared Pearson correlation over the rows where the number is present (when it nearly always is). */
function squaredCorrelation(values: Float64Array, y: Float64Array): number {
  if (presentShare(values) < RAW_MIN_PRESENT) return 0;
  const rows = presentRows(values);
  const n = rows.length;
  let mx = 0;
  let my = 0;
  for (const i of rows) {
    mx += values[i] / n;
    my += y[i] / n;
  }
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const i of rows) {
    sxy += (values[i] - mx) * (y[i] - my);
    sxx += (values[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? (sxy * sxy) / (sxx * syy) : 0;
}

function presentShare(values: Float64Array): number {
  let n = 0;
  for (const v of values) if (!Number.isNaN(v)) n++;
  return values.length ? n / values.length : 0;
}

function presentRows(values: Float64Array): number[] {
  const out: number[] = [];
  values.forEach((v, i) => !Number.isNaN(v) && out.push(i));
  return out;
}

/**
 * The share of sampled rows whose (present) value repeats, when every repeated value goes with one target value, over
 * at least FD_MIN_REPEATED_VALUES distinct values and FD_MIN_COVERAGE of the rows; otherwise null. Values seen once
 * say nothing (an identifier maps to its row's target trivially).
 */
function functionalDependence(col: Column, rows: number[], y: Float64Array): number | null {
  const groups = new Map<number, { target: number; count: number; pure: boolean }>();
  rows.forEach((i, r) => {
    if (isMissing(col, i)) return;
    const key = col.kind === 'categorical' ? col.codes[i] : col.kind === 'numeric' ? col.values[i] : col.epochMs[i];
    const g = groups.get(key);
    if (!g) groups.set(key, { target: y[r], count: 1, pure: true });
    else {
      g.count++;
      if (g.target !== y[r]) g.pure = false;
    }
  });
  let repeated = 0;
  let covered = 0;
  for (const g of groups.values()) {
    if (g.count < 2) continue;
    if (!g.pure) return null;
    repeated++;
    covered += g.count;
  }
  const coverage = covered / rows.length;
  if (repeated < FD_MIN_REPEATED_VALUES || coverage < FD_MIN_COVERAGE) return null;
  // The repeated values must tell targets apart: with a rare class, values that repeat only among the majority are
  // "pure" without predicting anything.
  const majority = new Map<number, number>();
  for (const g of groups.values()) if (g.count >= 2) majority.set(g.target, (majority.get(g.target) ?? 0) + g.count);
  return Math.max(...majority.values()) / covered <= FD_MAX_MAJORITY ? coverage : null;
}

/**
 * The numeric design shared by GLM and DeepLearning: every feature becomes one or more columns of
 * a dense matrix the linear algebra works on.
 *
 * - Numeric features: missing values are imputed with the training mean (H2O's MeanImputation,
 *   no missing indicator), then, with `standardize`, centred and divided by the training sample
 *   standard deviation (1 when the column is constant). The encoding is stored so scoring and the
 *   ONNX graph apply exactly the same transformation.
 * - Categorical features: one-hot. GLM uses the first level as the reference (H2O's default
 *   `use_all_factor_levels = false`), so the intercept is identifiable under a weak penalty;
 *   DeepLearning keeps all levels (as H2O does). Missing and unseen levels encode as all zeros (the
 *   reference level for GLM). Only the `maxLevels` most frequent training levels get a column;
 *   rarer ones share the all-zero code, which bounds the width on high-cardinality columns.
 * - Dummy columns are not standardized (H2O does not standardize them either).
 */
import type { Frame } from '../frame';
import { FeatureMatrix, FeatureSpec, RowObject, toFeatureMatrix } from '../model';

/** How one feature becomes design columns. */
export type FeatureEncoding =
  | { kind: 'numeric'; feature: string; column: number; mean: number; scale: number }
  | { kind: 'categorical'; feature: string; start: number; /** Level codes, one per design column from `start`. */ codes: number[]; levels: string[] };

/** Serializable design: the features in model order and their encodings. */
export interface DesignJSON {
  features: FeatureSpec[];
  encodings: FeatureEncoding[];
  /** Number of design columns. */
  width: number;
  /** Training mean of every design column (after encoding), for contributions. */
  columnMeans: number[];
  /** Design column names: numeric feature names, `feature.level` for dummies. */
  columnNames: string[];
}

export interface DesignOptions {
  standardize?: boolean;
  /** Keep every categorical level (DeepLearning) instead of dropping the first (GLM). */
  allLevels?: boolean;
  /** At most this many levels per categorical feature get a column (default 100). */
  maxLevels?: number;
}

/** Fits the encodings on the training rows (all rows when `rows` is omitted). */
export function fitDesign(features: FeatureSpec[], x: FeatureMatrix, rows: ArrayLike<number> | undefined, opts: DesignOptions = {}): DesignJSON {
  const standardize = opts.standardize ?? true;
  const maxLevels = opts.maxLevels ?? 100;
  const n = x.length ? x[0].length : 0;
  const rowAt = (i: number): number => (rows ? rows[i] : i);
  const m = rows ? rows.length : n;
  const encodings: FeatureEncoding[] = [];
  const columnNames: string[] = [];
  let width = 0;
  features.forEach((f, j) => {
    const col = x[j];
    if (f.kind === 'numeric') {
      let s = 0;
      let c = 0;
      for (let i = 0; i < m; i++) {
        const v = col[rowAt(i)];
        if (!Number.isNaN(v)) {
          s += v;
          c++;
        }
      }
      const mean = c ? s / c : 0;
      let ss = 0;
      for (let i = 0; i < m; i++) {
        const v = col[rowAt(i)];
        if (!Number.isNaN(v)) ss += (v - mean) * (v - mean);
      }
      const sd = c > 1 ? Math.sqrt(ss / (c - 1)) : 0;
      encodings.push({ kind: 'numeric', feature: f.name, column: width, mean, scale: standardize && sd > 0 ? sd : 1 });
      columnNames.push(f.name);
      width += 1;
      return;
    }
    const counts = new Float64Array(f.levels.length);
    for (let i = 0; i < m; i++) {
      const c = col[rowAt(i)];
      if (c >= 0) counts[c]++;
    }
    // Most frequent levels keep a column; ties by code so the choice is deterministic.
    const kept = Array.from(f.levels.keys())
      .filter((k) => counts[k] > 0)
      .sort((a, b) => counts[b] - counts[a] || a - b)
      .slice(0, maxLevels)
      .sort((a, b) => a - b);
    const codes = opts.allLevels ? kept : kept.slice(1);
    encodings.push({ kind: 'categorical', feature: f.name, start: width, codes, levels: codes.map((k) => f.levels[k]) });
    for (const k of codes) columnNames.push(`${f.name}.${f.levels[k]}`);
    width += codes.length;
  });
  const design: DesignJSON = { features: features.map((f) => ({ ...f, levels: f.levels.slice() })), encodings, width, columnMeans: [], columnNames };
  const d = encodeMatrix(design, x, rows);
  const means = new Array<number>(width).fill(0);
  for (let i = 0; i < m; i++) for (let c = 0; c < width; c++) means[c] += d[i * width + c];
  design.columnMeans = means.map((s) => (m ? s / m : 0));
  return design;
}

/** Encodes rows of a feature matrix into a row-major n x width design matrix. */
export function encodeMatrix(design: DesignJSON, x: FeatureMatrix, rows?: ArrayLike<number>): Float64Array {
  const n = rows ? rows.length : x.length ? x[0].length : 0;
  const w = design.width;
  const out = new Float64Array(n * w);
  design.encodings.forEach((e, j) => {
    const col = x[j];
    if (e.kind === 'numeric') {
      for (let i = 0; i < n; i++) {
        const v = col[rows ? rows[i] : i];
        out[i * w + e.column] = Number.isNaN(v) ? 0 : (v - e.mean) / e.scale;
      }
      return;
    }
    const pos = new Map<number, number>();
    e.codes.forEach((code, q) => pos.set(code, q));
    for (let i = 0; i < n; i++) {
      const q = pos.get(col[rows ? rows[i] : i]);
      if (q !== undefined) out[i * w + e.start + q] = 1;
    }
  });
  return out;
}

/** Encodes a frame or row objects (the model's features are looked up by name). */
export function encodeInput(design: DesignJSON, input: Frame | RowObject[]): Float64Array {
  return encodeMatrix(design, toFeatureMatrix(design.features, input));
}

/** The design columns of each feature, as [start, end) ranges in feature order. */
export function featureColumnRanges(design: DesignJSON): [number, number][] {
  return design.encodings.map((e) => (e.kind === 'numeric' ? [e.column, e.column + 1] : [e.start, e.start + e.codes.length]));
}

/**
 * Fitting the Gaussian copula: each column's marginal and encoding (model.ts), then the correlation matrix of the
 * latent normal scores.
 *
 * A value that only pins its latent normal to an interval (a category, a missing/present flag, a whole number) is
 * scored by the normal's mean on that interval. Such scores have a variance v < 1 and understate correlations by
 * √v, so each pairwise Pearson correlation r of scores is divided by √(v₁v₂), the two-step polyserial estimator; the
 * pairwise estimates (each on the rows where both are present) are then repaired into a positive definite matrix.
 * Categories are first laid out by frequency, then reordered once by their mean predicted score from the other
 * columns (optimal scaling), so that an association a nominal column has with the rest becomes monotone and the
 * copula can carry it.
 */
import { Frame, Rng } from '../../automl';
import { describeColumns } from '../columns';
import { SynthConfigError } from '../errors';
import { sampleRowIndices } from '../sampling';
import type { CopulaConfig, SynthesizerModel } from '../types';
import { cholesky, cholInverse, repairCorrelation } from './linalg';
import { fitMarginal, Marginal } from './marginals';
import { CategoricalEncoding, clampU, ColumnEncoding, COPULA_FORMAT_VERSION, CopulaParams, intervalMeanScore, NumericEncoding } from './model';
import { pearson } from '../quality/metrics';
import { normPpf } from './special';

/** Rows the correlation is estimated on (a seeded sample past that); wide tables use fewer (see fitRowsFor). */
export const COPULA_FIT_MAX_ROWS = 50_000;
/** Latent dimensions the copula accepts (a numeric column with missing cells takes two). */
export const COPULA_MAX_DIMS = 1_000;
/** Pairwise correlations cost dims² × rows; past this product the row sample shrinks (never below 2,000 rows). */
export const COPULA_FIT_MAX_CELL_PAIRS = 200_000_000;
/** Estimated correlations are clipped to ±this before the positive definite repair. */
const MAX_ABS_CORRELATION = 0.999;

/** Rows used for the correlation of a table with `dims` latent dimensions. */
export function fitRowsFor(nrows: number, dims: number): number {
  const byWidth = Math.max(2_000, Math.floor(COPULA_FIT_MAX_CELL_PAIRS / Math.max(1, dims * dims)));
  return Math.min(nrows, COPULA_FIT_MAX_ROWS, byWidth);
}

/** Fits a Gaussian copula to a frame. `config.seed` fixes the row sample (the fit is otherwise deterministic). */
export function fitGaussianCopula(frame: Frame, config: CopulaConfig = {}): SynthesizerModel {
  if (frame.nrows === 0) throw new Error('The Gaussian copula needs at least one row to fit');
  if (frame.columns.length === 0) throw new Error('The Gaussian copula needs at least one column to fit');
  const meta = describeColumns(frame);
  const levels = frame.columns.map((c) => (c.kind === 'categorical' ? c.levels.slice() : []));
  const marginals: Array<Marginal | null> = [];
  const encodings: ColumnEncoding[] = [];
  let dims = 0;
  frame.columns.forEach((c) => {
    if (c.kind === 'categorical') {
      encodings.push(frequencyEncoding(c.codes, c.levels.length, dims++));
      marginals.push(null);
      return;
    }
    const values = c.kind === 'numeric' ? c.values : c.epochMs;
    const present = values.filter((v) => !Number.isNaN(v));
    if (present.length === 0) {
      encodings.push({ kind: 'numeric', valueDim: -1, missingDim: -1, presentShare: 0, marginal: null });
      marginals.push(null);
      return;
    }
    const marginal = fitMarginal(present);
    const valueDim = dims++;
    const missingDim = present.length < values.length ? dims++ : -1;
    encodings.push({ kind: 'numeric', valueDim, missingDim, presentShare: present.length / values.length, marginal: marginal.toJSON() });
    marginals.push(marginal);
  });
  if (dims > COPULA_MAX_DIMS) {
    throw new SynthConfigError(`The Gaussian copula models at most ${COPULA_MAX_DIMS} latent dimensions; this table needs ${dims} (a numeric column with missing values takes two)`);
  }
  const rng = new Rng(config.seed ?? 0);
  const rows = sampleRowIndices(frame.nrows, fitRowsFor(frame.nrows, dims), rng);
  const integer = meta.map((m) => m.integer);
  let scores = scoreRows(frame, encodings, marginals, integer, rows, dims);
  let corr = estimateCorrelation(scores, dims);
  if (reorderCategories(frame, encodings, scores, corr, dims, rows)) {
    scores = scoreRows(frame, encodings, marginals, integer, rows, dims);
    corr = estimateCorrelation(scores, dims);
  }
  const params: CopulaParams = { encodings, levels, dims, correlation: Array.from(corr), fitRows: rows.length };
  return { type: 'gaussian_copula', formatVersion: COPULA_FORMAT_VERSION, columns: meta, params };
}

/** Categories (missing = code −1) laid out on [0, 1] by descending frequency, ties by code. */
function frequencyEncoding(codes: Int32Array, nLevels: number, dim: number): CategoricalEncoding {
  const counts = new Float64Array(nLevels + 1); // last slot: missing
  for (let i = 0; i < codes.length; i++) counts[codes[i] < 0 ? nLevels : codes[i]]++;
  const order: number[] = [];
  for (let k = 0; k <= nLevels; k++) if (counts[k] > 0) order.push(k === nLevels ? -1 : k);
  const slot = (code: number): number => (code < 0 ? nLevels : code);
  order.sort((a, b) => counts[slot(b)] - counts[slot(a)] || slot(a) - slot(b));
  return { kind: 'categorical', dim, order, cum: cumulative(order.map((code) => counts[slot(code)])) };
}

function cumulative(counts: number[]): number[] {
  const total = counts.reduce((s, x) => s + x, 0);
  const cum = [0];
  let acc = 0;
  for (const c of counts) {
    acc += c;
    cum.push(acc / total);
  }
  cum[cum.length - 1] = 1;
  return cum;
}

/**
 * The latent normal scores of the sampled rows, dimension-major (dims × rows); NaN where a value dimension's cell is
 * missing.
 */
function scoreRows(frame: Frame, encodings: ColumnEncoding[], marginals: Array<Marginal | null>, integer: boolean[], rows: Uint32Array, dims: number): Float64Array[] {
  const m = rows.length;
  const scores = Array.from({ length: dims }, () => new Float64Array(m));
  frame.columns.forEach((c, j) => {
    const enc = encodings[j];
    if (enc.kind === 'categorical') {
      const codes = (c as { codes: Int32Array }).codes;
      const rank = new Map<number, number>();
      enc.order.forEach((code, k) => rank.set(code, k));
      const mean = enc.order.map((_, k) => intervalMeanScore(enc.cum[k], enc.cum[k + 1]));
      const out = scores[enc.dim];
      for (let i = 0; i < m; i++) out[i] = mean[rank.get(codes[rows[i]] < 0 ? -1 : codes[rows[i]]) as number];
      return;
    }
    if (enc.valueDim < 0) return;
    scoreNumeric(c.kind === 'numeric' ? c.values : (c as { epochMs: Float64Array }).epochMs, enc, marginals[j] as Marginal, integer[j], rows, scores);
  });
  return scores;
}

function scoreNumeric(values: Float64Array, enc: NumericEncoding, marginal: Marginal, integer: boolean, rows: Uint32Array, scores: Float64Array[]): void {
  const out = scores[enc.valueDim];
  const flag = enc.missingDim >= 0 ? scores[enc.missingDim] : null;
  const presentScore = intervalMeanScore(0, enc.presentShare);
  const missingScore = intervalMeanScore(enc.presentShare, 1);
  for (let i = 0; i < rows.length; i++) {
    const x = values[rows[i]];
    if (flag) flag[i] = Number.isNaN(x) ? missingScore : presentScore;
    if (Number.isNaN(x)) out[i] = NaN;
    // A whole number stands for the latent interval that rounds to it.
    else if (integer) out[i] = intervalMeanScore(clampU(marginal.cdf(x - 0.5)), clampU(marginal.cdf(x + 0.5)));
    else out[i] = normPpf(clampU(marginal.cdf(x)));
  }
}

/** Pairwise polyserial-corrected correlations of the scores, repaired to a positive definite matrix. */
function estimateCorrelation(scores: Float64Array[], dims: number): Float64Array {
  const m = dims ? scores[0].length : 0;
  const variance = scores.map((s) => {
    let n = 0;
    let sum = 0;
    let sq = 0;
    for (let i = 0; i < m; i++) {
      if (Number.isNaN(s[i])) continue;
      n++;
      sum += s[i];
      sq += s[i] * s[i];
    }
    return n > 1 ? Math.max(0, sq / n - (sum / n) * (sum / n)) : 0;
  });
  const corr = new Float64Array(dims * dims);
  for (let a = 0; a < dims; a++) {
    corr[a * dims + a] = 1;
    for (let b = 0; b < a; b++) {
      let rho = 0;
      if (variance[a] > 1e-12 && variance[b] > 1e-12) {
        // Three rows at least: two points always correlate perfectly.
        const r = pearson(scores[a], scores[b], 3);
        // A continuous dimension's scores have variance ≈ 1, so the correction only acts on interval-scored ones.
        if (Number.isFinite(r)) rho = r / Math.sqrt(Math.min(1, variance[a]) * Math.min(1, variance[b]));
      }
      rho = Math.max(-MAX_ABS_CORRELATION, Math.min(MAX_ABS_CORRELATION, rho));
      corr[a * dims + b] = rho;
      corr[b * dims + a] = rho;
    }
  }
  return repairCorrelation(corr, dims, 1e-4);
}

/**
 * Optimal scaling of nominal columns: for each categorical dimension with three or more categories, the best linear
 * prediction of its score from the other dimensions (under the first correlation estimate) is averaged per
 * category, and the categories' intervals are laid out in that order. Returns whether any order changed.
 */
function reorderCategories(frame: Frame, encodings: ColumnEncoding[], scores: Float64Array[], corr: Float64Array, dims: number, rows: Uint32Array): boolean {
  const m = rows.length;
  const l = cholesky(corr, dims);
  if (!l || dims < 2) return false;
  // E[z_c | z_rest] = −Σ_k (P_ck / P_cc) z_k with P the precision matrix: one inversion serves every column.
  const precision = cholInverse(l, dims);
  let changed = false;
  encodings.forEach((enc, j) => {
    if (enc.kind !== 'categorical' || enc.order.length < 3) return;
    const c = enc.dim;
    const others: number[] = [];
    const w: number[] = [];
    for (let k = 0; k < dims; k++) {
      if (k === c || precision[c * dims + k] === 0) continue;
      others.push(k);
      w.push(-precision[c * dims + k] / precision[c * dims + c]);
    }
    const o = others.length;
    const codes = (frame.columns[j] as { codes: Int32Array }).codes;
    const sum = new Map<number, number>();
    const count = new Map<number, number>();
    for (let i = 0; i < m; i++) {
      let pred = 0;
      for (let a = 0; a < o; a++) {
        const s = scores[others[a]][i];
        if (!Number.isNaN(s)) pred += w[a] * s;
      }
      const code = codes[rows[i]] < 0 ? -1 : codes[rows[i]];
      sum.set(code, (sum.get(code) ?? 0) + pred);
      count.set(code, (count.get(code) ?? 0) + 1);
    }
    // Categories absent from the row sample keep their frequency position's neighbourhood via a neutral mean of 0.
    const key = (code: number): number => (count.get(code) ? (sum.get(code) as number) / (count.get(code) as number) : 0);
    const widths = enc.order.map((_, k) => enc.cum[k + 1] - enc.cum[k]);
    const idx = enc.order.map((_, k) => k);
    idx.sort((a, b) => key(enc.order[a]) - key(enc.order[b]) || a - b);
    if (idx.every((v, k) => v === k)) return;
    enc.order = idx.map((k) => enc.order[k]);
    enc.cum = cumulative(idx.map((k) => widths[k]));
    changed = true;
  });
  return changed;
}

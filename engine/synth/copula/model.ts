/**
 * The Gaussian copula's parameters (the JSON `params` of its SynthesizerModel) and the per-column encodings between
 * a column's values and the copula's latent normal dimensions.
 *
 * - A numeric or datetime column has a value dimension, the normal score Φ⁻¹(F(x)) of its marginal F, and, when it
 *   has missing cells, a missing-indicator dimension (present below the present share, missing above it), so that
 *   missingness is modelled jointly with the other columns, as SDV's "missing_value_generation: from_column".
 * - A categorical column has one dimension split into intervals, one per category (missing is a category), each as
 *   wide as its frequency: SDV's frequency encoding ("categorical → uniform interval by frequency").
 */
import { MarginalJSON } from './marginals';
import { normPdf, normPpf } from './special';

export const COPULA_FORMAT_VERSION = 1;

export interface NumericEncoding {
  kind: 'numeric';
  /** Index of the value dimension, or -1 for a column with no present value. */
  valueDim: number;
  /** Index of the missing-indicator dimension, or -1 when the column has no missing cell. */
  missingDim: number;
  /** Share of present cells: the indicator's latent uniform below it means present. */
  presentShare: number;
  marginal: MarginalJSON | null;
}

export interface CategoricalEncoding {
  kind: 'categorical';
  dim: number;
  /** Category codes (-1 = missing) in interval order. */
  order: number[];
  /** Interval bounds on the uniform scale: category order[k] holds [cum[k], cum[k + 1]); cum[0] = 0, last = 1. */
  cum: number[];
}

export type ColumnEncoding = NumericEncoding | CategoricalEncoding;

export interface CopulaParams {
  /** One encoding per source column, in the frame's column order. */
  encodings: ColumnEncoding[];
  /** Category labels of each categorical column (empty for the others), indexed by code. */
  levels: string[][];
  /** Number of latent dimensions. */
  dims: number;
  /** Correlation matrix of the latent normal scores, row-major dims × dims, positive definite. */
  correlation: number[];
  /** Rows the correlation was estimated on. */
  fitRows: number;
}

/** Mean of a standard normal restricted to [Φ⁻¹(lo), Φ⁻¹(hi)]: a value's normal score when it spans an interval. */
export function intervalMeanScore(lo: number, hi: number): number {
  if (!(hi - lo > 1e-12)) return normPpf(clampU(0.5 * (lo + hi)));
  const a = normPpf(lo);
  const b = normPpf(hi);
  const fa = Number.isFinite(a) ? normPdf(a) : 0;
  const fb = Number.isFinite(b) ? normPdf(b) : 0;
  return (fa - fb) / (hi - lo);
}

/** Uniforms are kept this far inside (0, 1) before Φ⁻¹, as copulas' EPSILON keeps scores finite. */
export const U_EPS = 1e-9;

export function clampU(u: number): number {
  return u < U_EPS ? U_EPS : u > 1 - U_EPS ? 1 - U_EPS : u;
}

/** Index of the interval of `cum` holding u (cum ascending from 0 to 1). */
export function intervalOf(cum: ArrayLike<number>, u: number): number {
  let lo = 0;
  let hi = cum.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (cum[mid] <= u) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

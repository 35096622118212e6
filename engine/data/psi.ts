/**
 * Population Stability Index helpers, shared by dataset version comparison and (later) drift detection.
 *
 * PSI = Σ (actualᵢ − expectedᵢ) · ln(actualᵢ / expectedᵢ) over bins of shares. A bin with a zero share in either
 * distribution would make the log infinite, so zero shares are replaced by {@link PSI_EPSILON} (0.0001, i.e. one
 * in ten thousand — the usual choice in credit-risk practice) before the sum. Missing values are left out.
 *
 * Numeric bins: interior edges at the reference distribution's deciles (linear interpolation, as quantile_cont),
 * duplicates removed (a column that is 60% zeros has fewer than 10 bins); bin i holds edgeᵢ₋₁ < x ≤ edgeᵢ with
 * open ends. Categorical bins: one per category seen in either distribution.
 */
import { getOwn } from '../own-keys';
export const PSI_EPSILON = 1e-4;
/** Default number of quantile bins for numeric PSI. */
export const PSI_BINS = 10;

/** Shift level thresholds: low < 0.1 ≤ moderate ≤ 0.25 < high. */
export type ShiftLevel = 'low' | 'moderate' | 'high';

/** Classifies a PSI value. */
export function shiftLevel(psi: number): ShiftLevel {
  if (psi < 0.1) return 'low';
  if (psi <= 0.25) return 'moderate';
  return 'high';
}

/** PSI of two aligned share vectors (each summing to 1). */
export function psiFromShares(expected: readonly number[], actual: readonly number[], epsilon = PSI_EPSILON): number {
  if (expected.length !== actual.length) throw new Error('share vectors must have the same length');
  let sum = 0;
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i] > 0 ? expected[i] : epsilon;
    const a = actual[i] > 0 ? actual[i] : epsilon;
    sum += (a - e) * Math.log(a / e);
  }
  return sum;
}

/** PSI of two aligned count vectors; an all-zero vector gives PSI 0 (nothing to compare). */
export function psiFromCounts(expected: readonly number[], actual: readonly number[], epsilon = PSI_EPSILON): number {
  const te = expected.reduce((s, x) => s + x, 0);
  const ta = actual.reduce((s, x) => s + x, 0);
  if (te === 0 || ta === 0) return 0;
  return psiFromShares(
    expected.map((x) => x / te),
    actual.map((x) => x / ta),
    epsilon,
  );
}

/** Linear-interpolation quantile of an ascending-sorted array (numpy/pandas 'linear', DuckDB quantile_cont). */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new Error('empty sample');
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Interior bin edges at the reference sample's quantiles (deciles for 10 bins), de-duplicated, ascending. */
export function quantileEdges(reference: readonly number[], bins = PSI_BINS): number[] {
  const sorted = reference.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const edges: number[] = [];
  for (let i = 1; i < bins; i++) {
    const e = quantileSorted(sorted, i / bins);
    if (edges.length === 0 || e > edges[edges.length - 1]) edges.push(e);
  }
  return edges;
}

/** Counts of `values` in the bins (-∞, e₁], (e₁, e₂], …, (eₖ, ∞); non-finite values are skipped. */
export function binCounts(values: readonly number[], edges: readonly number[]): number[] {
  const counts = new Array<number>(edges.length + 1).fill(0);
  for (const x of values) {
    if (!Number.isFinite(x)) continue;
    let lo = 0;
    let hi = edges.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (x <= edges[mid]) hi = mid;
      else lo = mid + 1;
    }
    counts[lo] += 1;
  }
  return counts;
}

/** Numeric PSI of `current` against `reference`, with bin edges from the reference sample's quantiles. */
export function numericPsi(reference: readonly number[], current: readonly number[], bins = PSI_BINS): number {
  const edges = quantileEdges(reference, bins);
  return psiFromCounts(binCounts(reference, edges), binCounts(current, edges));
}

/** Categorical PSI from per-category counts; categories absent on one side count as zero there. */
export function categoricalPsi(reference: Record<string, number>, current: Record<string, number>): number {
  const keys = [...new Set([...Object.keys(reference), ...Object.keys(current)])];
  return psiFromCounts(
    keys.map((k) => getOwn(reference, k) ?? 0),
    keys.map((k) => getOwn(current, k) ?? 0),
  );
}

/**
 * A numeric column's marginal distribution for the Gaussian copula (and CopulaGAN's input transform).
 *
 * The rule, after SDV's `copulas` (which picks the candidate with the smallest Kolmogorov–Smirnov statistic):
 * 1. A column with at most ALWAYS_DISCRETE_DISTINCT distinct values is discrete: no continuous family describes it,
 *    so it gets its exact empirical distribution (a step quantile function).
 * 2. Otherwise each family of FAMILY_FITS (uniform, normal, gamma, beta, truncated normal) is fitted on a sample of at
 *    most FIT_MAX_POINTS order statistics and scored by the one-sample KS statistic D on at most KS_MAX_POINTS. A family with more parameters
 *    must beat the best so far by 0.5/√n per extra parameter (about half of D's sampling noise each) to be chosen.
 * 3. The best family is kept when the KS test does not reject it at the 5 % level (D ≤ 1.36/√n); else the column
 *    gets the empirical distribution: exact steps when it has at most DISCRETE_MAX_DISTINCT distinct values, else a
 *    quantile table of EMPIRICAL_KNOTS points, linear in between (either way at most 1,000 knots).
 */
import { Distribution, distributionOf, FAMILY_FITS, FamilyName } from './families';

/** An empirical marginal with at most this many distinct values is stored as exact steps (two knots per value). */
export const DISCRETE_MAX_DISTINCT = 500;
/** Order statistics the families are fitted on, and scored on (evenly spaced subsets of the sorted column). */
export const FIT_MAX_POINTS = 1_000;
export const KS_MAX_POINTS = 10_000;
/** Knots of a continuous column's empirical quantile table. */
export const EMPIRICAL_KNOTS = 1_000;
/** Columns with at most this many distinct values are not offered parametric families (rule 1). */
export const ALWAYS_DISCRETE_DISTINCT = 30;

/** A marginal's JSON form: a family and its parameters, or an empirical quantile table (p ascending, q non-decreasing). */
export type MarginalJSON = { family: FamilyName; params: Record<string, number> } | { family: 'empirical'; p: number[]; q: number[] };

/** A fitted marginal: CDF, quantile function and JSON form. */
export interface Marginal {
  family: string;
  cdf(x: number): number;
  ppf(u: number): number;
  toJSON(): MarginalJSON;
}

/** The KS statistic of a sorted sample against a CDF. */
export function ksStatistic(sorted: Float64Array, cdf: (x: number) => number): number {
  const n = sorted.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(sorted[i]);
    const hi = (i + 1) / n - f;
    const lo = f - i / n;
    if (hi > d) d = hi;
    if (lo > d) d = lo;
  }
  return d;
}

/**
 * Fits a column's marginal on its present (non-missing) values by the rule in this module's header.
 * Throws when there is no present value.
 */
export function fitMarginal(present: Float64Array): Marginal {
  if (present.length === 0) throw new Error('fitMarginal: the column has no present value');
  const sorted = Float64Array.from(present).sort();
  const n = sorted.length;
  let distinct = 1;
  for (let i = 1; i < n && distinct <= DISCRETE_MAX_DISTINCT; i++) if (sorted[i] !== sorted[i - 1]) distinct++;
  if (distinct <= ALWAYS_DISCRETE_DISTINCT) return empiricalMarginal(discreteKnots(sorted));
  const sub = evenOrderStatistics(sorted, KS_MAX_POINTS);
  const fitSub = evenOrderStatistics(sorted, FIT_MAX_POINTS);
  const m = sub.length;
  const margin = 0.5 / Math.sqrt(m);
  let best: { dist: Distribution; d: number; parameters: number } | null = null;
  for (const { fit, parameters } of FAMILY_FITS) {
    let dist: Distribution | null;
    try {
      dist = fit(fitSub);
    } catch {
      dist = null; // a family that cannot describe the sample simply drops out, as in copulas' select_univariate
    }
    if (!dist) continue;
    const d = ksStatistic(sub, dist.cdf);
    if (!Number.isFinite(d)) continue;
    if (!best || d < best.d - margin * Math.max(0, parameters - best.parameters)) best = { dist, d, parameters };
  }
  if (best && best.d <= 1.36 / Math.sqrt(m)) return parametricMarginal(best.dist);
  return empiricalMarginal(distinct <= DISCRETE_MAX_DISTINCT ? discreteKnots(sorted) : quantileKnots(sorted, EMPIRICAL_KNOTS));
}

/** Rebuilds a marginal from its JSON form. */
export function marginalFromJSON(json: MarginalJSON): Marginal {
  if (json.family === 'empirical') return empiricalMarginal({ p: Float64Array.from(json.p), q: Float64Array.from(json.q) });
  return parametricMarginal(distributionOf(json.family, json.params));
}

/** A marginal's JSON form (the same as `marginal.toJSON()`). */
export function marginalToJSON(m: Marginal): MarginalJSON {
  return m.toJSON();
}

/**
 * How an empirical marginal (from its JSON) holds the value x: an atom (a tied or discrete value) with its probability
 * interval [F(x−), F(x)]; a gap between discrete values, which it never produces; or neither (a point of a continuous
 * stretch). Parametric marginals have no atoms and no gaps inside their range.
 */
export function empiricalMass(json: MarginalJSON, x: number): { atom: [number, number] } | 'gap' | null {
  if (json.family !== 'empirical') return null;
  const { p, q } = json;
  let first = -1;
  let last = -1;
  for (let k = 0; k < q.length; k++) {
    if (q[k] !== x) continue;
    if (first < 0) first = k;
    last = k;
  }
  if (first >= 0) return p[last] > p[first] ? { atom: [p[first], p[last]] } : null;
  for (let k = 0; k + 1 < q.length; k++) if (q[k] < x && x < q[k + 1]) return p[k + 1] > p[k] ? null : 'gap';
  return null;
}

function parametricMarginal(dist: Distribution): Marginal {
  return {
    family: dist.family,
    cdf: (x) => dist.cdf(x),
    ppf: (u) => dist.ppf(u),
    toJSON: () => ({ family: dist.family, params: { ...dist.params } }),
  };
}

/** `k` order statistics spread evenly over a sorted sample (all of it when it is small). */
function evenOrderStatistics(sorted: Float64Array, k: number): Float64Array {
  if (sorted.length <= k) return sorted;
  const out = new Float64Array(k);
  for (let i = 0; i < k; i++) out[i] = sorted[Math.floor(((i + 0.5) * sorted.length) / k)];
  return out;
}

interface Knots {
  p: Float64Array;
  q: Float64Array;
}

/** A step quantile function: each distinct value holds its probability as a flat stretch (F(v−), v) … (F(v), v). */
function discreteKnots(sorted: Float64Array): Knots {
  const p: number[] = [];
  const q: number[] = [];
  const n = sorted.length;
  let start = 0;
  for (let i = 1; i <= n; i++) {
    if (i === n || sorted[i] !== sorted[start]) {
      p.push(start / n, i / n);
      q.push(sorted[start], sorted[start]);
      start = i;
    }
  }
  return { p: Float64Array.from(p), q: Float64Array.from(q) };
}

/** The sample quantiles at k evenly spaced probabilities 0..1 (NumPy's default linear interpolation). */
function quantileKnots(sorted: Float64Array, k: number): Knots {
  const n = sorted.length;
  const p = new Float64Array(k);
  const q = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    p[i] = i / (k - 1);
    const h = (n - 1) * p[i];
    const lo = Math.floor(h);
    const hi = Math.min(n - 1, lo + 1);
    q[i] = sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
  }
  return { p, q };
}

/** First index whose entry is ≥ x (or > x when `strict`) in an ascending array. */
function searchSorted(a: Float64Array, x: number, strict: boolean): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (strict ? a[mid] <= x : a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The empirical marginal: the quantile function interpolates the knots linearly; the CDF inverts it, and at a value
 * the table holds as a flat stretch (a tie or a discrete value) returns the middle of that stretch's probabilities,
 * which is the value's mid-rank.
 */
function empiricalMarginal({ p, q }: Knots): Marginal {
  const last = q.length - 1;
  return {
    family: 'empirical',
    cdf: (x) => {
      if (Number.isNaN(x)) return NaN;
      if (x < q[0]) return 0;
      if (x > q[last]) return 1;
      const lo = searchSorted(q, x, false);
      const hi = searchSorted(q, x, true);
      if (hi > lo) return 0.5 * (p[lo] + p[hi - 1]);
      const k = lo - 1;
      return p[k] + ((x - q[k]) / (q[lo] - q[k])) * (p[lo] - p[k]);
    },
    ppf: (u) => {
      if (Number.isNaN(u)) return NaN;
      if (u <= p[0]) return q[0];
      if (u >= p[last]) return q[last];
      const k = searchSorted(p, u, true) - 1;
      const width = p[k + 1] - p[k];
      return width > 0 ? q[k] + ((u - p[k]) / width) * (q[k + 1] - q[k]) : q[k + 1];
    },
    toJSON: () => ({ family: 'empirical', p: Array.from(p), q: Array.from(q) }),
  };
}

/**
 * INJECTION POINT for CopulaGAN's marginals. CopulaGAN passes each numeric column through a fitted marginal
 * distribution to normal scores before CTGAN, and back after sampling. The Gaussian copula's marginals (the best
 * of a set of parametric families by KS, or the empirical distribution) live in engine/synth/copula/marginals.ts;
 * at merge this file becomes
 *
 *   export { fitMarginal, marginalFromJSON } from '../copula/marginals';
 *
 * (keeping the `Marginal` interface below, which that module's marginals satisfy). Until then it provides an
 * empirical marginal of its own, so CopulaGAN trains and samples on this branch. It is a module, not a runtime
 * setter, because training runs in a worker thread that loads its own copy of the modules.
 */

/** What CopulaGAN needs of a fitted marginal. */
export interface Marginal {
  family: string;
  cdf(x: number): number;
  ppf(u: number): number;
  toJSON(): unknown;
}

/** Knots kept by the empirical marginal: the CDF is linear between them (bounded size whatever the column length). */
const EMPIRICAL_KNOTS = 1000;

/** The empirical distribution of the present values, piecewise linear between at most EMPIRICAL_KNOTS quantiles. */
export function fitMarginal(present: Float64Array): Marginal {
  if (present.length === 0) throw new Error('fitMarginal: no values');
  const sorted = Float64Array.from(present).sort();
  const k = Math.min(EMPIRICAL_KNOTS, sorted.length);
  const xs: number[] = [];
  const ps: number[] = [];
  for (let i = 0; i < k; i++) {
    const q = k === 1 ? 0.5 : i / (k - 1);
    const pos = q * (sorted.length - 1);
    const x = sorted[Math.floor(pos)] + (pos - Math.floor(pos)) * (sorted[Math.ceil(pos)] - sorted[Math.floor(pos)]);
    if (xs.length && x <= xs[xs.length - 1]) {
      ps[ps.length - 1] = q; // ties: one knot at the tie's top quantile
      continue;
    }
    xs.push(x);
    ps.push(q);
  }
  return empirical(xs, ps);
}

/** A marginal from its `toJSON()`. */
export function marginalFromJSON(json: unknown): Marginal {
  const j = json as { family?: string; xs?: number[]; ps?: number[] };
  if (j?.family !== 'empirical' || !Array.isArray(j.xs) || !Array.isArray(j.ps)) throw new Error('marginalFromJSON: not an empirical marginal');
  return empirical(j.xs, j.ps);
}

function empirical(xs: number[], ps: number[]): Marginal {
  const n = xs.length;
  // Probabilities of the knots, spread to (0, 1) so that normal scores stay finite at the range's ends.
  const lo = 0.5 / Math.max(n, 2);
  const p = ps.map((q) => lo + q * (1 - 2 * lo));
  const search = (arr: number[], v: number) => {
    let a = 0;
    let b = arr.length - 1;
    while (b - a > 1) {
      const m = (a + b) >> 1;
      if (arr[m] <= v) a = m;
      else b = m;
    }
    return a;
  };
  return {
    family: 'empirical',
    cdf(x: number): number {
      if (n === 1) return 0.5;
      if (x <= xs[0]) return p[0];
      if (x >= xs[n - 1]) return p[n - 1];
      const i = search(xs, x);
      return p[i] + ((x - xs[i]) / (xs[i + 1] - xs[i])) * (p[i + 1] - p[i]);
    },
    ppf(u: number): number {
      if (n === 1) return xs[0];
      if (u <= p[0]) return xs[0];
      if (u >= p[n - 1]) return xs[n - 1];
      const i = search(p, u);
      return xs[i] + ((u - p[i]) / (p[i + 1] - p[i])) * (xs[i + 1] - xs[i]);
    },
    toJSON: () => ({ family: 'empirical', xs, ps }),
  };
}

/**
 * CopulaGAN (SDV's CopulaGANSynthesizer): CTGAN on a table whose numeric and datetime columns are first replaced by
 * normal scores Φ^-1(F(x)) under fitted marginals F, and mapped back by F^-1(Φ(z)) after sampling. The GAN then
 * models the copula (the dependence) on well-behaved Gaussian-shaped inputs while the marginals carry each
 * column's exact shape. Marginals come from ./marginal-source.ts (the injection point for the copula's).
 */
import type { Column, Frame } from '../../automl';
import { fitMarginal, Marginal, marginalFromJSON, MarginalJSON } from './marginal-source';
import { normalCdf, normalPpf } from './normal';

/** Normal scores are kept off ±infinity (a CDF of exactly 0 or 1 at the range's ends). */
const U_CLIP = 1e-6;

/** One marginal per numeric or datetime column with present values (null elsewhere). */
export function fitCopulaMarginals(frame: Frame): Array<Marginal | null> {
  return frame.columns.map((c) => {
    if (c.kind === 'categorical') return null;
    const values = c.kind === 'numeric' ? c.values : c.epochMs;
    const present = values.filter((v) => !Number.isNaN(v));
    return present.length ? fitMarginal(present) : null;
  });
}

/** The frame with each marginal's column replaced by its normal scores (missing stays missing). */
export function toNormalScores(frame: Frame, marginals: Array<Marginal | null>): Frame {
  const columns = frame.columns.map((c, j): Column => {
    const m = marginals[j];
    if (!m || c.kind === 'categorical') return c;
    const values = c.kind === 'numeric' ? c.values : c.epochMs;
    const z = new Float64Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      z[i] = Number.isNaN(v) ? NaN : normalPpf(Math.min(1 - U_CLIP, Math.max(U_CLIP, m.cdf(v))));
    }
    return { kind: 'numeric', values: z };
  });
  return { names: frame.names.slice(), columns, nrows: frame.nrows };
}

/** Maps sampled normal scores back through the marginal, in place. */
export function fromNormalScores(values: Float64Array, marginal: Marginal): Float64Array {
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) values[i] = marginal.ppf(Math.min(1 - U_CLIP, Math.max(U_CLIP, normalCdf(values[i]))));
  return values;
}

/** Marginals from their JSON (a model's params). */
export function loadMarginals(json: Array<unknown | null>): Array<Marginal | null> {
  return json.map((j) => (j === null ? null : marginalFromJSON(j as MarginalJSON)));
}

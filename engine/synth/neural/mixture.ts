/**
 * A one-dimensional variational Bayesian Gaussian mixture with a Dirichlet-process prior on the weights: the
 * model CTGAN's mode-specific normalization fits per numeric column (RDT's ClusterBasedNormalizer wraps
 * scikit-learn's BayesianGaussianMixture(n_components=10, weight_concentration_prior_type='dirichlet_process',
 * weight_concentration_prior=0.001) and keeps the components whose weight exceeds 0.005).
 *
 * The updates follow scikit-learn's implementation (Bishop, PRML ch. 10; Blei & Jordan 2006 for the stick-breaking
 * weights) specialised to one feature: k-means initialisation of the responsibilities, then alternating the
 * variational E step (expected log weights from the Beta posteriors, expected log precisions from the Wishart
 * posteriors) and M step (Normal-Wishart posteriors with scikit-learn's default priors: mean prior the data mean,
 * mean precision prior 1, degrees of freedom prior 1, covariance prior the data variance) until the evidence lower
 * bound changes by less than `tol`.
 *
 * Bounds: at most `maxFitValues` values (an even sample of larger columns) and `maxIter` iterations, so a fit costs
 * O(maxFitValues * components * maxIter) whatever the column's length.
 */
import { NeuralRng } from './rng';
import { betaln, digamma, lgamma } from './special';

export interface MixtureOptions {
  maxComponents?: number;
  weightConcentrationPrior?: number;
  maxIter?: number;
  tol?: number;
  regCovar?: number;
  /** Values used for the fit; longer columns are sampled evenly. */
  maxFitValues?: number;
  seed?: number;
}

export const MIXTURE_DEFAULTS = { maxComponents: 10, weightConcentrationPrior: 1e-3, maxIter: 100, tol: 1e-3, regCovar: 1e-6, maxFitValues: 20_000, seed: 0 };

/** A fitted mixture: every component, with what the posterior needs precomputed. */
export interface VariationalMixture {
  /** Posterior mean of each component's location. */
  means: number[];
  /** Standard deviation of each component (sqrt of scikit-learn's `covariances_`). */
  stds: number[];
  /** Expected mixing weights (`weights_`). */
  weights: number[];
  /** Per component: log p_k(x) = logConst[k] - 0.5 * precision[k] * (x - means[k])^2 (variational E step). */
  logConst: number[];
  precision: number[];
  iterations: number;
  converged: boolean;
}

interface Posterior {
  a: Float64Array; // Beta posterior of the stick-breaking weights
  b: Float64Array;
  meanPrecision: Float64Array;
  means: Float64Array;
  dof: Float64Array;
  cov: Float64Array; // covariance_ (already divided by dof)
}

/** Fits the mixture to the present values (no NaN). */
export function fitVariationalMixture(values: Float64Array, options: MixtureOptions = {}): VariationalMixture {
  const o = { ...MIXTURE_DEFAULTS, ...options };
  const x = evenSample(values, o.maxFitValues);
  const n = x.length;
  if (n === 0) throw new Error('fitVariationalMixture: no values');
  const K = Math.max(1, Math.min(o.maxComponents, n));
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i];
  mean /= n;
  let variance = 0;
  for (let i = 0; i < n; i++) variance += (x[i] - mean) ** 2;
  // np.cov of one feature (ddof 1); a constant column has none, so the covariance regularisation carries it.
  variance = n > 1 ? variance / (n - 1) : 0;
  const prior = { alpha: o.weightConcentrationPrior, m0: mean, beta0: 1, nu0: 1, w0: variance };

  const resp = new Float64Array(n * K);
  const labels = kmeans1d(x, K, new NeuralRng(o.seed));
  for (let i = 0; i < n; i++) resp[i * K + labels[i]] = 1;
  let post = mStep(K, responsibilitySums(x, resp, K), prior, o.regCovar);
  let lowerBound = -Infinity;
  let converged = false;
  let iter: number;
  const lp = new Float64Array(K);
  const half = new Float64Array(K);
  for (iter = 1; iter <= o.maxIter; iter++) {
    const { logConst, precision } = eStepConstants(post, K);
    const means = post.means;
    for (let k = 0; k < K; k++) half[k] = -0.5 * precision[k];
    // The E step, with the M step's first sums (N_k and sum r x) taken in the same pass over the responsibilities.
    const nk = new Float64Array(K).fill(NK_EPS);
    const xk = new Float64Array(K);
    let entropy = 0;
    for (let i = 0; i < n; i++) {
      const row = i * K;
      const xi = x[i];
      let max = -Infinity;
      for (let k = 0; k < K; k++) {
        const d = xi - means[k];
        const v = logConst[k] + half[k] * d * d;
        lp[k] = v;
        if (v > max) max = v;
      }
      let s = 0;
      for (let k = 0; k < K; k++) {
        const e = Math.exp(lp[k] - max);
        resp[row + k] = e;
        s += e;
      }
      const norm = max + Math.log(s);
      const inv = 1 / s;
      for (let k = 0; k < K; k++) {
        const r = resp[row + k] * inv;
        resp[row + k] = r;
        // r is 0 only where exp underflowed, and lp is finite, so 0 * (lp - norm) adds nothing: no branch needed.
        entropy -= r * (lp[k] - norm);
        nk[k] += r;
        xk[k] += r * xi;
      }
    }
    post = mStep(K, withSpread(x, resp, K, nk, xk), prior, o.regCovar);
    const lb = lowerBoundOf(post, K, entropy);
    if (Math.abs(lb - lowerBound) < o.tol) {
      converged = true;
      break;
    }
    lowerBound = lb;
  }
  const { logConst, precision } = eStepConstants(post, K);
  return {
    means: Array.from(post.means),
    stds: Array.from(post.cov, (c) => Math.sqrt(c)),
    weights: expectedWeights(post, K),
    logConst: Array.from(logConst),
    precision: Array.from(precision),
    iterations: Math.min(iter, o.maxIter),
    converged,
  };
}

/** Posterior responsibilities of every component for one value (scikit-learn's predict_proba), into `out`. */
export function mixturePosterior(m: VariationalMixture, x: number, out: Float64Array): Float64Array {
  const K = m.means.length;
  let max = -Infinity;
  for (let k = 0; k < K; k++) {
    const lp = m.logConst[k] - 0.5 * m.precision[k] * (x - m.means[k]) ** 2;
    out[k] = lp;
    if (lp > max) max = lp;
  }
  let s = 0;
  for (let k = 0; k < K; k++) s += out[k] = Math.exp(out[k] - max);
  for (let k = 0; k < K; k++) out[k] /= s;
  return out;
}

function evenSample(values: Float64Array, max: number): Float64Array {
  if (values.length <= max) return values;
  const out = new Float64Array(max);
  const step = values.length / max;
  for (let i = 0; i < max; i++) out[i] = values[Math.floor(i * step)];
  return out;
}

/** N_k (from NK_EPS, as scikit-learn's 10 * machine epsilon), each component's mean x_k and spread S_k. */
interface ResponsibilitySums {
  nk: Float64Array;
  xk: Float64Array;
  sk: Float64Array;
}

const NK_EPS = 10 * 2.220446049250313e-16;

function responsibilitySums(x: Float64Array, resp: Float64Array, K: number): ResponsibilitySums {
  const nk = new Float64Array(K).fill(NK_EPS);
  const xk = new Float64Array(K);
  for (let i = 0; i < x.length; i++) {
    for (let k = 0; k < K; k++) {
      const r = resp[i * K + k];
      nk[k] += r;
      xk[k] += r * x[i];
    }
  }
  return withSpread(x, resp, K, nk, xk);
}

/** Completes the sums from N_k and sum r x (turned into x_k in place): S_k = sum r (x - x_k)^2 / N_k, a second pass. */
function withSpread(x: Float64Array, resp: Float64Array, K: number, nk: Float64Array, xk: Float64Array): ResponsibilitySums {
  for (let k = 0; k < K; k++) xk[k] /= nk[k];
  const sk = new Float64Array(K);
  for (let i = 0; i < x.length; i++) {
    const xi = x[i];
    for (let k = 0, row = i * K; k < K; k++) {
      const d = xi - xk[k];
      sk[k] += resp[row + k] * d * d;
    }
  }
  for (let k = 0; k < K; k++) sk[k] /= nk[k];
  return { nk, xk, sk };
}

function mStep(K: number, sums: ResponsibilitySums, prior: { alpha: number; m0: number; beta0: number; nu0: number; w0: number }, regCovar: number): Posterior {
  const { nk, xk } = sums;
  const sk = sums.sk.map((v) => v + regCovar);

  // Stick-breaking Beta posteriors: a = 1 + N_k, b = alpha + sum_{j > k} N_j.
  const a = new Float64Array(K);
  const b = new Float64Array(K);
  let tail = 0;
  for (let k = K - 1; k >= 0; k--) {
    a[k] = 1 + nk[k];
    b[k] = prior.alpha + tail;
    tail += nk[k];
  }
  const meanPrecision = new Float64Array(K);
  const means = new Float64Array(K);
  const dof = new Float64Array(K);
  const cov = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    meanPrecision[k] = prior.beta0 + nk[k];
    means[k] = (prior.beta0 * prior.m0 + nk[k] * xk[k]) / meanPrecision[k];
    dof[k] = prior.nu0 + nk[k];
    const diff = xk[k] - prior.m0;
    cov[k] = (prior.w0 + nk[k] * sk[k] + ((nk[k] * prior.beta0) / meanPrecision[k]) * diff * diff) / dof[k];
  }
  return { a, b, meanPrecision, means, dof, cov };
}

/** The E step's per-component constants: expected log weight, log precision and normalisation. */
function eStepConstants(p: Posterior, K: number): { logConst: Float64Array; precision: Float64Array } {
  const logConst = new Float64Array(K);
  const precision = new Float64Array(K);
  let stick = 0;
  for (let k = 0; k < K; k++) {
    const dsum = digamma(p.a[k] + p.b[k]);
    const logWeight = digamma(p.a[k]) - dsum + stick;
    stick += digamma(p.b[k]) - dsum;
    const precChol = 1 / Math.sqrt(p.cov[k]);
    precision[k] = precChol * precChol;
    const logGaussConst = -0.5 * Math.log(2 * Math.PI) + Math.log(precChol) - 0.5 * Math.log(p.dof[k]);
    const logLambda = Math.LN2 + digamma(0.5 * p.dof[k]);
    logConst[k] = logWeight + logGaussConst + 0.5 * (logLambda - 1 / p.meanPrecision[k]);
  }
  // The expected quadratic term scales with the expected precision dof * W = dof / (dof * cov) = 1 / cov.
  return { logConst, precision };
}

function lowerBoundOf(p: Posterior, K: number, entropy: number): number {
  let logWishart = 0;
  let logNormWeight = 0;
  let logMeanPrecision = 0;
  for (let k = 0; k < K; k++) {
    const logDetPrecChol = -0.5 * Math.log(p.cov[k]) - 0.5 * Math.log(p.dof[k]);
    logWishart += -(p.dof[k] * logDetPrecChol + p.dof[k] * 0.5 * Math.LN2 + lgamma(0.5 * p.dof[k]));
    logNormWeight += betaln(p.a[k], p.b[k]);
    logMeanPrecision += Math.log(p.meanPrecision[k]);
  }
  return entropy - logWishart - logNormWeight - 0.5 * logMeanPrecision;
}

function expectedWeights(p: Posterior, K: number): number[] {
  const w = new Array<number>(K);
  let rest = 1;
  let total = 0;
  for (let k = 0; k < K; k++) {
    const s = p.a[k] + p.b[k];
    w[k] = (p.a[k] / s) * rest;
    rest *= p.b[k] / s;
    total += w[k];
  }
  return w.map((v) => v / total);
}

/**
 * k-means on a line (k-means++ seeding, then Lloyd iterations), the responsibilities' initialisation as in
 * scikit-learn. Returns each value's cluster.
 */
export function kmeans1d(x: Float64Array, k: number, rng: NeuralRng, maxIter = 300): Int32Array {
  const n = x.length;
  const centers = new Float64Array(k);
  const d2 = new Float64Array(n).fill(Infinity);
  centers[0] = x[rng.int(n)];
  for (let c = 1; c < k; c++) {
    let total = 0;
    for (let i = 0; i < n; i++) {
      const d = (x[i] - centers[c - 1]) * (x[i] - centers[c - 1]);
      if (d < d2[i]) d2[i] = d;
      total += d2[i];
    }
    if (total === 0) {
      centers[c] = centers[c - 1];
      continue;
    }
    let target = rng.next() * total;
    let pick = n - 1;
    for (let i = 0; i < n; i++) {
      target -= d2[i];
      if (target < 0) {
        pick = i;
        break;
      }
    }
    centers[c] = x[pick];
  }
  const labels = new Int32Array(n);
  const sums = new Float64Array(k);
  const counts = new Float64Array(k);
  for (let it = 0; it < maxIter; it++) {
    sums.fill(0);
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bestD = Infinity;
      for (let c = 0; c < k; c++) {
        const d = (x[i] - centers[c]) * (x[i] - centers[c]);
        if (d < bestD) {
          bestD = d;
          best = c;
        }
      }
      labels[i] = best;
      sums[best] += x[i];
      counts[best]++;
    }
    let shift = 0;
    for (let c = 0; c < k; c++) {
      if (counts[c] === 0) continue; // an empty cluster keeps its centre
      const nc = sums[c] / counts[c];
      shift += (nc - centers[c]) ** 2;
      centers[c] = nc;
    }
    if (shift <= 1e-12 * (1 + Math.abs(centers[0]))) break;
  }
  return labels;
}

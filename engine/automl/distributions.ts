/**
 * Loss functions for boosting: initial margin, gradients/hessians of the loss with respect to the
 * margin, and (for H2O-style GBM) the leaf value refit. Margins are row-major n x K.
 */
import { Link } from './model';
import { GRAD_BERNOULLI, GRAD_GAUSSIAN, bernoulliGradients, gaussianGradients } from './trees';

export type DistributionName = 'bernoulli' | 'multinomial' | 'gaussian' | 'poisson' | 'gamma' | 'tweedie' | 'huber' | 'quantile' | 'laplace';

export interface DistributionOptions {
  tweediePower?: number;
  quantileAlpha?: number;
  /** Huber: the delta is this quantile of the absolute residuals, recomputed every iteration (H2O huber_alpha). */
  huberAlpha?: number;
  /** Multiplier of the hessian for logistic losses (XGBoost uses 2 for multi:softprob). */
  hessianScale?: number;
}

export interface Distribution {
  name: DistributionName;
  link: Link;
  /** Initial margin per output. */
  init(y: Float64Array, rows: Uint32Array, K: number): number[];
  /** Called once per iteration before grad() (softmax probabilities, Huber delta...). */
  prepare(y: Float64Array, margins: Float64Array, rows: Uint32Array, K: number): void;
  /** Gradient and hessian of output k for the given rows. */
  grad(y: Float64Array, margins: Float64Array, rows: Uint32Array, K: number, k: number, g: Float64Array, h: Float64Array): void;
  /** Leaf value from its rows, for losses where a Newton step is wrong (median, quantile); null = Newton. */
  refit: ((y: Float64Array, margins: Float64Array, rows: Uint32Array, start: number, end: number) => number) | null;
  /**
   * Set when grad() (K = 1, no prepare state) is a row kernel of trees/row-jobs.ts that helper threads
   * can run on parts of the rows: its GRAD_* kind and hessian scale.
   */
  rowKernel?: { kind: number; hs: number };
}

const EPS = 1e-16;

function quantileOf(values: Float64Array, alpha: number): number {
  if (values.length === 0) return 0;
  const s = values.slice().sort();
  // Linear interpolation between order statistics (numpy's default), for a stable median.
  const pos = alpha * (s.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(s.length - 1, lo + 1);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

function meanOf(y: Float64Array, rows: Uint32Array): number {
  let s = 0;
  for (let i = 0; i < rows.length; i++) s += y[rows[i]];
  return rows.length ? s / rows.length : 0;
}

/** Builds a distribution object. */
export function makeDistribution(name: DistributionName, opts: DistributionOptions = {}): Distribution {
  const hs = opts.hessianScale ?? 1;
  const logInit = (y: Float64Array, rows: Uint32Array): number[] => [Math.log(Math.max(meanOf(y, rows), 1e-12))];
  switch (name) {
    case 'gaussian':
      return {
        name,
        link: 'identity',
        init: (y, rows) => [meanOf(y, rows)],
        prepare: () => undefined,
        grad: (y, m, rows, K, k, g, h) => gaussianGradients(y, m, rows, 0, rows.length, g, h),
        refit: null,
        rowKernel: { kind: GRAD_GAUSSIAN, hs: 1 },
      };
    case 'bernoulli':
      return {
        name,
        link: 'logistic',
        init: (y, rows) => {
          const p = Math.min(1 - 1e-12, Math.max(1e-12, meanOf(y, rows)));
          return [Math.log(p / (1 - p))];
        },
        prepare: () => undefined,
        grad: (y, m, rows, K, k, g, h) => bernoulliGradients(y, m, rows, 0, rows.length, g, h, hs),
        refit: null,
        rowKernel: { kind: GRAD_BERNOULLI, hs },
      };
    case 'multinomial': {
      let probs = new Float64Array(0);
      return {
        name,
        link: 'softmax',
        init: (y, rows, K) => {
          // Log class priors (H2O); XGBoost callers override with zeros.
          const c = new Float64Array(K);
          for (const r of rows) c[y[r]]++;
          return Array.from(c, (v) => Math.log(Math.max(v / rows.length, 1e-12)));
        },
        prepare: (y, m, rows, K) => {
          if (probs.length !== m.length) probs = new Float64Array(m.length);
          for (const r of rows) {
            let mx = -Infinity;
            for (let k = 0; k < K; k++) mx = Math.max(mx, m[r * K + k]);
            let s = 0;
            for (let k = 0; k < K; k++) s += probs[r * K + k] = Math.exp(m[r * K + k] - mx);
            for (let k = 0; k < K; k++) probs[r * K + k] /= s;
          }
        },
        grad: (y, m, rows, K, k, g, h) => {
          for (const r of rows) {
            const p = probs[r * K + k];
            g[r] = p - (y[r] === k ? 1 : 0);
            h[r] = Math.max(hs * p * (1 - p), EPS);
          }
        },
        refit: null,
      };
    }
    case 'poisson':
      return {
        name,
        link: 'log',
        init: logInit,
        prepare: () => undefined,
        grad: (y, m, rows, K, k, g, h) => {
          for (const r of rows) {
            const mu = Math.exp(m[r]);
            g[r] = mu - y[r];
            h[r] = Math.max(mu, EPS);
          }
        },
        refit: null,
      };
    case 'gamma':
      return {
        name,
        link: 'log',
        init: logInit,
        prepare: () => undefined,
        grad: (y, m, rows, K, k, g, h) => {
          for (const r of rows) {
            const e = y[r] * Math.exp(-m[r]);
            g[r] = 1 - e;
            h[r] = Math.max(e, EPS);
          }
        },
        refit: null,
      };
    case 'tweedie': {
      const rho = opts.tweediePower ?? 1.5;
      return {
        name,
        link: 'log',
        init: logInit,
        prepare: () => undefined,
        grad: (y, m, rows, K, k, g, h) => {
          for (const r of rows) {
            const a = Math.exp((1 - rho) * m[r]);
            const b = Math.exp((2 - rho) * m[r]);
            g[r] = -y[r] * a + b;
            h[r] = Math.max(-(1 - rho) * y[r] * a + (2 - rho) * b, EPS);
          }
        },
        refit: null,
      };
    }
    case 'huber': {
      const alpha = opts.huberAlpha ?? 0.9;
      let delta = 1;
      return {
        name,
        link: 'identity',
        init: (y, rows) => [meanOf(y, rows)],
        prepare: (y, m, rows) => {
          const abs = new Float64Array(rows.length);
          rows.forEach((r, i) => (abs[i] = Math.abs(y[r] - m[r])));
          delta = Math.max(quantileOf(abs, alpha), 1e-12);
        },
        grad: (y, m, rows, K, k, g, h) => {
          for (const r of rows) {
            const d = m[r] - y[r];
            g[r] = Math.abs(d) <= delta ? d : delta * Math.sign(d);
            h[r] = 1;
          }
        },
        refit: null,
      };
    }
    case 'laplace':
    case 'quantile': {
      const alpha = name === 'laplace' ? 0.5 : (opts.quantileAlpha ?? 0.5);
      return {
        name,
        link: 'identity',
        init: (y, rows) => [
          quantileOf(
            Float64Array.from(rows, (r) => y[r]),
            alpha,
          ),
        ],
        prepare: () => undefined,
        grad: (y, m, rows, K, k, g, h) => {
          for (const r of rows) {
            g[r] = y[r] > m[r] ? -alpha : 1 - alpha;
            h[r] = 1;
          }
        },
        // H2O refits each leaf to the alpha-quantile of its residuals (the median for laplace).
        refit: (y, m, rows, start, end) => {
          const res = new Float64Array(end - start);
          for (let i = start; i < end; i++) res[i - start] = y[rows[i]] - m[rows[i]];
          return quantileOf(res, alpha);
        },
      };
    }
  }
}

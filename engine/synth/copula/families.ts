/**
 * The parametric families a numeric marginal may take, as in SDV's `copulas` package (its "parametric" set):
 * normal, truncated normal, beta (four parameters: shapes and bounds), shifted gamma and uniform. Each has a fit on a sorted sample
 * (maximum likelihood where copulas uses SciPy's `fit`, started from the method of moments) and its CDF and quantile.
 */
import { nelderMead } from './optimize';
import { betaI, digamma, gammaP, invertCdf, logBeta, logGamma, normCdf, normPpf, trigamma } from './special';

export type FamilyName = 'normal' | 'truncnorm' | 'beta' | 'gamma' | 'uniform';

/** A fitted family: its parameters (JSON) and its distribution functions. */
export interface Distribution {
  family: FamilyName;
  params: Record<string, number>;
  cdf(x: number): number;
  ppf(u: number): number;
}

/** Moments of a sample: mean, variance (divisor n) and skewness. */
function moments(x: Float64Array): { mean: number; variance: number; skew: number } {
  let mean = 0;
  for (let i = 0; i < x.length; i++) mean += x[i];
  mean /= x.length;
  let m2 = 0;
  let m3 = 0;
  for (let i = 0; i < x.length; i++) {
    const d = x[i] - mean;
    m2 += d * d;
    m3 += d * d * d;
  }
  m2 /= x.length;
  m3 /= x.length;
  return { mean, variance: m2, skew: m2 > 0 ? m3 / Math.pow(m2, 1.5) : 0 };
}

/** Normal with the maximum-likelihood mean and standard deviation. */
export function normal(mean: number, std: number): Distribution {
  return {
    family: 'normal',
    params: { mean, std },
    cdf: (x) => normCdf((x - mean) / std),
    ppf: (u) => mean + std * normPpf(u),
  };
}

export function fitNormal(x: Float64Array): Distribution | null {
  const { mean, variance } = moments(x);
  return variance > 0 ? normal(mean, Math.sqrt(variance)) : null;
}

/** Uniform on [lo, hi]. */
export function uniform(lo: number, hi: number): Distribution {
  return {
    family: 'uniform',
    params: { lo, hi },
    cdf: (x) => (x <= lo ? 0 : x >= hi ? 1 : (x - lo) / (hi - lo)),
    ppf: (u) => lo + Math.min(1, Math.max(0, u)) * (hi - lo),
  };
}

export function fitUniform(sorted: Float64Array): Distribution | null {
  const lo = sorted[0];
  const hi = sorted[sorted.length - 1];
  return hi > lo ? uniform(lo, hi) : null;
}

/** Mass of the standard normal between a and b, computed in the tail where it has its relative precision. */
function normMass(a: number, b: number): number {
  return a > 0 ? normCdf(-a) - normCdf(-b) : normCdf(b) - normCdf(a);
}

/** Normal(mu, sigma) truncated to [lo, hi]. */
export function truncnorm(mu: number, sigma: number, lo: number, hi: number): Distribution {
  const alpha = (lo - mu) / sigma;
  const beta = (hi - mu) / sigma;
  const mass = normMass(alpha, beta);
  return {
    family: 'truncnorm',
    params: { mu, sigma, lo, hi },
    cdf: (x) => (x <= lo ? 0 : x >= hi ? 1 : Math.min(1, normMass(alpha, (x - mu) / sigma) / mass)),
    ppf: (u) => {
      if (u <= 0) return lo;
      if (u >= 1) return hi;
      const z = alpha > 0 ? -normPpf(normCdf(-alpha) - u * mass) : normPpf(normCdf(alpha) + u * mass);
      return Math.min(hi, Math.max(lo, mu + sigma * z));
    },
  };
}

/**
 * Truncated normal with bounds just outside the sample's range (as copulas' TruncatedGaussian) and the maximum
 * likelihood mean and scale.
 */
export function fitTruncnorm(sorted: Float64Array): Distribution | null {
  const n = sorted.length;
  const min = sorted[0];
  const max = sorted[n - 1];
  const range = max - min;
  if (!(range > 0)) return null;
  const lo = min - 1e-6 * range;
  const hi = max + 1e-6 * range;
  const { mean, variance } = moments(sorted);
  const nll = ([mu, logSigma]: number[]): number => {
    const sigma = Math.exp(logSigma);
    const mass = normMass((lo - mu) / sigma, (hi - mu) / sigma);
    if (!(mass > 0)) return Infinity;
    let s = 0;
    for (let i = 0; i < n; i++) {
      const z = (sorted[i] - mu) / sigma;
      s += 0.5 * z * z;
    }
    return s + n * (logSigma + Math.log(mass));
  };
  const std = Math.sqrt(variance);
  const [mu, logSigma] = nelderMead(nll, [mean, Math.log(std)], [0.2 * std, 0.2]);
  const sigma = Math.exp(logSigma);
  return Number.isFinite(mu) && sigma > 0 ? truncnorm(mu, sigma, lo, hi) : null;
}

/** Beta(a, b) on [loc, loc + scale]. */
export function beta(a: number, b: number, loc: number, scale: number): Distribution {
  const lb = logBeta(a, b);
  const cdfY = (y: number): number => betaI(a, b, y);
  const pdfY = (y: number): number => (y <= 0 || y >= 1 ? 0 : Math.exp((a - 1) * Math.log(y) + (b - 1) * Math.log1p(-y) - lb));
  return {
    family: 'beta',
    params: { a, b, loc, scale },
    cdf: (x) => cdfY((x - loc) / scale),
    ppf: (u) => {
      if (u <= 0) return loc;
      if (u >= 1) return loc + scale;
      return loc + scale * invertCdf(cdfY, pdfY, u, 0, 1, a / (a + b));
    },
  };
}

/**
 * Beta with all four parameters by maximum likelihood, as copulas' BetaUnivariate (SciPy's beta.fit started from the
 * sample's range): the bounds are kept just outside the sample (loc = min − e^t₁·range, upper = max + e^t₂·range) and
 * the shapes start from the method of moments.
 */
export function fitBeta(sorted: Float64Array): Distribution | null {
  const n = sorted.length;
  const min = sorted[0];
  const max = sorted[n - 1];
  const range = max - min;
  if (!(range > 0)) return null;
  const { mean, variance } = moments(sorted);
  const start = (loc: number, scale: number): [number, number] => {
    const m = (mean - loc) / scale;
    const v = variance / (scale * scale);
    const common = (m * (1 - m)) / v - 1;
    return common > 0 ? [Math.max(0.05, m * common), Math.max(0.05, (1 - m) * common)] : [1, 1];
  };
  const bounds = (t1: number, t2: number): [number, number] => {
    const loc = min - Math.exp(t1) * range;
    return [loc, max + Math.exp(t2) * range - loc];
  };
  const nll = ([la, lb, t1, t2]: number[]): number => {
    if (t1 > 2 || t2 > 2 || t1 < -14 || t2 < -14) return Infinity; // bounds within (1e-6, 7) ranges of the sample
    const a = Math.exp(la);
    const b = Math.exp(lb);
    const [loc, scale] = bounds(t1, t2);
    let sumLog = 0;
    let sumLog1m = 0;
    for (let i = 0; i < n; i++) {
      const y = (sorted[i] - loc) / scale;
      sumLog += Math.log(y);
      sumLog1m += Math.log1p(-y);
    }
    return -((a - 1) * sumLog + (b - 1) * sumLog1m - n * logBeta(a, b) - n * Math.log(scale));
  };
  const t0 = Math.log(1e-3);
  const [a0, b0] = start(...bounds(t0, t0));
  const [la, lb, t1, t2] = nelderMead(nll, [Math.log(a0), Math.log(b0), t0, t0], [0.3, 0.3, 1, 1], 800);
  const a = Math.exp(la);
  const b = Math.exp(lb);
  const [loc, scale] = bounds(t1, t2);
  return Number.isFinite(a) && Number.isFinite(b) && scale > 0 ? beta(a, b, loc, scale) : null;
}

/** Gamma with shape a and scale, shifted to start at loc. */
export function gamma(a: number, loc: number, scale: number): Distribution {
  const cdfX = (x: number): number => (x <= loc ? 0 : gammaP(a, (x - loc) / scale));
  const lg = logGamma(a);
  const pdfX = (x: number): number => {
    const y = (x - loc) / scale;
    return y <= 0 ? 0 : Math.exp((a - 1) * Math.log(y) - y - lg) / scale;
  };
  return {
    family: 'gamma',
    params: { a, loc, scale },
    cdf: cdfX,
    ppf: (u) => {
      if (u <= 0) return loc;
      if (u >= 1) return Infinity;
      let hi = loc + scale * (a + 10 * Math.sqrt(a) + 10);
      while (cdfX(hi) < u) hi = loc + 2 * (hi - loc);
      return invertCdf(cdfX, pdfX, u, loc, hi, loc + a * scale);
    },
  };
}

/**
 * Shifted gamma for right-skewed samples: location from the method of moments (a = 4 / skew²), kept below the
 * sample's minimum, then shape and scale by maximum likelihood given that location (Newton on
 * log a − ψ(a) = log mean − mean log).
 */
export function fitGamma(sorted: Float64Array): Distribution | null {
  const n = sorted.length;
  const { mean, variance, skew } = moments(sorted);
  if (!(variance > 0) || skew <= 0.05) return null;
  const range = sorted[n - 1] - sorted[0];
  let a = 4 / (skew * skew);
  let scale = Math.sqrt(variance / a);
  const loc = Math.min(mean - a * scale, sorted[0] - 1e-6 * range);
  let sumLog = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const y = sorted[i] - loc;
    sum += y;
    sumLog += Math.log(y);
  }
  const s = Math.log(sum / n) - sumLog / n;
  if (!(s > 0)) return null;
  a = (3 - s + Math.sqrt((s - 3) * (s - 3) + 24 * s)) / (12 * s);
  for (let i = 0; i < 50; i++) {
    const step = (Math.log(a) - digamma(a) - s) / (1 / a - trigamma(a));
    const next = a - step;
    a = next > 0 ? next : a / 2;
    if (Math.abs(step) < 1e-12 * a) break;
  }
  scale = sum / n / a;
  return Number.isFinite(a) && a > 0 && scale > 0 ? gamma(a, loc, scale) : null;
}

/** The candidate fits with their parameter counts, simplest first (a more flexible family must earn its parameters). */
export const FAMILY_FITS: Array<{ family: FamilyName; parameters: number; fit: (sorted: Float64Array) => Distribution | null }> = [
  { family: 'uniform', parameters: 2, fit: fitUniform },
  { family: 'normal', parameters: 2, fit: fitNormal },
  { family: 'gamma', parameters: 3, fit: fitGamma },
  { family: 'beta', parameters: 4, fit: fitBeta },
  { family: 'truncnorm', parameters: 4, fit: fitTruncnorm },
];

/** Rebuilds a family from its JSON parameters. */
export function distributionOf(family: FamilyName, p: Record<string, number>): Distribution {
  switch (family) {
    case 'normal':
      return normal(p.mean, p.std);
    case 'uniform':
      return uniform(p.lo, p.hi);
    case 'truncnorm':
      return truncnorm(p.mu, p.sigma, p.lo, p.hi);
    case 'beta':
      return beta(p.a, p.b, p.loc, p.scale);
    case 'gamma':
      return gamma(p.a, p.loc, p.scale);
  }
}

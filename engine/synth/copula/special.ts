/**
 * Special functions the copula's marginals and its truncated-normal sampling need: the standard normal's density,
 * CDF and quantile, log-gamma and digamma, and the regularized incomplete gamma and beta functions. Checked against
 * SciPy in special.test.ts.
 */

const SQRT_2PI = Math.sqrt(2 * Math.PI);

/** Standard normal density. */
export function normPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / SQRT_2PI;
}

/**
 * Standard normal CDF, within 1e-13 relative of SciPy's down to x = -30: the Taylor series Φ(x) = ½ + φ(x)·Σ
 * x^(2k+1)/(2k+1)!! (all terms one sign) inside |x| < 1.5, Laplace's continued fraction for the Mills ratio outside,
 * evaluated deep enough for full precision (the depth falls as 1/x²).
 */
export function normCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const ax = Math.abs(x);
  if (ax < 1.5) {
    let term = x;
    let sum = x;
    for (let k = 1; k < 100; k++) {
      term *= (x * x) / (2 * k + 1);
      sum += term;
      if (Math.abs(term) < 1e-17 * Math.abs(sum)) break;
    }
    return 0.5 + normPdf(x) * sum;
  }
  let c = 0;
  if (ax <= 38.5) {
    let b = ax;
    for (let k = Math.floor(12 + 250 / (ax * ax)); k >= 1; k--) b = ax + k / b;
    c = normPdf(ax) / b;
  }
  return x > 0 ? 1 - c : c;
}

const A = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
const B = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
const C = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
const D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];

/**
 * Standard normal quantile: Acklam's rational approximation (1e-9) polished by one Halley step on `normCdf`, which
 * brings it to full double precision. ppf(0) = -Infinity, ppf(1) = Infinity.
 */
export function normPpf(p: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  // Work in the lower half so the tail probability keeps its relative precision.
  if (p > 0.5) return -normPpfLower(1 - p);
  return normPpfLower(p);
}

function normPpfLower(p: number): number {
  let x: number;
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1);
  } else {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q) / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1);
  }
  if (x > -38.4) {
    const e = normCdf(x) - p;
    const u = e * SQRT_2PI * Math.exp(0.5 * x * x);
    x = x - u / (1 + 0.5 * x * u);
  }
  return x;
}

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** log Γ(x) for x > 0 (Lanczos, g = 7; about 1e-15 relative). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Digamma ψ(x) for x > 0: recurrence up to x ≥ 10, then the asymptotic series. */
export function digamma(x: number): number {
  let r = 0;
  while (x < 10) {
    r -= 1 / x;
    x += 1;
  }
  const f = 1 / (x * x);
  return r + Math.log(x) - 0.5 / x - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f / 132))));
}

/** Trigamma ψ'(x) for x > 0 (for Newton steps on the gamma shape). */
export function trigamma(x: number): number {
  let r = 0;
  while (x < 10) {
    r += 1 / (x * x);
    x += 1;
  }
  const f = 1 / (x * x);
  return r + 1 / x + f / 2 + (f / x) * (1 / 6 - f * (1 / 30 - f * (1 / 42 - f / 30)));
}

const EPS = 1e-15;
const TINY = 1e-300;

/** Regularized lower incomplete gamma P(a, x) (series below a + 1, Lentz's continued fraction above). */
export function gammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  if (x === Infinity) return 1;
  const lnPre = a * Math.log(x) - x - logGamma(a);
  if (x < a + 1) {
    let ap = a;
    let sum = 1 / a;
    let del = sum;
    for (let n = 0; n < 10000; n++) {
      ap += 1;
      del *= x / ap;
      sum += del;
      if (Math.abs(del) < Math.abs(sum) * EPS) break;
    }
    return Math.min(1, sum * Math.exp(lnPre));
  }
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return Math.max(0, 1 - Math.exp(lnPre) * h);
}

/** Continued fraction of the incomplete beta function (Numerical Recipes' betacf, modified Lentz). */
function betaCf(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < 10000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return h;
}

/** log B(a, b). */
export function logBeta(a: number, b: number): number {
  return logGamma(a) + logGamma(b) - logGamma(a + b);
}

/** Regularized incomplete beta I_x(a, b). */
export function betaI(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const lnFront = a * Math.log(x) + b * Math.log1p(-x) - logBeta(a, b);
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(lnFront) * betaCf(a, b, x)) / a;
  return 1 - (Math.exp(lnFront) * betaCf(b, a, 1 - x)) / b;
}

/**
 * Inverts an increasing CDF on the bracket [lo, hi]: Newton steps on the density, falling back to bisection whenever
 * a step leaves the shrinking bracket, so it converges whatever the shape (gamma and beta quantiles have no closed form).
 */
export function invertCdf(cdf: (x: number) => number, pdf: (x: number) => number, u: number, lo: number, hi: number, start = 0.5 * (lo + hi)): number {
  let a = lo;
  let b = hi;
  let x = start > a && start < b ? start : 0.5 * (a + b);
  for (let i = 0; i < 200; i++) {
    const f = cdf(x) - u;
    if (f === 0) return x;
    if (f < 0) a = x;
    else b = x;
    let next = x - f / pdf(x);
    if (!(next > a && next < b)) next = 0.5 * (a + b);
    if (Math.abs(next - x) <= 1e-14 * Math.max(1e-300, Math.abs(x)) || b - a <= 1e-15 * Math.max(1e-300, Math.abs(a), Math.abs(b))) return next;
    x = next;
  }
  return x;
}

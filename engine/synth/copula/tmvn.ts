/**
 * Normal draws for the copula: standard normals, truncated univariate normals, and the conditional multivariate normal
 * a set of conditions leaves (equalities by the usual Schur complement, intervals by truncated sampling).
 */
import { Rng } from '../../automl';
import { cholesky, cholInverse, cholSolve } from './linalg';
import { normCdf, normPpf } from './special';

/** Standard normal draws by Box–Muller from the engine's seeded generator (one spare kept). */
export class Gaussian {
  private spare = NaN;

  constructor(readonly rng: Rng) {}

  next(): number {
    if (!Number.isNaN(this.spare)) {
      const s = this.spare;
      this.spare = NaN;
      return s;
    }
    let u = this.rng.next();
    while (u <= 0) u = this.rng.next();
    const r = Math.sqrt(-2 * Math.log(u));
    const t = 2 * Math.PI * this.rng.next();
    this.spare = r * Math.sin(t);
    return r * Math.cos(t);
  }
}

/**
 * A standard normal truncated to [a, b], by inverting the CDF on the side of zero where the interval lies (so the
 * tail probabilities keep their precision). Beyond 38 standard deviations, where the double underflows, the nearer
 * bound is returned.
 */
export function truncatedStandardNormal(a: number, b: number, rng: Rng): number {
  if (!(b > a)) return a;
  if (a > 0) {
    const pa = normCdf(-a);
    const pb = normCdf(-b);
    if (!(pa > 0)) return a;
    return clamp(-normPpf(pb + rng.next() * (pa - pb)), a, b);
  }
  if (b < 0) return -truncatedStandardNormal(-b, -a, rng);
  const pa = normCdf(a);
  const pb = normCdf(b);
  return clamp(normPpf(pa + rng.next() * (pb - pa)), a, b);
}

function clamp(x: number, a: number, b: number): number {
  return x < a ? a : x > b ? b : x;
}

/** Conditional sampling of a d-dimensional N(0, Σ) given equalities z_E = e and boxes lo_T ≤ z_T ≤ hi_T. */
export interface LatentConstraints {
  equal: Array<{ dim: number; value: number }>;
  box: Array<{ dim: number; lo: number; hi: number }>;
}

/** Rejection draws tried per row before the Gibbs sampler takes over, and when the acceptance rate is worth it. */
export const REJECTION_TRIES = 50;
export const REJECTION_MIN_RATE = 0.02;
/** Gibbs sweeps over the boxed dimensions after a GHK start (used when rejection is too rare to pay). */
export const GIBBS_SWEEPS = 10;

/**
 * Draws rows of z ~ N(0, Σ) conditioned on `constraints`: the equalities are conditioned out exactly (conditional
 * mean and covariance); one box is sampled exactly by a truncated normal; several boxes by rejection while it
 * accepts often enough, else by a Gibbs sampler started from a GHK draw (every draw lies inside the boxes).
 */
export class LatentSampler {
  private readonly d: number;
  private readonly free: number[]; // dims not fixed by equalities, boxed ones first
  private readonly nBox: number;
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  private readonly mean: Float64Array; // conditional mean of the free dims
  private readonly chol: Float64Array; // Cholesky factor of their conditional covariance
  private readonly eqDims: number[];
  private readonly eqValues: number[];
  private readonly precBox: Float64Array | null; // precision of the boxed block, for Gibbs
  private readonly unboxedGain: Float64Array | null; // regression of the unboxed dims on the boxed ones
  private readonly unboxedChol: Float64Array | null;
  private tries = 0;
  private accepted = 0;

  constructor(corr: Float64Array, d: number, constraints: LatentConstraints) {
    this.d = d;
    this.eqDims = constraints.equal.map((e) => e.dim);
    this.eqValues = constraints.equal.map((e) => e.value);
    const fixed = new Set(this.eqDims);
    const boxDims = constraints.box.map((b) => b.dim);
    const boxed = new Set(boxDims);
    this.free = [...boxDims, ...range(d).filter((j) => !fixed.has(j) && !boxed.has(j))];
    this.nBox = boxDims.length;
    this.lo = Float64Array.from(constraints.box.map((b) => b.lo));
    this.hi = Float64Array.from(constraints.box.map((b) => b.hi));
    const f = this.free.length;
    const e = this.eqDims.length;
    // Conditional mean and covariance of the free dims given the equalities (Schur complement).
    const mean = new Float64Array(f);
    const cov = new Float64Array(f * f);
    for (let i = 0; i < f; i++) for (let j = 0; j < f; j++) cov[i * f + j] = corr[this.free[i] * d + this.free[j]];
    if (e > 0) {
      const see = new Float64Array(e * e);
      for (let i = 0; i < e; i++) for (let j = 0; j < e; j++) see[i * e + j] = corr[this.eqDims[i] * d + this.eqDims[j]];
      const le = cholesky(see, e);
      if (!le) throw new Error('LatentSampler: the conditioned block of the correlation matrix is singular');
      const alpha = cholSolve(le, e, Float64Array.from(this.eqValues));
      const gains: Float64Array[] = [];
      for (let i = 0; i < f; i++) {
        const sfe = new Float64Array(e);
        for (let k = 0; k < e; k++) sfe[k] = corr[this.free[i] * d + this.eqDims[k]];
        let m = 0;
        for (let k = 0; k < e; k++) m += sfe[k] * alpha[k];
        mean[i] = m;
        gains.push(cholSolve(le, e, sfe));
      }
      for (let i = 0; i < f; i++) {
        for (let j = 0; j < f; j++) {
          let s = 0;
          for (let k = 0; k < e; k++) s += gains[i][k] * corr[this.eqDims[k] * d + this.free[j]];
          cov[i * f + j] -= s;
        }
      }
    }
    this.mean = mean;
    const l = cholesky(withJitter(cov, f), f);
    if (!l) throw new Error('LatentSampler: the conditional covariance is not positive definite');
    this.chol = l;
    const t = this.nBox;
    const u = f - t;
    if (t >= 2) {
      const sbb = new Float64Array(t * t);
      for (let i = 0; i < t; i++) for (let j = 0; j < t; j++) sbb[i * t + j] = cov[i * f + j];
      this.precBox = cholInverse(cholesky(withJitter(sbb, t), t) as Float64Array, t);
    } else this.precBox = null;
    if (t >= 1 && u > 0) {
      // z_U | z_T: mean m_U + G (z_T − m_T), covariance S_UU − G S_TU.
      const sbb = new Float64Array(t * t);
      for (let i = 0; i < t; i++) for (let j = 0; j < t; j++) sbb[i * t + j] = cov[i * f + j];
      const lb = cholesky(withJitter(sbb, t), t) as Float64Array;
      const gain = new Float64Array(u * t);
      const condCov = new Float64Array(u * u);
      for (let i = 0; i < u; i++) {
        const sut = new Float64Array(t);
        for (let k = 0; k < t; k++) sut[k] = cov[(t + i) * f + k];
        const g = cholSolve(lb, t, sut);
        gain.set(g, i * t);
      }
      for (let i = 0; i < u; i++) {
        for (let j = 0; j < u; j++) {
          let s = cov[(t + i) * f + (t + j)];
          for (let k = 0; k < t; k++) s -= gain[i * t + k] * cov[k * f + (t + j)];
          condCov[i * u + j] = s;
        }
      }
      this.unboxedGain = gain;
      this.unboxedChol = cholesky(withJitter(condCov, u), u);
      if (!this.unboxedChol) throw new Error('LatentSampler: the conditional covariance is not positive definite');
    } else {
      this.unboxedGain = null;
      this.unboxedChol = null;
    }
  }

  /** Draws one latent row into `out` (length d). */
  draw(g: Gaussian, out: Float64Array): void {
    const f = this.free.length;
    const t = this.nBox;
    const z = new Float64Array(f);
    if (t === 0) {
      const eps = new Float64Array(f);
      for (let i = 0; i < f; i++) eps[i] = g.next();
      for (let i = 0; i < f; i++) {
        let s = this.mean[i];
        for (let k = 0; k <= i; k++) s += this.chol[i * f + k] * eps[k];
        z[i] = s;
      }
    } else {
      this.drawBoxed(g, z);
      const u = f - t;
      if (u > 0) {
        const gain = this.unboxedGain as Float64Array;
        const lu = this.unboxedChol as Float64Array;
        const eps = new Float64Array(u);
        for (let i = 0; i < u; i++) eps[i] = g.next();
        for (let i = 0; i < u; i++) {
          let s = this.mean[t + i];
          for (let k = 0; k < t; k++) s += gain[i * t + k] * (z[k] - this.mean[k]);
          for (let k = 0; k <= i; k++) s += lu[i * u + k] * eps[k];
          z[t + i] = s;
        }
      }
    }
    for (let i = 0; i < this.eqDims.length; i++) out[this.eqDims[i]] = this.eqValues[i];
    for (let i = 0; i < f; i++) out[this.free[i]] = z[i];
  }

  /** The boxed block of z (its first nBox entries) from its truncated normal. */
  private drawBoxed(g: Gaussian, z: Float64Array): void {
    const t = this.nBox;
    const f = this.free.length;
    const l = this.chol; // the boxed dims come first, so its leading t×t block factors their covariance
    if (t === 1) {
      const s = l[0];
      z[0] = this.mean[0] + s * truncatedStandardNormal((this.lo[0] - this.mean[0]) / s, (this.hi[0] - this.mean[0]) / s, g.rng);
      return;
    }
    const worthRejecting = this.tries < 200 || this.accepted >= REJECTION_MIN_RATE * this.tries;
    if (worthRejecting) {
      const eps = new Float64Array(t);
      for (let attempt = 0; attempt < REJECTION_TRIES; attempt++) {
        this.tries++;
        for (let i = 0; i < t; i++) eps[i] = g.next();
        let inside = true;
        for (let i = 0; i < t && inside; i++) {
          let s = this.mean[i];
          for (let k = 0; k <= i; k++) s += l[i * f + k] * eps[k];
          z[i] = s;
          inside = s >= this.lo[i] && s <= this.hi[i];
        }
        if (inside) {
          this.accepted++;
          return;
        }
      }
    }
    // GHK: each coordinate in turn from its truncated conditional, which always lands inside the boxes.
    const eps = new Float64Array(t);
    for (let i = 0; i < t; i++) {
      let partial = this.mean[i];
      for (let k = 0; k < i; k++) partial += l[i * f + k] * eps[k];
      const s = l[i * f + i];
      eps[i] = truncatedStandardNormal((this.lo[i] - partial) / s, (this.hi[i] - partial) / s, g.rng);
      z[i] = partial + s * eps[i];
    }
    // Gibbs sweeps from there move the GHK draw (which is not exactly the target) toward the truncated normal.
    const q = this.precBox as Float64Array;
    for (let sweep = 0; sweep < GIBBS_SWEEPS; sweep++) {
      for (let i = 0; i < t; i++) {
        let acc = 0;
        for (let j = 0; j < t; j++) if (j !== i) acc += q[i * t + j] * (z[j] - this.mean[j]);
        const sd = 1 / Math.sqrt(q[i * t + i]);
        const cm = this.mean[i] - acc / q[i * t + i];
        z[i] = cm + sd * truncatedStandardNormal((this.lo[i] - cm) / sd, (this.hi[i] - cm) / sd, g.rng);
      }
    }
  }

  get dims(): number {
    return this.d;
  }
}

/** A covariance with a tiny ridge, so that a conditional block that is singular up to rounding still factors. */
function withJitter(a: Float64Array, n: number): Float64Array {
  const out = Float64Array.from(a);
  for (let i = 0; i < n; i++) out[i * n + i] = Math.max(out[i * n + i], 0) + 1e-10;
  return out;
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

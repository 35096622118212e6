/** Test helpers: seeded draws from known distributions, and the shared datasets. */
import fs from 'node:fs';
import path from 'node:path';
import { Rng } from '../../automl';
import { Gaussian } from './tmvn';

export function normals(n: number, seed: number, mean = 0, sd = 1): Float64Array {
  const g = new Gaussian(new Rng(seed));
  return Float64Array.from({ length: n }, () => mean + sd * g.next());
}

/** Gamma(shape, 1) by Marsaglia and Tsang. */
function gammaDraw(shape: number, g: Gaussian): number {
  if (shape < 1) return gammaDraw(shape + 1, g) * Math.pow(g.rng.next() || 1e-300, 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = g.next();
    const v = Math.pow(1 + c * x, 3);
    if (v <= 0) continue;
    const u = g.rng.next();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

export function gammas(n: number, seed: number, shape: number, scale: number, loc = 0): Float64Array {
  const g = new Gaussian(new Rng(seed));
  return Float64Array.from({ length: n }, () => loc + scale * gammaDraw(shape, g));
}

export function betas(n: number, seed: number, a: number, b: number, loc = 0, scale = 1): Float64Array {
  const g = new Gaussian(new Rng(seed));
  return Float64Array.from({ length: n }, () => {
    const x = gammaDraw(a, g);
    const y = gammaDraw(b, g);
    return loc + (scale * x) / (x + y);
  });
}

export function uniforms(n: number, seed: number, lo: number, hi: number): Float64Array {
  const rng = new Rng(seed);
  return Float64Array.from({ length: n }, () => lo + (hi - lo) * rng.next());
}

/** N(mean, sd) restricted to [lo, hi] by rejection. */
export function truncatedNormals(n: number, seed: number, mean: number, sd: number, lo: number, hi: number): Float64Array {
  const g = new Gaussian(new Rng(seed));
  const out = new Float64Array(n);
  for (let i = 0; i < n;) {
    const x = mean + sd * g.next();
    if (x >= lo && x <= hi) out[i++] = x;
  }
  return out;
}

/** Two-sample KS statistic (for checking that samples reproduce a distribution). */
export function ks2(a: Float64Array, b: Float64Array): number {
  const x = a.filter((v) => !Number.isNaN(v)).sort();
  const y = b.filter((v) => !Number.isNaN(v)).sort();
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < x.length || j < y.length) {
    const v = j >= y.length || (i < x.length && x[i] <= y[j]) ? x[i] : y[j];
    while (i < x.length && x[i] === v) i++;
    while (j < y.length && y[j] === v) j++;
    d = Math.max(d, Math.abs(i / x.length - j / y.length));
  }
  return d;
}

/** Pearson correlation of two complete arrays. */
export function corr(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i] / n;
    my += y[i] / n;
  }
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** ../shared/datasets next to the repository (the folder holding package.json), or DATASETS_DIR. */
export function sharedDataset(name: string): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return path.join(process.env.DATASETS_DIR ?? path.join(dir, '..', 'shared', 'datasets'), name);
}

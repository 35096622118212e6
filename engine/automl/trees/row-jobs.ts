/**
 * Row-range kernels that the calling thread and the helper threads of HistogramBuilder run on
 * parts of one job (see HistogramBuilder.runParts). Each part writes only its own rows (or its own
 * scratch range), so the result does not depend on which thread ran which part, and every kernel
 * does exactly the arithmetic of the serial code it replaces: models stay bit-identical.
 */

/** Job kinds published to the helper threads (control slot JOB). */
export const JOB_HISTOGRAM = 0;
export const JOB_PARTITION = 1;
export const JOB_MARGINS = 2;
export const JOB_GRADIENTS = 3;

/** Gradient kernels a helper thread can run (Distribution.rowKernel). */
export const GRAD_BERNOULLI = 1;
export const GRAD_GAUSSIAN = 2;

/** [a, b) of part c when n items are cut into `parts` parts of ceil(n / parts). */
export function partRange(n: number, parts: number, c: number): [number, number] {
  const chunk = Math.ceil(n / parts);
  const a = Math.min(n, c * chunk);
  return [a, Math.min(n, a + chunk)];
}

/**
 * Stable partition of index[a..b): rows whose bin goes left are packed in order from a, the others
 * written in order to scratch[a..]. Returns the number that went left. Branch-free: each row is
 * written to both sides and only the matching cursor advances (the goLeft bit is close to random,
 * so a branch here mispredicts about every other row). Writing index[l] is safe because l <= i and
 * index[i] has already been read.
 */
export function partitionPart(index: Uint32Array, scratch: Uint32Array, bins: Uint8Array, mask: Uint8Array, a: number, b: number): number {
  let l = a;
  let r = a;
  for (let i = a; i < b; i++) {
    const row = index[i];
    const m = mask[bins[row]];
    index[l] = row;
    scratch[r] = row;
    l += m;
    r += 1 - m;
  }
  return l - a;
}

/**
 * Joins the parts of a partition of index[start..end) into the serial stable partition: the lefts
 * of every part in part order, then the rights of every part in part order. Returns the split point.
 */
export function mergePartitionParts(index: Uint32Array, scratch: Uint32Array, start: number, end: number, parts: number, lefts: Int32Array): number {
  const n = end - start;
  let l = start;
  for (let c = 0; c < parts; c++) {
    const a = partRange(n, parts, c)[0];
    // Moves down or stays: the lefts before it are never more than the rows before it.
    if (c > 0) index.copyWithin(l, start + a, start + a + lefts[c]);
    l += lefts[c];
  }
  let r = l;
  for (let c = 0; c < parts; c++) {
    const [a, b] = partRange(n, parts, c);
    const rights = b - a - lefts[c];
    index.set(scratch.subarray(start + a, start + a + rights), r);
    r += rights;
  }
  return l;
}

/**
 * Adds each leaf's value to the margins of its rows, for the rows at index positions [a, b):
 * leaves holds (start, end, value) triples over `index`.
 */
export function addLeafValuesPart(margins: Float64Array, index: Uint32Array, leaves: Float64Array, nleaves: number, K: number, k: number, a: number, b: number): void {
  for (let q = 0; q < nleaves; q++) {
    const s = Math.max(a, leaves[3 * q]);
    const e = Math.min(b, leaves[3 * q + 1]);
    const val = leaves[3 * q + 2];
    for (let i = s; i < e; i++) margins[index[i] * K + k] += val;
  }
}

const EPS = 1e-16;

/** Which hessian the pairs a gradient job writes carry (see bernoulliGradients). */
export const PAIRS_NONE = 0;
export const PAIRS_HESSIAN = 1;
/** Trees grown on unit hessians (H2O GBM): the pairs carry (g, 1). */
export const PAIRS_UNIT = 2;

/**
 * Logistic loss gradient and hessian (scaled by hs, floored at 1e-16) of rows[a..b). With `gh`,
 * also the interleaved pairs the histogram kernel reads (gh[2r], gh[2r + 1]: the hessian, or 1
 * with `unit`), so the builder need not copy them in a pass of its own.
 */
export function bernoulliGradients(
  y: Float64Array,
  m: Float64Array,
  rows: Uint32Array,
  a: number,
  b: number,
  g: Float64Array,
  h: Float64Array,
  hs: number,
  gh: Float64Array | null = null,
  unit = false,
): void {
  if (gh && unit) {
    for (let i = a; i < b; i++) {
      const r = rows[i];
      const p = 1 / (1 + Math.exp(-m[r]));
      const gr = p - y[r];
      g[r] = gr;
      h[r] = Math.max(hs * p * (1 - p), EPS);
      gh[2 * r] = gr;
      gh[2 * r + 1] = 1;
    }
    return;
  }
  if (gh) {
    for (let i = a; i < b; i++) {
      const r = rows[i];
      const p = 1 / (1 + Math.exp(-m[r]));
      const gr = p - y[r];
      const hr = Math.max(hs * p * (1 - p), EPS);
      g[r] = gr;
      h[r] = hr;
      gh[2 * r] = gr;
      gh[2 * r + 1] = hr;
    }
    return;
  }
  for (let i = a; i < b; i++) {
    const r = rows[i];
    const p = 1 / (1 + Math.exp(-m[r]));
    g[r] = p - y[r];
    h[r] = Math.max(hs * p * (1 - p), EPS);
  }
}

/** Squared error gradient and unit hessian of rows[a..b) (and their pairs in `gh`, see above). */
export function gaussianGradients(y: Float64Array, m: Float64Array, rows: Uint32Array, a: number, b: number, g: Float64Array, h: Float64Array, gh: Float64Array | null = null): void {
  for (let i = a; i < b; i++) {
    const r = rows[i];
    g[r] = m[r] - y[r];
    h[r] = 1;
  }
  if (!gh) return;
  for (let i = a; i < b; i++) {
    const r = rows[i];
    gh[2 * r] = g[r];
    gh[2 * r + 1] = 1;
  }
}

/** Runs gradient kernel `kind` (GRAD_*) over rows[a..b), writing pairs into gh as `pairs` (PAIRS_*) says. */
export function gradientsPart(
  kind: number,
  y: Float64Array,
  m: Float64Array,
  rows: Uint32Array,
  a: number,
  b: number,
  g: Float64Array,
  h: Float64Array,
  hs: number,
  gh: Float64Array | null,
  pairs: number,
): void {
  const out = pairs === PAIRS_NONE ? null : gh;
  // The gaussian hessian is 1 already, so its pairs are the same either way.
  if (kind === GRAD_BERNOULLI) bernoulliGradients(y, m, rows, a, b, g, h, hs, out, pairs === PAIRS_UNIT);
  else if (kind === GRAD_GAUSSIAN) gaussianGradients(y, m, rows, a, b, g, h, out);
  else throw new Error(`unknown gradient kernel ${kind}`);
}

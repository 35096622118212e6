/** Nodes of at most this many rows gather their bins from their rows instead of building a histogram. */
export const SMALL_NODE_ROWS = 64;

/**
 * One feature's bins in a node, ascending, the missing bin apart: what the split scans read. From a
 * histogram it lists the bins with any non-zero sum (the scans skip or add nothing for the others)
 * and reads their sums in place; a small node's sums are gathered from its rows into a buffer of its
 * own, in row order within each bin, which adds up exactly as the histogram kernel does. So both give
 * the same splits, and the scans cost the node's distinct bins, not the feature's 256.
 */
export class NodeBins {
  nbins = 0;
  /** The listed bins, bin[0..m), ascending. Bin b's gradient, hessian and count sums are src[s], src[s + 1] and src[s + co], s = base + 3b. */
  m = 0;
  readonly bin = new Int32Array(256);
  src: Float64Array;
  base = 0;
  co = 2;
  /** First and last bin with a positive count; -1 when none. */
  lo = -1;
  hi = -1;
  /** Sums of the missing bin. */
  gm = 0;
  hm = 0;
  cm = 0;
  /** A small node's sums, bin b at 3b (only its listed bins are written). */
  private readonly own = new Float64Array(3 * 256);
  /** bin << 16 | position, sorted to group a small node's rows by bin. */
  private readonly keys: Uint32Array;

  /** @param maxRows the most rows fromRows is given (positions take 16 bits of a key) */
  constructor(maxRows: number) {
    if (maxRows > 0xffff) throw new RangeError(`NodeBins handles nodes of at most 65535 rows, not ${maxRows}`);
    this.keys = new Uint32Array(Math.max(1, maxRows));
    this.src = this.own;
  }

  fromHistogram(hist: Float64Array, base: number, nbins: number, co: number): void {
    const bin = this.bin;
    let m = 0;
    let lo = -1;
    let hi = -1;
    for (let b = 0; b < nbins; b++) {
      const s = base + b * 3;
      const cs = hist[s + co];
      if (cs === 0 && hist[s] === 0 && hist[s + 1] === 0) continue;
      bin[m++] = b;
      if (cs > 0) {
        if (lo < 0) lo = b;
        hi = b;
      }
    }
    const ms = base + nbins * 3;
    this.set(hist, base, co, nbins, m, lo, hi, hist[ms], hist[ms + 1], hist[ms + co]);
  }

  fromRows(featureBins: Uint8Array, nbins: number, index: Uint32Array, start: number, end: number, grad: Float64Array, hess: Float64Array, counts: boolean): void {
    const n = end - start;
    const keys = this.keys;
    // Insertion sort: a small node's few keys, without the view a typed-array sort would need.
    for (let i = 0; i < n; i++) {
      const key = (featureBins[index[start + i]] << 16) | i;
      let j = i;
      for (; j > 0 && keys[j - 1] > key; j--) keys[j] = keys[j - 1];
      keys[j] = key;
    }
    const { bin, own } = this;
    let m = 0;
    let gm = 0;
    let hm = 0;
    let cm = 0;
    let lo = -1;
    let hi = -1;
    for (let k = 0; k < n; k++) {
      const b = keys[k] >>> 16;
      const r = index[start + (keys[k] & 0xffff)];
      const cr = counts ? 1 : hess[r];
      if (b === nbins) {
        gm += grad[r];
        hm += hess[r];
        cm += cr;
        continue;
      }
      const s = 3 * b;
      if (m === 0 || bin[m - 1] !== b) {
        bin[m++] = b;
        own[s] = 0;
        own[s + 1] = 0;
        own[s + 2] = 0;
      }
      own[s] += grad[r];
      own[s + 1] += hess[r];
      own[s + 2] += cr;
    }
    for (let i = 0; i < m; i++) {
      if (own[3 * bin[i] + 2] > 0) {
        if (lo < 0) lo = bin[i];
        hi = bin[i];
      }
    }
    this.set(own, 0, 2, nbins, m, lo, hi, gm, hm, cm);
  }

  private set(src: Float64Array, base: number, co: number, nbins: number, m: number, lo: number, hi: number, gm: number, hm: number, cm: number): void {
    this.src = src;
    this.base = base;
    this.co = co;
    this.nbins = nbins;
    this.m = m;
    this.lo = lo;
    this.hi = hi;
    this.gm = gm;
    this.hm = hm;
    this.cm = cm;
  }
}

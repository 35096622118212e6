/**
 * Feature binning, computed once per training frame and shared by every model and fold (they pass
 * row-index subsets; the binned columns are never copied).
 *
 * Numeric features: at most `maxBins` (<= 255) quantile bins over the float32-rounded values, plus
 * one extra bin for missing values. Binning float32 values means each bin's upper edge is exactly a
 * float32 number, so the raw threshold a split stores partitions the training rows identically
 * when a scorer compares Math.fround(x) <= threshold, which is what ONNX runtimes do with float inputs.
 *
 * Categorical features: one bin per level that occurs, the most frequent `maxBins - 1` levels kept
 * and the rarer ones merged into one shared bin, plus the missing bin.
 */
import { Frame } from './frame';

export interface BinnedFeature {
  name: string;
  kind: 'numeric' | 'categorical';
  /** Bin of each row; value bins are 0..nbins-1, `nbins` is the missing bin. */
  bins: Uint8Array;
  /** Number of value bins (the missing bin is extra). */
  nbins: number;
  /** Numeric: float32 upper edge (largest value) of each value bin. Empty for categorical. */
  upper: Float64Array;
  /** Categorical: bin of each level code (the missing bin for levels that never occur). */
  binOfCode: Int32Array;
  /** Categorical: level codes held by each value bin. */
  codesOfBin: number[][];
  /** Categorical: the level names. */
  levels: string[];
}

export interface BinnedData {
  nrows: number;
  features: BinnedFeature[];
  /** First histogram slot of each feature; a feature owns nbins + 1 slots. */
  offsets: Int32Array;
  /** Total histogram slots over all features. */
  totalBins: number;
  /**
   * The same bins row-major (row r's bins at r * features.length): histogram building visits the
   * rows of a node in index order, and one row's bins then share a cache line instead of
   * touching one line per feature column.
   */
  rowMajor: Uint8Array;
}

export interface BinningOptions {
  /** Maximum number of value bins per feature, 2..255 (default 255). */
  maxBins?: number;
}

/** Bins every column of a feature frame (datetimes must already be expanded). */
export function binFrame(frame: Frame, opts: BinningOptions = {}): BinnedData {
  const maxBins = Math.max(2, Math.min(255, opts.maxBins ?? 255));
  const features: BinnedFeature[] = frame.columns.map((c, j) => {
    if (c.kind === 'numeric') return binNumeric(frame.names[j], c.values, maxBins);
    if (c.kind === 'categorical') return binCategorical(frame.names[j], c.codes, c.levels, maxBins);
    throw new Error(`binFrame: expand datetime column ${frame.names[j]} first`);
  });
  const offsets = new Int32Array(features.length);
  let total = 0;
  features.forEach((f, j) => {
    offsets[j] = total;
    total += f.nbins + 1;
  });
  const p = features.length;
  // Shared so histogram helper threads can read it without a copy.
  const rowMajor = new Uint8Array(new SharedArrayBuffer(Math.max(8, frame.nrows * p)), 0, frame.nrows * p);
  features.forEach((f, j) => {
    const bins = f.bins;
    for (let i = 0; i < bins.length; i++) rowMajor[i * p + j] = bins[i];
  });
  return { nrows: frame.nrows, features, offsets, totalBins: total, rowMajor };
}

/** Bin edges come from at most this many rows (LightGBM's bin_construct_sample_cnt). */
const EDGE_SAMPLE = 200000;

function binNumeric(name: string, values: Float64Array, maxBins: number): BinnedFeature {
  const n = values.length;
  let m = 0;
  // Every k-th row: deterministic and spread over the whole file.
  const step = Math.max(1, Math.ceil(n / EDGE_SAMPLE));
  const sorted = new Float64Array(Math.ceil(n / step));
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;
    const x = Math.fround(v);
    if (x > max) max = x;
    if (i % step === 0) sorted[m++] = x;
  }
  const s = sortFloat32Values(sorted.subarray(0, m));
  const distinct: number[] = [];
  for (let i = 0; i < m; i++) if (i === 0 || s[i] !== s[i - 1]) distinct.push(s[i]);
  let edges: number[];
  if (distinct.length <= maxBins) {
    edges = distinct;
  } else {
    edges = [];
    for (let k = 1; k <= maxBins; k++) {
      const e = s[Math.max(0, Math.floor((k * m) / maxBins) - 1)];
      if (edges.length === 0 || e > edges[edges.length - 1]) edges.push(e);
    }
    if (edges[edges.length - 1] !== s[m - 1]) edges.push(s[m - 1]);
  }
  // With sampled edges the true maximum may lie above the last edge; the last bin must hold it.
  if (edges.length && max > edges[edges.length - 1]) {
    if (edges.length < maxBins) edges.push(max);
    else edges[edges.length - 1] = max;
  }
  const upper = Float64Array.from(edges);
  const nbins = upper.length;
  const bins = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (Number.isNaN(v)) {
      bins[i] = nbins;
      continue;
    }
    const x = Math.fround(v);
    // First edge >= x (the last edge is the maximum, so one exists): a branch-free lower bound,
    // as the comparisons are unpredictable and a mispredicted branch per step dominated binning.
    let base = 0;
    let len = nbins;
    while (len > 1) {
      const half = len >>> 1;
      base += half * +(upper[base + half - 1] < x);
      len -= half;
    }
    bins[i] = base;
  }
  return { name, kind: 'numeric', bins, nbins, upper, binOfCode: new Int32Array(0), codesOfBin: [], levels: [] };
}

function binCategorical(name: string, codes: Int32Array, levels: string[], maxBins: number): BinnedFeature {
  const counts = new Float64Array(levels.length);
  for (let i = 0; i < codes.length; i++) if (codes[i] >= 0) counts[codes[i]]++;
  const used: number[] = [];
  for (let k = 0; k < levels.length; k++) if (counts[k] > 0) used.push(k);
  // Most frequent first; ties by code so the result does not depend on sort stability.
  used.sort((a, b) => counts[b] - counts[a] || a - b);
  const own = used.length <= maxBins ? used : used.slice(0, maxBins - 1);
  const merged = used.length <= maxBins ? [] : used.slice(maxBins - 1);
  const codesOfBin: number[][] = own.map((c) => [c]);
  if (merged.length) codesOfBin.push(merged.sort((a, b) => a - b));
  const nbins = codesOfBin.length;
  const binOfCode = new Int32Array(levels.length).fill(nbins);
  codesOfBin.forEach((cs, b) => cs.forEach((c) => (binOfCode[c] = b)));
  const bins = new Uint8Array(codes.length);
  for (let i = 0; i < codes.length; i++) bins[i] = codes[i] < 0 ? nbins : binOfCode[codes[i]];
  return { name, kind: 'categorical', bins, nbins, upper: new Float64Array(0), binOfCode, codesOfBin, levels };
}

/**
 * Sorts float32-representable, non-NaN values ascending in place (-0 before +0, as
 * TypedArray.prototype.sort does) with a 3-pass LSD radix sort on order-preserving keys of their
 * float32 bits: several times faster than the built-in sort on the 200k edge samples.
 */
function sortFloat32Values(v: Float64Array): Float64Array {
  const m = v.length;
  if (m < 256) return v.sort();
  let keys = new Uint32Array(m);
  let tmp = new Uint32Array(m);
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  for (let i = 0; i < m; i++) {
    f[0] = v[i];
    const b = u[0];
    keys[i] = b & 0x80000000 ? ~b >>> 0 : (b | 0x80000000) >>> 0;
  }
  const count = new Int32Array(2048);
  for (let shift = 0; shift < 32; shift += 11) {
    count.fill(0);
    for (let i = 0; i < m; i++) count[(keys[i] >>> shift) & 2047]++;
    let sum = 0;
    for (let b = 0; b < 2048; b++) {
      const c = count[b];
      count[b] = sum;
      sum += c;
    }
    for (let i = 0; i < m; i++) {
      const k = keys[i];
      tmp[count[(k >>> shift) & 2047]++] = k;
    }
    const t = keys;
    keys = tmp;
    tmp = t;
  }
  for (let i = 0; i < m; i++) {
    const k = keys[i];
    u[0] = k & 0x80000000 ? (k & 0x7fffffff) >>> 0 : ~k >>> 0;
    v[i] = f[0];
  }
  return v;
}

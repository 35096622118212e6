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
import { startThread, type ThreadHost } from '../../platform/threads';
import { Frame } from './frame';
import { HELPER_THREAD } from './trees/helper-script';
import { trainingPulse } from './pulse';

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
  /**
   * Threads to bin on (default 1). With more, a short-lived helper thread bins part of the
   * numeric features (same code, so the same bins); only large frames use it.
   */
  threads?: number;
}

/** Bins every column of a feature frame (datetimes must already be expanded). */
export function binFrame(frame: Frame, opts: BinningOptions = {}): BinnedData {
  const maxBins = Math.max(2, Math.min(255, opts.maxBins ?? 255));
  const onHelper = helperFeatures(frame, opts.threads ?? 1);
  const shared = onHelper.length ? startHelperBinning(frame, onHelper, maxBins) : null;
  const features: (BinnedFeature | null)[] = frame.columns.map((c, j) => {
    trainingPulse();
    if (shared && shared.owns(j)) return null;
    if (c.kind === 'numeric') return binNumeric(frame.names[j], c.values, maxBins);
    if (c.kind === 'categorical') return binCategorical(frame.names[j], c.codes, c.levels, maxBins);
    throw new Error(`binFrame: expand datetime column ${frame.names[j]} first`);
  });
  if (shared) shared.finish(features);
  return assemble(frame.nrows, features as BinnedFeature[]);
}

/** Histogram offsets and the row-major copy of binned features. */
function assemble(nrows: number, features: BinnedFeature[]): BinnedData {
  const offsets = new Int32Array(features.length);
  let total = 0;
  features.forEach((f, j) => {
    offsets[j] = total;
    total += f.nbins + 1;
  });
  const p = features.length;
  // Shared so histogram helper threads can read it without a copy.
  const rowMajor = new Uint8Array(new SharedArrayBuffer(Math.max(8, nrows * p)), 0, nrows * p);
  features.forEach((f, j) => {
    const bins = f.bins;
    for (let i = 0; i < bins.length; i++) rowMajor[i * p + j] = bins[i];
  });
  return { nrows, features, offsets, totalBins: total, rowMajor };
}

/** Below this many rows binning stays on the calling thread: starting a thread costs tens of ms. */
export const PARALLEL_BINNING_MIN_ROWS = 100000;

/**
 * Numeric features a binning helper may take: the second half of them (the calling thread bins
 * the rest first, then takes whichever of these the helper has not claimed yet).
 */
function helperFeatures(frame: Frame, threads: number): number[] {
  if (threads < 2 || frame.nrows < PARALLEL_BINNING_MIN_ROWS) return [];
  const numeric = frame.columns.flatMap((c, j) => (c.kind === 'numeric' ? [j] : []));
  return numeric.slice(Math.ceil(numeric.length / 2));
}

/** What a binning helper thread receives (see startHelperBinning). */
export interface BinningTask {
  task: 'bin';
  /** next (claim counter) at 0, features done at 1. */
  control: SharedArrayBuffer;
  /** The claimable features' values (nrows float64 each). */
  values: SharedArrayBuffer[];
  /** Their bins (nrows bytes each; one buffer per feature, as histogram helpers share them whole). */
  bins: SharedArrayBuffer[];
  /** Their upper edges, maxBins float64 per feature, and their bin counts. */
  upper: SharedArrayBuffer;
  nbins: SharedArrayBuffer;
  count: number;
  nrows: number;
  maxBins: number;
}

const NEXT_FEATURE = 0;
const FEATURES_DONE = 1;

/**
 * Starts a helper thread on the features listed; both threads claim them one at a time from a
 * shared counter, so a helper that starts late (or never) only shifts work to the calling thread.
 * finish() claims what is left, waits for the helper's features and fills them in.
 */
function startHelperBinning(frame: Frame, listed: number[], maxBins: number): { owns: (j: number) => boolean; finish: (out: (BinnedFeature | null)[]) => void } {
  const n = frame.nrows;
  const m = listed.length;
  const control = new Int32Array(new SharedArrayBuffer(8));
  const values = listed.map((j) => {
    const copy = new Float64Array(new SharedArrayBuffer(Math.max(8, 8 * n)), 0, n);
    copy.set((frame.columns[j] as { values: Float64Array }).values);
    return copy.buffer as SharedArrayBuffer;
  });
  const task: BinningTask = {
    task: 'bin',
    control: control.buffer as SharedArrayBuffer,
    values,
    bins: listed.map(() => new SharedArrayBuffer(Math.max(8, n))),
    upper: new SharedArrayBuffer(8 * maxBins * m),
    nbins: new SharedArrayBuffer(4 * m),
    count: m,
    nrows: n,
    maxBins,
  };
  let helper: ThreadHost<never> | null = null;
  try {
    // A helper that fails before claiming leaves its features to this thread (see finish). A daemon: JavaScript only,
    // it never keeps the process alive.
    helper = startThread(HELPER_THREAD, task, { messages: {}, error: () => undefined }, { daemon: true });
  } catch {
    helper = null;
  }
  const owned = new Set(listed);
  const finish = (out: (BinnedFeature | null)[]): void => {
    binClaimed(task);
    for (;;) {
      const done = Atomics.load(control, FEATURES_DONE);
      if (done >= m) break;
      if (Atomics.wait(control, FEATURES_DONE, done, 60000) === 'timed-out' && Atomics.load(control, FEATURES_DONE) < m) {
        throw new Error('binning helper thread did not answer within 60 s');
      }
    }
    if (helper) void helper.stop();
    const nb = new Int32Array(task.nbins);
    listed.forEach((j, q) => {
      const upper = Float64Array.from(new Float64Array(task.upper, 8 * maxBins * q, nb[q]));
      const bins = new Uint8Array(task.bins[q], 0, n);
      out[j] = numericFeature(frame.names[j], bins, upper);
    });
  };
  return { owns: (j) => owned.has(j), finish };
}

/** Claims and bins task features until none is left (the calling thread and the helper both run it). */
export function binClaimed(task: BinningTask): void {
  const control = new Int32Array(task.control);
  const { nrows: n, maxBins } = task;
  for (;;) {
    const q = Atomics.add(control, NEXT_FEATURE, 1);
    if (q >= task.count) return;
    const values = new Float64Array(task.values[q], 0, n);
    const bins = new Uint8Array(task.bins[q], 0, n);
    const upper = numericBins(values, maxBins, bins);
    new Float64Array(task.upper, 8 * maxBins * q, upper.length).set(upper);
    new Int32Array(task.nbins)[q] = upper.length;
    Atomics.add(control, FEATURES_DONE, 1);
    Atomics.notify(control, FEATURES_DONE);
  }
}

/** Bin edges come from at most this many rows (LightGBM's bin_construct_sample_cnt). */
const EDGE_SAMPLE = 200000;

function binNumeric(name: string, values: Float64Array, maxBins: number): BinnedFeature {
  const bins = new Uint8Array(values.length);
  return numericFeature(name, bins, numericBins(values, maxBins, bins));
}

function numericFeature(name: string, bins: Uint8Array, upper: Float64Array): BinnedFeature {
  return { name, kind: 'numeric', bins, nbins: upper.length, upper, binOfCode: new Int32Array(0), codesOfBin: [], levels: [] };
}

/** Writes the bin of every value into `bins` and returns the upper edges. */
function numericBins(values: Float64Array, maxBins: number, bins: Uint8Array): Float64Array {
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
  return upper;
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

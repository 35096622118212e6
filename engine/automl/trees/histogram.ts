/**
 * Gradient histograms: for each feature and bin, the sums of gradient, hessian and row count of
 * the rows of one node. Layout: slot s = offsets[f] + bin occupies hist[3s .. 3s+2].
 *
 * This file is the builder; its helper threads are histogram-threads.ts, the paths by which rows
 * become sums histogram-paths.ts (with the WebAssembly kernels of histogram-kernel.ts), and the
 * plain loop the tests check them against histogram-naive.ts.
 */
import { BinnedData } from '../binning';
import { createArena, instantiateKernels, KernelArena, Kernels } from './histogram-kernel';
import { accumulate, accumulateSlots, runChunk, runChunkArena, runChunkSlots } from './histogram-paths';
import { ARG, COUNTS, HelperThreads, JOB, NFEAT, NROWS, PARTS, type SharedArray } from './histogram-threads';
import { JOB_HISTOGRAM } from './row-jobs';

export type { SharedArray } from './histogram-threads';

/**
 * A free list of histogram buffers, so tree growth allocates only when more nodes are alive at
 * once than ever before (not per node).
 */
export class HistogramPool {
  private readonly free: Float64Array[] = [];

  constructor(private readonly size: number) {}

  acquire(): Float64Array {
    return this.free.pop() ?? new Float64Array(this.size);
  }

  release(h: Float64Array): void {
    this.free.push(h);
  }
}

/** A job runner for row jobs (row-jobs.ts) on the calling thread and the helper threads. */
export interface PartRunner {
  /** Number of threads (1 = the calling thread only: runParts then runs every part itself). */
  readonly threads: number;
  /** Shares an array on a SharedArrayBuffer with the helper threads under a name (replacing one of the same name). */
  attach(name: string, array: SharedArray): void;
  /**
   * Runs parts 0..parts-1 of a job: part 0 and any part no helper has claimed yet on this thread,
   * the others on helper threads (which read `args` from the control array). Returns when all are done.
   */
  runParts(job: number, parts: number, args: number[], runPart: (c: number) => void): void;
  /**
   * The interleaved gradient/hessian pairs the histogram kernel reads (row r at 2r, 2r + 1; the
   * helpers see them too), or null where the builder keeps none. A gradient job may fill them as
   * it computes the gradients and then call pairsFilled, which saves loadGradients a pass.
   */
  readonly gradientPairs: Float64Array | null;
  /** gradientPairs now holds grad and hess for every row the next tree is grown on. */
  pairsFilled(grad: Float64Array, hess: Float64Array): void;
}

/** Below this many rows a node's histogram is built on the calling thread only. */
export const PARALLEL_MIN_ROWS = 20000;

/**
 * Builds node histograms. The node's rows and gradients are first gathered into contiguous
 * scratch arrays (so every later pass reads memory sequentially), then each row's bins are read
 * from the row-major copy of the binned data. With nthreads > 1, a large node's rows are cut into
 * 2 x nthreads chunks: the calling thread sums chunk 0 into the result, then it and the helper
 * threads claim the other chunks dynamically (so a descheduled helper on a busy machine does not
 * stall the others), each into that chunk's own partial buffer; the partials are then added in
 * chunk order, so results do not depend on which thread ran which chunk. All buffers are
 * SharedArrayBuffers; jobs are signalled with Atomics and the calling thread blocks until done.
 */
export class HistogramBuilder implements PartRunner {
  private readonly gs: Float64Array;
  private readonly hs: Float64Array;
  /**
   * Slot-index path: gradient and hessian of every row, interleaved (row r at 2r, 2r + 1), indexed
   * by row id so a node's histogram reads them next to nothing else and needs no gather pass.
   * Filled for all rows by loadGradients() (once per tree) or for a node's rows by build().
   */
  private readonly gh: Float64Array;
  /**
   * Row-major histogram slot offsets: (offsets[f] + bin) * 3 of row r and feature f at r * p + f,
   * so the inner loop is one load per feature instead of a bin load, a slot load and a multiply.
   * Built on first use, and only when every offset fits 16 bits (otherwise the byte path runs).
   */
  private slotIdx: Uint16Array | null = null;
  private slotIdxFilled = false;
  private readonly useSlotIdx: boolean;
  /**
   * Slot-index path with the WebAssembly kernel: slotIdx, gh, rows and one histogram per chunk
   * live in one WebAssembly memory; null when WebAssembly is unavailable or the data too large.
   */
  private readonly arena: KernelArena | null = null;
  private readonly kernels: Kernels | null = null;
  /** Chunk 0's histogram in the arena (the calling thread's), copied into the caller's buffer. */
  private readonly mainHist: Float64Array | null = null;
  private readonly rows: Uint32Array;
  private readonly slot: Int32Array;
  private readonly slotLen: Int32Array;
  private readonly featBuf: Int32Array;
  private readonly partials: Float64Array[] = [];
  private helpers: number;
  /** The helper threads (null with one thread), started on first need. */
  private readonly pool: HelperThreads | null;

  constructor(
    private readonly data: BinnedData,
    nthreads = 1,
    private readonly parallelMinRows = PARALLEL_MIN_ROWS,
  ) {
    const p = data.features.length;
    const helpers = Math.max(0, Math.floor(nthreads) - 1);
    const shared = (bytes: number): ArrayBuffer | SharedArrayBuffer => (helpers > 0 ? new SharedArrayBuffer(Math.max(8, bytes)) : new ArrayBuffer(bytes));
    this.useSlotIdx = data.totalBins * 3 <= 65535;
    const chunks = 2 * (helpers + 1);
    if (this.useSlotIdx) this.arena = createArena(data.nrows, data.offsets, data.totalBins, chunks, helpers > 0);
    const arena = this.arena;
    // The byte path keeps separate gradient/hessian arrays; the slot-index path the interleaved one.
    this.gs = new Float64Array(shared(this.useSlotIdx ? 8 : 8 * data.nrows));
    this.hs = new Float64Array(shared(this.useSlotIdx ? 8 : 8 * data.nrows));
    this.loadedGrad = null;
    this.loadedHess = null;
    this.shared = helpers > 0;
    if (arena) {
      const buf = arena.memory.buffer;
      this.gh = new Float64Array(buf, arena.gh, 2 * data.nrows);
      this.rows = new Uint32Array(buf, arena.rows, data.nrows);
      this.slotIdx = new Uint16Array(buf, arena.idx, data.nrows * p);
      if (arena.specialized) new Uint8Array(buf, arena.bins, data.nrows * p).set(data.rowMajor);
      data.features.forEach((f, j) => new Uint8Array(buf, arena.colBins + j * data.nrows, data.nrows).set(f.bins));
      this.mainHist = new Float64Array(buf, arena.hist[0], data.totalBins * 3);
      this.kernels = instantiateKernels(arena);
    } else {
      this.gh = new Float64Array(shared(this.useSlotIdx ? 16 * data.nrows : 8));
      this.rows = new Uint32Array(shared(4 * data.nrows));
    }
    this.slot = new Int32Array(shared(4 * p));
    this.slotLen = new Int32Array(shared(4 * p));
    this.featBuf = new Int32Array(shared(4 * p));
    this.helpers = helpers;
    this.pool = helpers > 0 ? new HelperThreads(helpers) : null;
    this.chunks = chunks;
  }

  private readonly chunks: number;
  private readonly shared: boolean;
  /** The arrays whose values gh holds for every row (set by loadGradients), or null. */
  private loadedGrad: Float64Array | null;
  private loadedHess: Float64Array | null;

  /**
   * Copies the gradients and hessians of all rows into the builder once, so that the following
   * build() calls with these same arrays skip gathering them. Call again whenever their values
   * change (a build() with other arrays forgets the loaded ones).
   */
  loadGradients(grad: Float64Array, hess: Float64Array): void {
    if (!this.useSlotIdx) return;
    const prefilled = this.prefilledGrad === grad && this.prefilledHess === hess;
    this.prefilledGrad = null;
    this.prefilledHess = null;
    if (prefilled) {
      // Rows outside the tree's sample hold stale pairs, but no histogram reads them.
      this.loadedGrad = grad;
      this.loadedHess = hess;
      return;
    }
    const gh = this.gh;
    const n = Math.min(this.data.nrows, grad.length, hess.length);
    for (let r = 0; r < n; r++) {
      gh[2 * r] = grad[r];
      gh[2 * r + 1] = hess[r];
    }
    this.loadedGrad = n === this.data.nrows ? grad : null;
    this.loadedHess = n === this.data.nrows ? hess : null;
  }

  /** The arrays a gradient job last wrote into gh (see pairsFilled), until loadGradients or build uses gh. */
  private prefilledGrad: Float64Array | null = null;
  private prefilledHess: Float64Array | null = null;

  get gradientPairs(): Float64Array | null {
    return this.useSlotIdx ? this.gh : null;
  }

  pairsFilled(grad: Float64Array, hess: Float64Array): void {
    this.prefilledGrad = grad;
    this.prefilledHess = hess;
  }

  /** The 16-bit slot index (see slotIdx), built on first use. */
  private slotIndex(): Uint16Array {
    if (this.slotIdx && this.slotIdxFilled) return this.slotIdx;
    const { nrows, offsets, rowMajor } = this.data;
    const p = this.data.features.length;
    const len = nrows * p;
    const idx = this.slotIdx ?? new Uint16Array(this.shared ? new SharedArrayBuffer(Math.max(8, 2 * len)) : new ArrayBuffer(2 * len), 0, len);
    const off3 = Int32Array.from(offsets, (o) => o * 3);
    for (let r = 0, i = 0; r < nrows; r++) for (let f = 0; f < p; f++, i++) idx[i] = off3[f] + rowMajor[i] * 3;
    this.slotIdx = idx;
    this.slotIdxFilled = true;
    return idx;
  }

  /** The helper threads, started on first need, so small trainings never pay for them. */
  private helperThreads(): HelperThreads {
    const pool = this.pool as HelperThreads;
    if (pool.running) return pool;
    const data = this.data;
    let rowMajor = data.rowMajor;
    if (!(rowMajor.buffer instanceof SharedArrayBuffer)) {
      const copy = new Uint8Array(new SharedArrayBuffer(Math.max(8, rowMajor.length)), 0, rowMajor.length);
      copy.set(rowMajor);
      rowMajor = copy;
    }
    const arena = this.arena;
    for (let c = 1; c < this.chunks; c++) {
      this.partials.push(arena ? new Float64Array(arena.memory.buffer, arena.hist[c], data.totalBins * 3) : new Float64Array(new SharedArrayBuffer(8 * data.totalBins * 3)));
    }
    const bins = data.features.map((f) => {
      if (f.bins.buffer instanceof SharedArrayBuffer) return f.bins.buffer;
      const copy = new Uint8Array(new SharedArrayBuffer(Math.max(8, f.bins.length)));
      copy.set(f.bins);
      return copy.buffer;
    });
    pool.start({
      rowMajor: rowMajor.buffer as SharedArrayBuffer,
      slotIdx: this.useSlotIdx && !arena ? (this.slotIndex().buffer as SharedArrayBuffer) : null,
      gh: this.gh.buffer,
      kernel: arena ? { ...arena, nrows: data.nrows, histLen: data.totalBins * 3 } : null,
      rows: this.rows.buffer,
      gs: this.gs.buffer,
      hs: this.hs.buffer,
      features: this.featBuf.buffer,
      slot: this.slot.buffer,
      slotLen: this.slotLen.buffer,
      partials: arena ? [] : this.partials.map((b) => b.buffer),
      p: data.features.length,
      chunks: this.chunks,
      bins,
    });
    return pool;
  }

  attach(name: string, array: SharedArray): void {
    if (this.helpers === 0) return;
    (this.pool as HelperThreads).attach(name, { buffer: array.buffer as SharedArrayBuffer, byteOffset: array.byteOffset, byteLength: array.byteLength });
  }

  /**
   * The tree learner's partition arrays (row index, scratch, split mask) in the kernel arena, where
   * there is one: partitionRows then runs the WebAssembly partition kernel over them.
   */
  partitionArrays(): { index: Uint32Array; scratch: Uint32Array; mask: Uint8Array } | null {
    const arena = this.arena;
    if (!arena) return null;
    const buf = arena.memory.buffer;
    const n = this.data.nrows;
    return { index: new Uint32Array(buf, arena.rowIndex, n), scratch: new Uint32Array(buf, arena.rowScratch, n), mask: new Uint8Array(buf, arena.splitMask, 257) };
  }

  /**
   * partitionPart of index[a..b) on feature f with the arena's kernel (partitionArrays() not null;
   * the split's mask already in its mask array). Returns the number that went left.
   */
  partitionRows(f: number, a: number, b: number): number {
    const arena = this.arena as KernelArena;
    return (this.kernels as Kernels).partition(arena.rowIndex, arena.rowScratch, arena.colBins + f * this.data.nrows, arena.splitMask, a, b);
  }

  runParts(job: number, parts: number, args: number[], runPart: (c: number) => void): void {
    if (this.helpers === 0) {
      for (let c = 0; c < parts; c++) runPart(c);
      return;
    }
    const pool = this.helperThreads();
    const control = pool.control;
    control[JOB] = job;
    control[PARTS] = parts;
    for (let i = 0; i < args.length; i++) control[ARG + i] = args[i];
    pool.run(parts, runPart);
  }

  /** Number of threads used for large nodes (1 = this thread only). */
  get threads(): number {
    return this.helpers + 1;
  }

  /** Stops the helper threads; the builder stays usable single-threaded. */
  dispose(): void {
    this.helpers = 0;
    this.pool?.dispose();
  }

  /**
   * Fills `hist` for the features listed, from rows index[start..end). Without `counts` the
   * count slots are left at zero (callers then use hessian sums as counts).
   */
  build(hist: Float64Array, features: Int32Array, index: Uint32Array, start: number, end: number, grad: Float64Array, hess: Float64Array, counts = true): void {
    const n = end - start;
    const { gs, hs, gh, rows, slot, slotLen } = this;
    const useIdx = this.useSlotIdx;
    if (useIdx) {
      if (this.loadedGrad !== grad || this.loadedHess !== hess) {
        this.loadedGrad = null;
        this.loadedHess = null;
        this.prefilledGrad = null;
        this.prefilledHess = null;
        for (let i = start; i < end; i++) {
          const r = index[i];
          gh[2 * r] = grad[r];
          gh[2 * r + 1] = hess[r];
        }
      }
    } else {
      for (let i = 0; i < n; i++) {
        const r = index[start + i];
        rows[i] = r;
        gs[i] = grad[r];
        hs[i] = hess[r];
      }
    }
    const { offsets, rowMajor } = this.data;
    const p = this.data.features.length;
    const nf = features.length;
    for (let k = 0; k < nf; k++) {
      const f = features[k];
      slot[k] = offsets[f] * 3;
      slotLen[k] = (this.data.features[f].nbins + 1) * 3;
      this.featBuf[k] = f;
      hist.fill(0, slot[k], slot[k] + slotLen[k]);
    }
    const parallel = this.helpers > 0 && n >= this.parallelMinRows;
    const pool = parallel ? this.helperThreads() : null;
    const idx = useIdx ? this.slotIndex() : null;
    const arena = this.arena;
    const main = this.mainHist;
    if (!parallel) {
      if (arena && main) {
        rows.set(index.subarray(start, end));
        runChunkArena(this.kernels, arena, 0, main, idx as Uint16Array, rows, gh, this.featBuf, slot, slotLen, nf, p, n, n, counts);
        for (let k = 0; k < nf; k++) hist.set(main.subarray(slot[k], slot[k] + slotLen[k]), slot[k]);
      } else if (idx) accumulateSlots(hist, idx, index, gh, this.featBuf, nf, p, start, end, counts);
      else accumulate(hist, rowMajor, rows, gs, hs, this.featBuf, slot, nf, p, 0, n, counts);
      return;
    }
    if (idx) rows.set(index.subarray(start, end));
    const C = this.chunks;
    const chunk = Math.ceil(n / C);
    const control = (pool as HelperThreads).control;
    control[NROWS] = n;
    control[COUNTS] = counts ? 1 : 0;
    control[NFEAT] = nf;
    control[JOB] = JOB_HISTOGRAM;
    (pool as HelperThreads).run(C, (c) => {
      if (c === 0) {
        // Chunk 0 goes straight into the result; the others into their partials, added below in chunk order.
        if (arena && main) {
          runChunkArena(this.kernels, arena, 0, main, idx as Uint16Array, rows, gh, this.featBuf, slot, slotLen, nf, p, chunk, n, counts);
          for (let k = 0; k < nf; k++) hist.set(main.subarray(slot[k], slot[k] + slotLen[k]), slot[k]);
        } else if (idx) accumulateSlots(hist, idx, rows, gh, this.featBuf, nf, p, 0, Math.min(n, chunk), counts);
        else accumulate(hist, rowMajor, rows, gs, hs, this.featBuf, slot, nf, p, 0, Math.min(n, chunk), counts);
      } else if (arena) runChunkArena(this.kernels, arena, c, this.partials[c - 1], idx as Uint16Array, rows, gh, this.featBuf, slot, slotLen, nf, p, chunk, n, counts);
      else if (idx) runChunkSlots(this.partials[c - 1], idx, rows, gh, this.featBuf, slot, slotLen, nf, p, c, chunk, n, counts);
      else runChunk(this.partials[c - 1], rowMajor, rows, gs, hs, this.featBuf, slot, slotLen, nf, p, c, chunk, n, counts);
    });
    for (const part of this.partials) {
      for (let k = 0; k < nf; k++) {
        const e = slot[k] + slotLen[k];
        for (let s = slot[k]; s < e; s++) hist[s] += part[s];
      }
    }
  }

  /** parent -= child over the listed features: the sibling's histogram without a pass over its rows. */
  subtract(parent: Float64Array, child: Float64Array, features: Int32Array): void {
    const { offsets } = this.data;
    for (let k = 0; k < features.length; k++) {
      const f = features[k];
      const base = offsets[f] * 3;
      const end = base + (this.data.features[f].nbins + 1) * 3;
      for (let s = base; s < end; s++) parent[s] -= child[s];
    }
  }
}

/**
 * The three paths by which rows become histogram sums, all in the same summation order (row order within a chunk),
 * so every path gives the same sums to the last bit:
 * - the byte path (accumulate): bins read from the row-major copy, slot = offset + bin * 3; any data width;
 * - the slot-index path (accumulateSlots): precomputed 16-bit slot indices and gradient/hessian pairs interleaved by
 *   row id, where every slot fits 16 bits; also what a feature subset takes in the arena;
 * - the arena path (runChunkArena): the WebAssembly kernels of histogram-kernel.ts when every feature is wanted.
 * Each runChunk* zeroes and fills one chunk's partial histogram; histogram-worker.ts runs them too. The plain loop
 * they are all checked against is histogram-naive.ts.
 */
import type { KernelArena, Kernels } from './histogram-kernel';

/** Zeroes chunk c's partial histogram over the listed features and accumulates the chunk's rows. */
export function runChunk(
  part: Float64Array,
  rowMajor: Uint8Array,
  rows: Uint32Array,
  gs: Float64Array,
  hs: Float64Array,
  features: Int32Array,
  slot: Int32Array,
  slotLen: Int32Array,
  nf: number,
  p: number,
  c: number,
  chunk: number,
  n: number,
  counts: boolean,
): void {
  for (let k = 0; k < nf; k++) part.fill(0, slot[k], slot[k] + slotLen[k]);
  const a = Math.min(n, c * chunk);
  accumulate(part, rowMajor, rows, gs, hs, features, slot, nf, p, a, Math.min(n, a + chunk), counts);
}

/**
 * The histogram inner loop over rows[a..b) (shared with histogram-worker.ts). Four specialized
 * loops (all features or a subset, with or without row counts), unrolled because V8 does not
 * unroll: measured about 2x faster than the plain loop on 1M rows x 28 features.
 */
export function accumulate(
  hist: Float64Array,
  rowMajor: Uint8Array,
  rows: Uint32Array,
  gs: Float64Array,
  hs: Float64Array,
  features: Int32Array,
  slot: Int32Array,
  nf: number,
  p: number,
  a: number,
  b: number,
  counts: boolean,
): void {
  // The fast path reads feature k at offset k: only valid when the list is exactly 0..p-1.
  let direct = nf === p;
  for (let k = 0; direct && k < nf; k++) if (features[k] !== k) direct = false;
  if (direct && counts) {
    for (let i = a; i < b; i++) {
      const rb = rows[i] * p;
      const gi = gs[i];
      const hi = hs[i];
      let k = 0;
      for (; k + 3 < nf; k += 4) {
        const s0 = slot[k] + rowMajor[rb + k] * 3;
        const s1 = slot[k + 1] + rowMajor[rb + k + 1] * 3;
        const s2 = slot[k + 2] + rowMajor[rb + k + 2] * 3;
        const s3 = slot[k + 3] + rowMajor[rb + k + 3] * 3;
        hist[s0] += gi;
        hist[s0 + 1] += hi;
        hist[s0 + 2] += 1;
        hist[s1] += gi;
        hist[s1 + 1] += hi;
        hist[s1 + 2] += 1;
        hist[s2] += gi;
        hist[s2 + 1] += hi;
        hist[s2 + 2] += 1;
        hist[s3] += gi;
        hist[s3 + 1] += hi;
        hist[s3 + 2] += 1;
      }
      for (; k < nf; k++) {
        const s = slot[k] + rowMajor[rb + k] * 3;
        hist[s] += gi;
        hist[s + 1] += hi;
        hist[s + 2] += 1;
      }
    }
  } else if (direct) {
    for (let i = a; i < b; i++) {
      const rb = rows[i] * p;
      const gi = gs[i];
      const hi = hs[i];
      let k = 0;
      for (; k + 3 < nf; k += 4) {
        const s0 = slot[k] + rowMajor[rb + k] * 3;
        const s1 = slot[k + 1] + rowMajor[rb + k + 1] * 3;
        const s2 = slot[k + 2] + rowMajor[rb + k + 2] * 3;
        const s3 = slot[k + 3] + rowMajor[rb + k + 3] * 3;
        hist[s0] += gi;
        hist[s0 + 1] += hi;
        hist[s1] += gi;
        hist[s1 + 1] += hi;
        hist[s2] += gi;
        hist[s2 + 1] += hi;
        hist[s3] += gi;
        hist[s3 + 1] += hi;
      }
      for (; k < nf; k++) {
        const s = slot[k] + rowMajor[rb + k] * 3;
        hist[s] += gi;
        hist[s + 1] += hi;
      }
    }
  } else if (counts) {
    for (let i = a; i < b; i++) {
      const rb = rows[i] * p;
      const gi = gs[i];
      const hi = hs[i];
      let k = 0;
      for (; k + 1 < nf; k += 2) {
        const s0 = slot[k] + rowMajor[rb + features[k]] * 3;
        const s1 = slot[k + 1] + rowMajor[rb + features[k + 1]] * 3;
        hist[s0] += gi;
        hist[s0 + 1] += hi;
        hist[s0 + 2] += 1;
        hist[s1] += gi;
        hist[s1 + 1] += hi;
        hist[s1 + 2] += 1;
      }
      for (; k < nf; k++) {
        const s = slot[k] + rowMajor[rb + features[k]] * 3;
        hist[s] += gi;
        hist[s + 1] += hi;
        hist[s + 2] += 1;
      }
    }
  } else {
    for (let i = a; i < b; i++) {
      const rb = rows[i] * p;
      const gi = gs[i];
      const hi = hs[i];
      let k = 0;
      for (; k + 1 < nf; k += 2) {
        const s0 = slot[k] + rowMajor[rb + features[k]] * 3;
        const s1 = slot[k + 1] + rowMajor[rb + features[k + 1]] * 3;
        hist[s0] += gi;
        hist[s0 + 1] += hi;
        hist[s1] += gi;
        hist[s1 + 1] += hi;
      }
      for (; k < nf; k++) {
        const s = slot[k] + rowMajor[rb + features[k]] * 3;
        hist[s] += gi;
        hist[s + 1] += hi;
      }
    }
  }
}

/** runChunk for the 16-bit slot-index path (accumulateSlots). */
export function runChunkSlots(
  part: Float64Array,
  idx: Uint16Array,
  rows: Uint32Array,
  gh: Float64Array,
  features: Int32Array,
  slot: Int32Array,
  slotLen: Int32Array,
  nf: number,
  p: number,
  c: number,
  chunk: number,
  n: number,
  counts: boolean,
): void {
  for (let k = 0; k < nf; k++) part.fill(0, slot[k], slot[k] + slotLen[k]);
  const a = Math.min(n, c * chunk);
  accumulateSlots(part, idx, rows, gh, features, nf, p, a, Math.min(n, a + chunk), counts);
}

/**
 * The histogram inner loop over rows[a..b) with precomputed slot offsets (idx[r * p + f] =
 * (offsets[f] + bin) * 3) and gradient/hessian pairs interleaved by row id (gh[2r], gh[2r + 1]).
 * Same summation order as accumulate(), so the same histograms to the last bit.
 */
export function accumulateSlots(hist: Float64Array, idx: Uint16Array, rows: Uint32Array, gh: Float64Array, features: Int32Array, nf: number, p: number, a: number, b: number, counts: boolean): void {
  let direct = nf === p;
  for (let k = 0; direct && k < nf; k++) if (features[k] !== k) direct = false;
  if (direct && !counts) {
    for (let i = a; i < b; i++) {
      const r = rows[i];
      const rb = r * p;
      const gi = gh[2 * r];
      const hi = gh[2 * r + 1];
      let k = 0;
      for (; k + 3 < nf; k += 4) {
        const s0 = idx[rb + k];
        const s1 = idx[rb + k + 1];
        const s2 = idx[rb + k + 2];
        const s3 = idx[rb + k + 3];
        hist[s0] += gi;
        hist[s0 + 1] += hi;
        hist[s1] += gi;
        hist[s1 + 1] += hi;
        hist[s2] += gi;
        hist[s2 + 1] += hi;
        hist[s3] += gi;
        hist[s3 + 1] += hi;
      }
      for (; k < nf; k++) {
        const s = idx[rb + k];
        hist[s] += gi;
        hist[s + 1] += hi;
      }
    }
  } else if (direct) {
    for (let i = a; i < b; i++) {
      const r = rows[i];
      const rb = r * p;
      const gi = gh[2 * r];
      const hi = gh[2 * r + 1];
      let k = 0;
      for (; k + 3 < nf; k += 4) {
        const s0 = idx[rb + k];
        const s1 = idx[rb + k + 1];
        const s2 = idx[rb + k + 2];
        const s3 = idx[rb + k + 3];
        hist[s0] += gi;
        hist[s0 + 1] += hi;
        hist[s0 + 2] += 1;
        hist[s1] += gi;
        hist[s1 + 1] += hi;
        hist[s1 + 2] += 1;
        hist[s2] += gi;
        hist[s2 + 1] += hi;
        hist[s2 + 2] += 1;
        hist[s3] += gi;
        hist[s3 + 1] += hi;
        hist[s3 + 2] += 1;
      }
      for (; k < nf; k++) {
        const s = idx[rb + k];
        hist[s] += gi;
        hist[s + 1] += hi;
        hist[s + 2] += 1;
      }
    }
  } else if (counts) {
    for (let i = a; i < b; i++) {
      const r = rows[i];
      const rb = r * p;
      const gi = gh[2 * r];
      const hi = gh[2 * r + 1];
      let k = 0;
      for (; k + 1 < nf; k += 2) {
        const s0 = idx[rb + features[k]];
        const s1 = idx[rb + features[k + 1]];
        hist[s0] += gi;
        hist[s0 + 1] += hi;
        hist[s0 + 2] += 1;
        hist[s1] += gi;
        hist[s1 + 1] += hi;
        hist[s1 + 2] += 1;
      }
      for (; k < nf; k++) {
        const s = idx[rb + features[k]];
        hist[s] += gi;
        hist[s + 1] += hi;
        hist[s + 2] += 1;
      }
    }
  } else {
    for (let i = a; i < b; i++) {
      const r = rows[i];
      const rb = r * p;
      const gi = gh[2 * r];
      const hi = gh[2 * r + 1];
      let k = 0;
      for (; k + 1 < nf; k += 2) {
        const s0 = idx[rb + features[k]];
        const s1 = idx[rb + features[k + 1]];
        hist[s0] += gi;
        hist[s0 + 1] += hi;
        hist[s1] += gi;
        hist[s1 + 1] += hi;
      }
      for (; k < nf; k++) {
        const s = idx[rb + features[k]];
        hist[s] += gi;
        hist[s + 1] += hi;
      }
    }
  }
}

/** True when `features` is exactly 0..p-1 (the kernel's and the unrolled loops' fast case). */
function allFeatures(features: Int32Array, nf: number, p: number): boolean {
  if (nf !== p) return false;
  for (let k = 0; k < nf; k++) if (features[k] !== k) return false;
  return true;
}

/**
 * Chunk c of a node in the arena: zeroes the chunk's histogram `part` (a view of arena.hist[c])
 * over the listed features and accumulates rows[c * chunk .. (c + 1) * chunk) into it, with the
 * WebAssembly kernels (histogram-kernel.ts) when every feature is wanted (counting rows only with
 * the specialized kernel), otherwise with
 * accumulateSlots (same summation order, so the same sums).
 */
export function runChunkArena(
  kernels: Kernels | null,
  arena: KernelArena,
  c: number,
  part: Float64Array,
  idx: Uint16Array,
  rows: Uint32Array,
  gh: Float64Array,
  features: Int32Array,
  slot: Int32Array,
  slotLen: Int32Array,
  nf: number,
  p: number,
  chunk: number,
  n: number,
  counts: boolean,
): void {
  for (let k = 0; k < nf; k++) part.fill(0, slot[k], slot[k] + slotLen[k]);
  const a = Math.min(n, c * chunk);
  const b = Math.min(n, a + chunk);
  const acc = kernels && allFeatures(features, nf, p) ? (counts ? kernels.counting : kernels.plain) : null;
  if (acc) acc(arena.rows, a, b, arena.specialized ? arena.bins : arena.idx, arena.gh, arena.hist[c], p);
  else accumulateSlots(part, idx, rows, gh, features, nf, p, a, b, counts);
}

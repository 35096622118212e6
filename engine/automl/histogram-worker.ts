/**
 * Helper thread for HistogramBuilder: when a job is published it claims row chunks of the node
 * (an atomic counter shared with the calling thread) and sums each into that chunk's shared
 * partial histogram. All inputs live in SharedArrayBuffers set up by the builder.
 */
import { parentPort, workerData } from 'worker_threads';
import { KernelArena, instantiateKernel, runChunk, runChunkArena, runChunkSlots } from './histogram';

interface WorkerInit {
  control: SharedArrayBuffer;
  rowMajor: SharedArrayBuffer;
  /** 16-bit slot offsets (HistogramBuilder's slot-index path), or null for the byte path. */
  slotIdx: SharedArrayBuffer | null;
  /** Interleaved gradient/hessian pairs of the slot-index path. */
  gh: SharedArrayBuffer;
  /** The WebAssembly kernel's arena (slot indices, gradients, rows, chunk histograms), or null. */
  kernel: (KernelArena & { nrows: number; histLen: number }) | null;
  rows: SharedArrayBuffer;
  gs: SharedArrayBuffer;
  hs: SharedArrayBuffer;
  features: SharedArrayBuffer;
  slot: SharedArrayBuffer;
  slotLen: SharedArrayBuffer;
  /** Partial buffers of chunks 1..chunks-1. */
  partials: SharedArrayBuffer[];
  p: number;
  chunks: number;
}

// Indices into the control array; keep in sync with histogram.ts.
const SEQ = 0;
const NROWS = 1;
const NFEAT = 2;
const DONE = 3;
const STOP = 4;
const COUNTS = 5;
const NEXT = 6;

function main(init: WorkerInit): void {
  const control = new Int32Array(init.control);
  const rowMajor = new Uint8Array(init.rowMajor);
  const k = init.kernel;
  const buf = k ? k.memory.buffer : null;
  const slotIdx = k && buf ? new Uint16Array(buf, k.idx, k.nrows * init.p) : init.slotIdx ? new Uint16Array(init.slotIdx) : null;
  const gh = k && buf ? new Float64Array(buf, k.gh, 2 * k.nrows) : new Float64Array(init.gh);
  const acc = k ? instantiateKernel(k) : null;
  const rows = k && buf ? new Uint32Array(buf, k.rows, k.nrows) : new Uint32Array(init.rows);
  const gs = new Float64Array(init.gs);
  const hs = new Float64Array(init.hs);
  const features = new Int32Array(init.features);
  const slot = new Int32Array(init.slot);
  const slotLen = new Int32Array(init.slotLen);
  const partials = k && buf ? k.hist.map((o) => new Float64Array(buf, o, k.histLen)) : [new Float64Array(0), ...init.partials.map((b) => new Float64Array(b))];
  const { p, chunks } = init;
  let seq = 0;
  for (;;) {
    Atomics.wait(control, SEQ, seq);
    seq = Atomics.load(control, SEQ);
    if (Atomics.load(control, STOP) === 1) return;
    for (;;) {
      // Claim first, then read the job: parameters are written before NEXT is reset and stay
      // fixed until every chunk of that job (this one included) is done.
      const c = Atomics.add(control, NEXT, 1);
      if (c >= chunks) break;
      const n = control[NROWS];
      if (k) runChunkArena(acc, k, c, partials[c], slotIdx as Uint16Array, rows, gh, features, slot, slotLen, control[NFEAT], p, Math.ceil(n / chunks), n, control[COUNTS] === 1);
      else if (slotIdx) runChunkSlots(partials[c], slotIdx, rows, gh, features, slot, slotLen, control[NFEAT], p, c, Math.ceil(n / chunks), n, control[COUNTS] === 1);
      else runChunk(partials[c], rowMajor, rows, gs, hs, features, slot, slotLen, control[NFEAT], p, c, Math.ceil(n / chunks), n, control[COUNTS] === 1);
      Atomics.add(control, DONE, 1);
      Atomics.notify(control, DONE);
    }
  }
}

if (parentPort) main(workerData as WorkerInit);

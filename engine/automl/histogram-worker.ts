/**
 * Helper thread for HistogramBuilder: when a job is published it claims row chunks of the node
 * (an atomic counter shared with the calling thread) and sums each into that chunk's shared
 * partial histogram. All inputs live in SharedArrayBuffers set up by the builder.
 */
import { parentPort, workerData } from 'worker_threads';
import { runChunk } from './histogram';

interface WorkerInit {
  control: SharedArrayBuffer;
  rowMajor: SharedArrayBuffer;
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
  const rows = new Uint32Array(init.rows);
  const gs = new Float64Array(init.gs);
  const hs = new Float64Array(init.hs);
  const features = new Int32Array(init.features);
  const slot = new Int32Array(init.slot);
  const slotLen = new Int32Array(init.slotLen);
  const partials = init.partials.map((b) => new Float64Array(b));
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
      runChunk(partials[c - 1], rowMajor, rows, gs, hs, features, slot, slotLen, control[NFEAT], p, c, Math.ceil(n / chunks), n, control[COUNTS] === 1);
      Atomics.add(control, DONE, 1);
      Atomics.notify(control, DONE);
    }
  }
}

if (parentPort) main(workerData as WorkerInit);

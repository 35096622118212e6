/**
 * Helper thread for HistogramBuilder: when a job is published it claims parts of it (an atomic
 * counter shared with the calling thread) and runs them: row chunks of a node histogram (each into
 * that chunk's shared partial histogram), or parts of the row jobs of row-jobs.ts (partition,
 * margin updates, gradients). All inputs live in SharedArrayBuffers set up by the builder; buffers
 * created after the thread started arrive on `port` (see HistogramBuilder.attach). binFrame starts
 * the same script for a binning task (binning.ts binClaimed).
 */
import { receiveMessageOnPort } from 'node:worker_threads';
import { inHostThread, threadContext } from '../../../platform/threads';
import { binClaimed } from '../binning';
import { instantiateKernels } from './histogram-kernel';
import { runChunk, runChunkArena, runChunkSlots } from './histogram-paths';
import { ARG, ATTACHED, AttachedRange, claimPart, COUNTS, DONE, HistogramHelperInit, JOB, NFEAT, NROWS, PARTS, SEQ, spinWhile, STOP } from './histogram-threads';
import type { HELPER_THREAD } from './helper-script';
import { JOB_GRADIENTS, JOB_HISTOGRAM, JOB_MARGINS, JOB_PARTITION, addLeafValuesPart, gradientsPart, partRange, partitionPart } from './row-jobs';

/** How long a helper polls for the next job before it sleeps (see spinWhile): longer than most gaps between jobs within a tree. */
const SPIN_MICROS = 2000;

function main(init: HistogramHelperInit): void {
  const control = new Int32Array(init.control);
  const rowMajor = new Uint8Array(init.rowMajor);
  const k = init.kernel;
  const buf = k ? k.memory.buffer : null;
  const slotIdx = k && buf ? new Uint16Array(buf, k.idx, k.nrows * init.p) : init.slotIdx ? new Uint16Array(init.slotIdx) : null;
  const gh = k && buf ? new Float64Array(buf, k.gh, 2 * k.nrows) : new Float64Array(init.gh);
  const kernels = k ? instantiateKernels(k) : null;
  const rows = k && buf ? new Uint32Array(buf, k.rows, k.nrows) : new Uint32Array(init.rows);
  const gs = new Float64Array(init.gs);
  const hs = new Float64Array(init.hs);
  const features = new Int32Array(init.features);
  const slot = new Int32Array(init.slot);
  const slotLen = new Int32Array(init.slotLen);
  const partials = k && buf ? k.hist.map((o) => new Float64Array(buf, o, k.histLen)) : [new Float64Array(0), ...init.partials.map((b) => new Float64Array(b))];
  const bins = init.bins.map((b) => new Uint8Array(b));
  const { p, chunks } = init;
  const attached = new Map<string, AttachedRange>();
  let seenAttached = 0;
  type View<T> = new (b: SharedArrayBuffer, byteOffset: number, length: number) => T;
  const view = <T extends { BYTES_PER_ELEMENT: number }>(name: string, Ctor: View<T> & { BYTES_PER_ELEMENT: number }): T => {
    const r = attached.get(name) as AttachedRange;
    return new Ctor(r.buffer, r.byteOffset, r.byteLength / Ctor.BYTES_PER_ELEMENT);
  };

  const runPart = (job: number, c: number): void => {
    if (job === JOB_HISTOGRAM) {
      const n = control[NROWS];
      if (k) runChunkArena(kernels, k, c, partials[c], slotIdx as Uint16Array, rows, gh, features, slot, slotLen, control[NFEAT], p, Math.ceil(n / chunks), n, control[COUNTS] === 1);
      else if (slotIdx) runChunkSlots(partials[c], slotIdx, rows, gh, features, slot, slotLen, control[NFEAT], p, c, Math.ceil(n / chunks), n, control[COUNTS] === 1);
      else runChunk(partials[c], rowMajor, rows, gs, hs, features, slot, slotLen, control[NFEAT], p, c, Math.ceil(n / chunks), n, control[COUNTS] === 1);
      return;
    }
    const parts = control[PARTS];
    if (job === JOB_PARTITION) {
      const [start, end, f] = [control[ARG], control[ARG + 1], control[ARG + 2]];
      const [a, b] = partRange(end - start, parts, c);
      const lefts = view('lefts', Int32Array);
      if (k && kernels) lefts[c] = kernels.partition(k.rowIndex, k.rowScratch, k.colBins + f * k.nrows, k.splitMask, start + a, start + b);
      else lefts[c] = partitionPart(view('index', Uint32Array), view('scratch', Uint32Array), bins[f], view('mask', Uint8Array), start + a, start + b);
    } else if (job === JOB_MARGINS) {
      const [n, nleaves, K, kk] = [control[ARG], control[ARG + 1], control[ARG + 2], control[ARG + 3]];
      const [a, b] = partRange(n, parts, c);
      addLeafValuesPart(view('margins', Float64Array), view('index', Uint32Array), view('leaves', Float64Array), nleaves, K, kk, a, b);
    } else if (job === JOB_GRADIENTS) {
      const [n, kind, pairs] = [control[ARG], control[ARG + 1], control[ARG + 2]];
      const hsc = view('gradArgs', Float64Array)[0];
      const [a, b] = partRange(n, parts, c);
      gradientsPart(kind, view('y', Float64Array), view('margins', Float64Array), view('sample', Uint32Array), a, b, view('g', Float64Array), view('h', Float64Array), hsc, gh, pairs);
    }
  };

  let seq = 0;
  for (;;) {
    if (!spinWhile(control, SEQ, seq, SPIN_MICROS)) Atomics.wait(control, SEQ, seq);
    seq = Atomics.load(control, SEQ);
    if (Atomics.load(control, STOP) === 1) return;
    for (;;) {
      // A claim carries its job's part count (see claimPart), so a claim from a job published
      // after this thread woke is still read correctly; the job's parameters are written before
      // its parts open and stay fixed until every part (this one included) is done.
      const c = claimPart(control);
      if (c < 0) break;
      while (seenAttached < Atomics.load(control, ATTACHED)) {
        const msg = receiveMessageOnPort(init.port);
        if (!msg) break;
        const { name, range } = msg.message as { name: string; range: AttachedRange };
        attached.set(name, range);
        seenAttached++;
      }
      runPart(control[JOB], c);
      Atomics.add(control, DONE, 1);
      Atomics.notify(control, DONE);
    }
  }
}

// The same script serves binFrame's short-lived binning helper (binning.ts).
if (inHostThread()) {
  const task = threadContext<typeof HELPER_THREAD>().data;
  if (task.task === 'bin') binClaimed(task);
  else main(task);
}

/**
 * The helper threads of HistogramBuilder: a job (a node histogram's row chunks, or a row job of row-jobs.ts) is
 * published in a shared control array, the calling thread runs part 0, and the calling thread and the helpers claim
 * the other parts one at a time from an atomic counter, so a descheduled helper on a busy machine does not stall the
 * others. The helpers (histogram-worker.ts) run on platform/threads as daemons: they hold no native addon, never keep
 * the process alive, and dispose() stops them.
 */
import { MessageChannel, MessagePort } from 'node:worker_threads';
import { startThread, type ThreadHost } from '../../../platform/threads';
import type { KernelArena } from './histogram-kernel';
import { HELPER_THREAD } from './helper-script';

// Slots of the control array, shared with histogram-worker.ts.
export const SEQ = 0;
export const NROWS = 1;
export const NFEAT = 2;
export const DONE = 3;
export const STOP = 4;
export const COUNTS = 5;
const NEXT = 6;
export const JOB = 7;
export const PARTS = 8;
export const ARG = 9;
export const ATTACHED = 15;
const CONTROL_SLOTS = 16;

/**
 * Claims the next part of the published job: NEXT holds (parts << 10) | next part, so a claim
 * carries its own job's part count and a late thread cannot misread a newer job's. -1 = none left.
 */
export function claimPart(control: Int32Array): number {
  const v = Atomics.add(control, NEXT, 1);
  const c = v & 1023;
  return c < v >>> 10 ? c : -1;
}

/**
 * Busy-polls while control[slot] === value, for at most `micros` microseconds; true when it
 * changed. A futex wake-up costs tens of microseconds on a busy VM, more than many of the jobs
 * themselves, so both sides poll a little before they sleep (as OpenMP runtimes do).
 */
export function spinWhile(control: Int32Array, slot: number, value: number, micros: number): boolean {
  const end = performance.now() + micros / 1000;
  for (;;) {
    for (let i = 0; i < 256; i++) if (Atomics.load(control, slot) !== value) return true;
    if (performance.now() > end) return false;
  }
}

/** Opens parts 1..parts-1 of a job for claiming (part 0 is the calling thread's). */
function openParts(control: Int32Array, parts: number): void {
  Atomics.store(control, NEXT, (parts << 10) | 1);
}

/** A typed array whose buffer is a SharedArrayBuffer (helpers see the same range of it). */
export type SharedArray = Uint8Array | Int32Array | Uint32Array | Float64Array;

/** How an attached array travels to the helpers. */
export interface AttachedRange {
  buffer: SharedArrayBuffer;
  byteOffset: number;
  byteLength: number;
}

/** The builder's arrays the helpers read and write, all on SharedArrayBuffers (or in the kernel's shared memory). */
export interface HelperArrays {
  rowMajor: SharedArrayBuffer;
  /** 16-bit slot offsets (HistogramBuilder's slot-index path), or null for the byte path. */
  slotIdx: SharedArrayBuffer | null;
  /** Interleaved gradient/hessian pairs of the slot-index path. */
  gh: ArrayBufferLike;
  /** The WebAssembly kernel's arena (slot indices, gradients, rows, chunk histograms), or null. */
  kernel: (KernelArena & { nrows: number; histLen: number }) | null;
  rows: ArrayBufferLike;
  gs: ArrayBufferLike;
  hs: ArrayBufferLike;
  features: ArrayBufferLike;
  slot: ArrayBufferLike;
  slotLen: ArrayBufferLike;
  /** Partial buffers of chunks 1..chunks-1 (none with the arena, which holds them). */
  partials: ArrayBufferLike[];
  p: number;
  chunks: number;
  /** Column bins of every feature (row jobs: partition). */
  bins: ArrayBufferLike[];
}

/** What a histogram helper thread receives: the arrays, the control array and the port attached arrays arrive on. */
export interface HistogramHelperInit extends HelperArrays {
  task: 'histogram';
  control: SharedArrayBuffer;
  port: MessagePort;
}

/** How long the calling thread polls for the helpers to finish before it sleeps (see spinWhile). */
const MAIN_SPIN_MICROS = 100;

export class HelperThreads {
  /** The job's parameters (NROWS, NFEAT, COUNTS, JOB, PARTS, ARG..) are written here before run(). */
  readonly control = new Int32Array(new SharedArrayBuffer(4 * CONTROL_SLOTS));
  private readonly threads: ThreadHost<never>[] = [];
  /** Buffers shared by attach(), and the ports they travel on to each helper. */
  private readonly attached = new Map<string, AttachedRange>();
  private readonly ports: MessagePort[] = [];
  private started = false;

  constructor(private readonly count: number) {}

  get running(): boolean {
    return this.started;
  }

  /** Starts the helpers on the builder's arrays. */
  start(arrays: HelperArrays): void {
    this.started = true;
    for (let w = 0; w < this.count; w++) {
      const { port1, port2 } = new MessageChannel();
      this.ports.push(port1);
      const init: HistogramHelperInit = { ...arrays, task: 'histogram', control: this.control.buffer as SharedArrayBuffer, port: port2 };
      // A helper that fails leaves its parts to the others; a part it claimed and never finished times run() out.
      this.threads.push(startThread(HELPER_THREAD, init, { messages: {}, error: () => undefined }, { transferList: [port2], daemon: true }));
    }
    for (const [name, range] of this.attached) this.post(name, range);
  }

  /** Shares a range with the helpers under a name (replacing one of the same name); sent now if they run. */
  attach(name: string, range: AttachedRange): void {
    this.attached.set(name, range);
    if (this.started) this.post(name, range);
  }

  private post(name: string, range: AttachedRange): void {
    for (const port of this.ports) port.postMessage({ name, range });
    Atomics.add(this.control, ATTACHED, 1);
  }

  /**
   * Runs parts 0..parts-1 of the job whose parameters are in the control array: part 0 and any part no helper has
   * claimed yet on this thread, the others on the helpers. Returns when all are done.
   */
  run(parts: number, runPart: (c: number) => void): void {
    const control = this.control;
    // DONE is reset before the parts open, or a fast helper's completion could be wiped out.
    Atomics.store(control, DONE, 0);
    openParts(control, parts);
    Atomics.add(control, SEQ, 1);
    Atomics.notify(control, SEQ);
    runPart(0);
    for (;;) {
      const c = claimPart(control);
      if (c < 0) break;
      runPart(c);
      Atomics.add(control, DONE, 1);
    }
    this.awaitParts(parts);
  }

  /** Blocks until parts 1..parts-1 are done. */
  private awaitParts(parts: number): void {
    const control = this.control;
    for (;;) {
      const done = Atomics.load(control, DONE);
      if (done >= parts - 1) break;
      if (spinWhile(control, DONE, done, MAIN_SPIN_MICROS)) continue;
      if (Atomics.wait(control, DONE, done, 60000) === 'timed-out' && Atomics.load(control, DONE) < parts - 1) {
        throw new Error('helper threads did not answer within 60 s');
      }
    }
  }

  /** Stops the helpers. */
  dispose(): void {
    if (!this.started) return;
    this.started = false;
    Atomics.store(this.control, STOP, 1);
    Atomics.add(this.control, SEQ, 1);
    Atomics.notify(this.control, SEQ);
    for (const t of this.threads) void t.stop();
    this.threads.length = 0;
    for (const port of this.ports) port.close();
    this.ports.length = 0;
  }
}

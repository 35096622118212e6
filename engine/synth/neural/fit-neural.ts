/**
 * fitNeural: trains CTGAN, TVAE or CopulaGAN in a worker thread, so the caller's event loop stays free (Temporal
 * heartbeats keep flowing, a cancel is seen at once). Epoch progress and checkpoints stream back as messages; an
 * aborted signal rejects with the signal's reason at once and raises the thread's cancel flag, which the thread checks
 * between batches and then ends.
 *
 * The thread is not terminated from outside while it trains. Terminating a worker while it is inside ONNX Runtime's
 * synchronous run (the products, ort-products.ts) aborts the whole process: the binding throws a C++ exception
 * while the thread's environment is torn down. This was seen in 1 of 6 runs of this module's tests, and within 20
 * terminations of a thread looping on products. A thread that has not ended CANCEL_GRACE_MS after the flag is not in
 * its batch loop, and so not in ONNX Runtime, and is terminated then.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Frame } from '../../automl';
import type { CtganConfig, FitHooks, SynthesizerModel, TvaeConfig } from '../types';
import { NeuralConfigError, NeuralModelType, resolveNeuralConfig } from './config';
import { deserializeNeural } from './model';

/** What the thread receives (workerData). */
export interface FitThreadInput {
  type: NeuralModelType;
  frame: Frame;
  config: Partial<CtganConfig> | Partial<TvaeConfig>;
  resumeFrom: Uint8Array | null;
  checkpointEveryMs: number;
  wantsCheckpoints: boolean;
  /** Threads of the fit's products, on ONNX Runtime or the wasm backend (0: every core; at most the cores). */
  threads: number;
  /** Set to 1 by the parent to cancel. */
  cancel: Int32Array;
}

export type FitThreadMessage =
  | { type: 'progress'; fraction: number; message: string }
  | { type: 'checkpoint'; bytes: Uint8Array; epoch: number }
  | { type: 'result'; bytes: Uint8Array }
  | { type: 'error'; name: string; message: string };

/** An error raised by the fit inside the thread, with its original name (e.g. 'NeuralConfigError'). */
export class NeuralFitError extends Error {
  constructor(
    readonly errorName: string,
    message: string,
  ) {
    super(message);
    this.name = 'NeuralFitError';
  }
}

/** Fit threads not yet ended, cancelled ones finishing their batch included. */
const liveThreads = new Set<Worker>();

/**
 * Resolves when every fit thread has ended. A process should await it before it exits: exiting stops its threads
 * as terminate() does, and a cancelled thread may still be inside its last batch's products.
 */
export async function fitThreadsEnded(): Promise<void> {
  await Promise.all([...liveThreads].map((w) => new Promise((resolve) => w.once('exit', resolve))));
}

/** How long a cancelled thread has to end itself before it is terminated (see the file comment). */
export const CANCEL_GRACE_MS = 30_000;

/** The compiled thread script, beside this module. */
export const FIT_THREAD_SCRIPT = path.join(__dirname, 'fit-thread.js');

/**
 * Fits a neural synthesizer in a worker thread. Options are checked first (a bad one rejects with a
 * NeuralConfigError before any thread starts). `hooks.onCheckpoint` calls run one at a time, in order; when several
 * checkpoints arrive while one is being saved, only the newest is saved next. A failing onCheckpoint fails the fit.
 */
export function fitNeural(type: NeuralModelType, frame: Frame, config: Partial<CtganConfig> | Partial<TvaeConfig>, hooks: FitHooks = {}): Promise<SynthesizerModel> {
  return new Promise<SynthesizerModel>((resolve, reject) => {
    try {
      resolveNeuralConfig(type, config);
    } catch (err) {
      reject(err as Error);
      return;
    }
    const signal = hooks.signal;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    const input: FitThreadInput = {
      type,
      frame,
      config,
      resumeFrom: hooks.resumeFrom ?? null,
      checkpointEveryMs: Math.max(0, (hooks.checkpointEverySecs ?? 10) * 1000),
      wantsCheckpoints: !!hooks.onCheckpoint,
      threads: hooks.threads ?? 0,
      cancel,
    };
    const worker = new Worker(FIT_THREAD_SCRIPT, { workerData: input });
    liveThreads.add(worker);
    worker.once('exit', () => liveThreads.delete(worker));
    let settled = false;
    let received = false;
    let saving: Promise<void> | null = null;
    let queued: { bytes: Uint8Array; epoch: number } | null = null;

    const finish = (err: unknown, model?: SynthesizerModel) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (err !== null) {
        Atomics.store(cancel, 0, 1);
        stopWhenIdle(worker);
        reject(err);
      } else {
        resolve(model as SynthesizerModel);
      }
    };
    const onAbort = () => finish(signal?.reason ?? new Error('fit aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });

    const save = (c: { bytes: Uint8Array; epoch: number }) => {
      const cb = hooks.onCheckpoint;
      if (!cb) return;
      saving = cb(c.bytes, c.epoch).then(
        () => {
          saving = null;
          const next = queued;
          queued = null;
          if (next && !settled) save(next);
        },
        (err: unknown) => finish(err),
      );
    };

    const handle = (m: FitThreadMessage) => {
      if (m.type === 'progress') hooks.onProgress?.(m.fraction, m.message);
      else if (m.type === 'checkpoint') {
        if (saving) queued = m;
        else save(m);
      } else if (m.type === 'result') {
        received = true;
        queued = null; // older than the finished model: no longer worth saving
        const model = deserializeNeural(m.bytes);
        // Let a checkpoint being saved finish first, so it never lands after the caller moved on.
        const pending = saving as Promise<void> | null;
        if (pending)
          pending.then(
            () => finish(null, model),
            () => {},
          );
        else finish(null, model);
        void worker.terminate();
      } else {
        finish(m.name === 'NeuralConfigError' ? new NeuralConfigError(m.message) : new NeuralFitError(m.name, m.message));
      }
    };
    worker.on('message', (m: FitThreadMessage) => {
      if (settled) return;
      try {
        handle(m);
      } catch (err) {
        finish(err); // a throwing onProgress, or a result that does not deserialize
      }
    });
    worker.on('error', (err) => finish(err));
    worker.on('exit', (code) => received || finish(new Error(`neural fit thread exited with code ${code} before it finished`)));
  });
}

/** Lets a cancelled thread end at its next batch; terminates it only if it has not after CANCEL_GRACE_MS. */
function stopWhenIdle(worker: Worker): void {
  const timer = setTimeout(() => void worker.terminate(), CANCEL_GRACE_MS);
  timer.unref();
  worker.once('exit', () => clearTimeout(timer));
}

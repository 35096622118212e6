/**
 * fitNeural: trains CTGAN, TVAE or CopulaGAN in a worker thread, so the caller's event loop stays free (Temporal
 * heartbeats keep flowing, a cancel is seen at once). Epoch progress and checkpoints stream back as messages; an
 * aborted signal rejects with the signal's reason at once and raises the thread's cancel flag, which the thread checks
 * between batches and then ends.
 *
 * The thread is not terminated from outside while it trains. Terminating a worker while it is inside ONNX Runtime's
 * synchronous run (the products, ort-products.ts) aborts the whole process: the binding throws a C++ exception
 * while the thread's environment is torn down. This was seen in 1 of 6 runs of this module's tests, and within 20
 * terminations of a thread looping on products. So a failed or cancelled fit stops its thread with a grace period
 * (platform/threads): the thread reads the stop flag between batches and ends itself; one that has not ended
 * CANCEL_GRACE_MS later is not in its batch loop, and so not in ONNX Runtime, and is terminated then.
 */
import path from 'node:path';
import { startThread, threadScript } from '../../../platform/threads';
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
}

export type FitThreadMessage =
  | { type: 'progress'; fraction: number; message: string }
  /** Sent between batches when nothing else was for a while: the fit is alive inside a long epoch. */
  | { type: 'pulse' }
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

/** How long a cancelled thread has to end itself before it is terminated (see the file comment). */
export const CANCEL_GRACE_MS = 30_000;

/** The compiled thread script, beside this module. */
export const FIT_THREAD_SCRIPT = path.join(__dirname, 'fit-thread.js');

/** fit-thread.ts: the fit's input in; progress, checkpoints and the model (or the error) out. */
export const FIT_THREAD = threadScript<FitThreadInput, never, FitThreadMessage>(FIT_THREAD_SCRIPT);

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
    const input: FitThreadInput = {
      type,
      frame,
      config,
      resumeFrom: hooks.resumeFrom ?? null,
      checkpointEveryMs: Math.max(0, (hooks.checkpointEverySecs ?? 10) * 1000),
      wantsCheckpoints: !!hooks.onCheckpoint,
      threads: hooks.threads ?? 0,
    };
    let settled = false;
    let saving: Promise<void> | null = null;
    let queued: { bytes: Uint8Array; epoch: number } | null = null;

    const finish = (err: unknown, model?: SynthesizerModel) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (err !== null) {
        // The thread ends itself at its next batch (see the file comment).
        void thread.stop({ graceMs: CANCEL_GRACE_MS });
        reject(err);
      } else {
        resolve(model as SynthesizerModel);
      }
    };

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

    // A handler that throws (a throwing onProgress, a result that does not deserialize) fails the fit: the host
    // reports it as the thread's error.
    const thread = startThread(FIT_THREAD, input, {
      messages: {
        progress: (m) => hooks.onProgress?.(m.fraction, m.message),
        pulse: () => hooks.onPulse?.(),
        checkpoint: (m) => {
          if (saving) queued = m;
          else save(m);
        },
        result: (m) => {
          queued = null; // older than the finished model: no longer worth saving
          const model = deserializeNeural(m.bytes);
          void thread.stop();
          // Let a checkpoint being saved finish first, so it never lands after the caller moved on.
          const pending = saving as Promise<void> | null;
          if (pending)
            pending.then(
              () => finish(null, model),
              () => {},
            );
          else finish(null, model);
        },
        error: (m) => finish(m.name === 'NeuralConfigError' ? new NeuralConfigError(m.message) : new NeuralFitError(m.name, m.message)),
      },
      error: (err) => finish(err),
      exit: (code) => finish(new Error(`neural fit thread exited with code ${code} before it finished`)),
    });
    const onAbort = () => finish(signal?.reason ?? new Error('fit aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

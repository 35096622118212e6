/**
 * Worker-thread entry of `fitNeural`: initialises the TensorFlow.js backend (the DeepLearning policy: native
 * bindings when installed, else wasm with its products on ONNX Runtime or on its own `threads` threads, else cpu),
 * runs the fit and posts progress, checkpoints and the serialized model back. Cancel is a shared flag the fit checks
 * between batches; the thread then ends by itself (fit-neural.ts says why the parent does not terminate it).
 */
import os from 'node:os';
import { getThreadsCount as wasmThreads } from '@tensorflow/tfjs-backend-wasm';
import { initDeepLearningBackend, loadNativeBackend } from '../../automl';
import { describeError, stopRequested, threadContext } from '../../../platform/threads';
import type { FIT_THREAD, FitThreadInput, FitThreadMessage } from './fit-neural';
import { fitNeuralCore } from './fit-core';
import { useOrtProducts } from './kernels';
import { OrtProducts } from './ort-products';
import { serializeNeural } from './model';

/** Thrown inside the thread when its host asked it to stop (a cancel). */
class FitCancelled extends Error {
  readonly name = 'FitCancelled';
}

/**
 * How often at most the batch loop sends a pulse while an epoch runs: an epoch on a large table can outlast the host's
 * heartbeat timeout, and the host keeps itself alive on the thread's messages (from inside the work, not a timer).
 */
const PULSE_MS = 2000;

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** How the wasm backend multiplies, for the first progress line. */
function backendNote(backend: string, products: OrtProducts | null, threads: number): string {
  if (backend !== 'wasm') return '';
  return products ? ` (products on ONNX Runtime, ${plural(threads, 'thread')})` : ` (${plural(wasmThreads(), 'thread')})`;
}

const thread = threadContext<typeof FIT_THREAD>();

async function main(input: FitThreadInput): Promise<void> {
  let sentAt = Date.now();
  const post = (m: FitThreadMessage, transfer: ArrayBuffer[] = []) => {
    sentAt = Date.now();
    thread.post(m, transfer);
  };
  // More threads than cores only adds switching (and SYNTHGEN_THREADS has no upper bound of its own).
  const cores = os.availableParallelism();
  const threads = input.threads === 0 ? cores : Math.min(input.threads, cores);
  // ONNX Runtime's products serve the wasm backend only, and need its heap unshared (one wasm thread); without them the
  // wasm backend multiplies on the threads itself.
  const products = loadNativeBackend() ? null : OrtProducts.create(threads);
  const backend = await initDeepLearningBackend({ threads: products ? 1 : threads });
  post({ type: 'progress', fraction: 0, message: `training ${input.type} on the ${backend} backend${backendNote(backend, products, threads)}` });
  useOrtProducts(backend === 'wasm' ? products : null);
  const model = fitNeuralCore(input.type, input.frame, input.config, {
    resumeFrom: input.resumeFrom,
    checkpointEveryMs: input.checkpointEveryMs,
    // Before every batch: the cancel flag, and a pulse when nothing was sent for a while (a long epoch).
    checkCancel: () => {
      if (stopRequested()) throw new FitCancelled('fit cancelled');
      if (Date.now() - sentAt >= PULSE_MS) post({ type: 'pulse' });
    },
    onEpoch: (epoch, epochs, message) => post({ type: 'progress', fraction: epoch / epochs, message }),
    onNote: (message) => post({ type: 'progress', fraction: 0, message }),
    onCheckpoint: input.wantsCheckpoints ? (bytes, epoch) => post({ type: 'checkpoint', bytes, epoch }, [bytes.buffer as ArrayBuffer]) : undefined,
  });
  const bytes = serializeNeural(model);
  post({ type: 'result', bytes }, [bytes.buffer as ArrayBuffer]);
}

main(thread.data).catch((err: unknown) => thread.post({ type: 'error', ...describeError(err) }));

/**
 * Multi-threaded tfjs-backend-wasm in Node. The package ships a pthread build (XNNPACK's matrix products on a thread
 * pool) but keeps it off in Node for three reasons, each supplied here for the duration of the backend's start:
 * - its WASM_HAS_MULTITHREAD_SUPPORT flag answers false under Node (tfjs#3830): set to true;
 * - Emscripten starts its pthread workers from a `blob:` URL, which Node's Worker refuses: `URL.createObjectURL`
 *   answers the path of `wasm-pthread-worker.js` (the package's worker code run from a file) for that blob;
 * - the pool is capped at half the logical cores (one thread on a 2-core machine): `os.cpus()` reports at least twice
 *   the threads asked for while the pool is made.
 * Measured on the 2-core CI machine: a 500×256 by 256×256 product 1.5× faster on 2 threads, bit-identical results
 * (each output tile is computed by one thread with the same kernel, whatever the thread count).
 */
import os from 'node:os';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';

/** The file Emscripten's pthread workers run (compiled beside this module). */
export const PTHREAD_WORKER_SCRIPT = path.join(__dirname, 'wasm-pthread-worker.js');
/** Emscripten's pre-made worker pool in the package's build; XNNPACK uses at most this many threads. */
export const MAX_WASM_THREADS = 8;

/** Prepares the next `tf.setBackend('wasm')` to start `threads` threads; call the returned function once it settled. */
export function prepareWasmThreads(wasm: { setThreadsCount(n: number): void }, threads: number): () => void {
  const n = Math.min(MAX_WASM_THREADS, Math.max(1, Math.floor(threads)));
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', true);
  wasm.setThreadsCount(n);
  const createObjectURL = URL.createObjectURL.bind(URL);
  const cpus = os.cpus;
  URL.createObjectURL = (obj: Blob) => (obj instanceof Blob && obj.type === 'application/javascript' ? PTHREAD_WORKER_SCRIPT : createObjectURL(obj));
  os.cpus = () => {
    const real = cpus();
    return real.length >= 2 * n ? real : Array.from({ length: 2 * n }, (_, i) => real[i % real.length]);
  };
  return () => {
    URL.createObjectURL = createObjectURL;
    os.cpus = cpus;
  };
}

/** Threads to ask for when the caller says 0 ("all"): the cores this process may use. */
export function allCores(): number {
  return os.availableParallelism();
}

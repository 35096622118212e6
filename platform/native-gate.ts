/**
 * Ending a worker thread safely while native addons work in it.
 *
 * `worker.terminate()` while an addon call is in flight in the thread aborts the whole process: DuckDB's pending
 * query or ONNX Runtime's run completes into an environment being torn down, node-addon-api throws a C++ exception
 * there, and the process dies with "terminate called after throwing an instance of 'Napi::Error'". In a Temporal
 * worker, one cancelled job would take the process down with every activity running in it. Terminating a thread
 * that is only running JavaScript, or that used an addon earlier and is now idle, is safe (checked with 20
 * terminations for ONNX Runtime and 30 for DuckDB).
 *
 * A gate is a pair of shared counters. The thread runs each addon call through `nativeSection`. The parent stops the
 * thread with `terminateOutsideNative`, which closes the gate (a section that has not started yet throws
 * ThreadStopping), waits until no section is open, and then terminates. The thread increments the open count before
 * it reads the closing flag, and the parent sets the flag before it reads the count, so one of them always sees the
 * other (Atomics are sequentially consistent).
 *
 * Used by the AutoML training threads and the synthgen checks thread (DuckDB reads). The neural fit thread
 * (engine/synth/neural/fit-neural.ts) needs none: a cancelled fit stops itself between batches.
 */
import type { Worker } from 'node:worker_threads';

const OPEN = 0;
const CLOSING = 1;

/** Thrown by nativeSection in a thread whose parent is stopping it. */
export class ThreadStopping extends Error {
  readonly name = 'ThreadStopping';
}

/** A new gate, to hand to the thread (workerData or a message) and keep for terminateOutsideNative. */
export function createNativeGate(): SharedArrayBuffer {
  return new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
}

let threadGate: Int32Array | null = null;

/** Called once in the thread with the parent's gate. Without one, nativeSection just runs its function. */
export function useNativeGate(gate: SharedArrayBuffer): void {
  threadGate = new Int32Array(gate);
}

/** Runs `fn` (an addon call: a DuckDB read, an ONNX Runtime session) as a section the parent waits for. */
export async function nativeSection<T>(fn: () => Promise<T>): Promise<T> {
  const gate = threadGate;
  if (!gate) return fn();
  Atomics.add(gate, OPEN, 1);
  try {
    if (Atomics.load(gate, CLOSING) !== 0) throw new ThreadStopping('the thread is being stopped');
    return await fn();
  } finally {
    Atomics.sub(gate, OPEN, 1);
  }
}

/** Terminates `worker` once no native section is open in it; no new one starts meanwhile. */
export async function terminateOutsideNative(worker: Worker, gate: SharedArrayBuffer, pollMs = 10): Promise<void> {
  const g = new Int32Array(gate);
  Atomics.store(g, CLOSING, 1);
  while (Atomics.load(g, OPEN) > 0) await new Promise((resolve) => setTimeout(resolve, pollMs));
  await worker.terminate();
}

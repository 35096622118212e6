/**
 * A thread's control block: two shared counters that both sides of a ThreadHost see.
 *
 * `worker.terminate()` while an addon call is in flight in the thread aborts the whole process: DuckDB's pending
 * query or ONNX Runtime's run completes into an environment being torn down, node-addon-api throws a C++ exception
 * there, and the process dies with "terminate called after throwing an instance of 'Napi::Error'". In a Temporal
 * worker, one cancelled job would take the process down with every activity running in it. Terminating a thread
 * that is only running JavaScript, or that used an addon earlier and is now idle, is safe (checked with 20
 * terminations for ONNX Runtime and 30 for DuckDB).
 *
 * So the thread runs each addon call through `nativeSection`, which counts it as open. The host stops a thread by
 * raising STOPPING (a section that has not started yet throws ThreadStopping, and a batch loop that asks
 * `stopRequested()` ends at its next batch), waits until no section is open, and only then terminates. The thread
 * increments the open count before it reads the flag, and the host sets the flag before it reads the count, so one
 * of them always sees the other (Atomics are sequentially consistent).
 */

const OPEN = 0;
const STOPPING = 1;

/** Thrown in a thread whose host is stopping it: by nativeSection, or by a batch loop that checks between batches. */
export class ThreadStopping extends Error {
  readonly name = 'ThreadStopping';
}

/** A new control block, to hand to the thread. */
export function createControl(): SharedArrayBuffer {
  return new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
}

/** Host side: asks the thread to stop (no new native section starts; its batch loop ends at the next batch). */
export function requestStop(control: SharedArrayBuffer): void {
  Atomics.store(new Int32Array(control), STOPPING, 1);
}

/** Host side: how many native sections are open in the thread now. */
export function openSections(control: SharedArrayBuffer): number {
  return Atomics.load(new Int32Array(control), OPEN);
}

let threadControl: Int32Array | null = null;

/** Thread side: called once, by threadContext, with the host's control block. */
export function useControl(control: SharedArrayBuffer): void {
  threadControl = new Int32Array(control);
}

/** Thread side: true once the host asked this thread to stop. A batch loop checks it between batches. */
export function stopRequested(): boolean {
  return threadControl !== null && Atomics.load(threadControl, STOPPING) !== 0;
}

/**
 * Runs `fn` (an addon call: a DuckDB read, an ONNX Runtime session) as a section the host waits for before it
 * terminates the thread. Outside a host thread it just runs `fn`.
 */
export async function nativeSection<T>(fn: () => Promise<T>): Promise<T> {
  const c = threadControl;
  if (!c) return fn();
  Atomics.add(c, OPEN, 1);
  try {
    if (Atomics.load(c, STOPPING) !== 0) throw new ThreadStopping('the thread is being stopped');
    return await fn();
  } finally {
    Atomics.sub(c, OPEN, 1);
  }
}

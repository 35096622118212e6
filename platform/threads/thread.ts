/**
 * The thread side of a ThreadHost: what a thread script uses instead of `worker_threads` itself. The context gives
 * the script its data and typed messages both ways, and connects `nativeSection` and `stopRequested` (gate.ts) to
 * the host's control block.
 */
import { isMainThread, parentPort, workerData, type TransferListItem } from 'node:worker_threads';
import { useControl } from './gate';
import type { ThreadEnvelope, ThreadMessage, ThreadScript } from './host';

type AnyScript = ThreadScript<unknown, ThreadMessage, ThreadMessage>;
type DataOf<S> = S extends ThreadScript<infer D, ThreadMessage, ThreadMessage> ? D : never;
type ToThreadOf<S> = S extends ThreadScript<unknown, infer T, ThreadMessage> ? T : never;
type FromThreadOf<S> = S extends ThreadScript<unknown, ThreadMessage, infer F> ? F : never;

export interface ThreadContext<Data, ToThread extends ThreadMessage, FromThread extends ThreadMessage> {
  /** The data the host started the thread with. */
  readonly data: Data;
  /** Sends a message to the host (transferred buffers are no longer usable here). */
  post(message: FromThread, transfer?: readonly TransferListItem[]): void;
  /** Receives the host's messages. */
  onMessage(handler: (message: ToThread) => void): void;
}

/** True in a thread a ThreadHost started. */
export function inHostThread(): boolean {
  return !isMainThread && parentPort !== null && typeof (workerData as ThreadEnvelope<unknown> | null)?.control === 'object';
}

/**
 * The context of the thread script `S` (pass `typeof SCRIPT`, the script's ThreadScript); call once, at the script's
 * start, in a thread a ThreadHost started.
 */
export function threadContext<S extends AnyScript>(): ThreadContext<DataOf<S>, ToThreadOf<S>, FromThreadOf<S>> {
  if (!inHostThread()) throw new Error('threadContext() runs only in a thread started by a ThreadHost');
  const envelope = workerData as ThreadEnvelope<DataOf<S>>;
  const port = parentPort!;
  useControl(envelope.control);
  return {
    data: envelope.data,
    post: (message, transfer) => port.postMessage(message, transfer),
    onMessage: (handler) => void port.on('message', handler),
  };
}

/** An error's name and message, as a thread reports a failure to its host. */
export function describeError(err: unknown): { name: string; message: string } {
  return err instanceof Error ? { name: err.name, message: err.message } : { name: 'Error', message: String(err) };
}

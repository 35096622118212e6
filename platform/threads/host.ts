/**
 * ThreadHost: the one place a worker thread is started, with the rules this project learned the hard way.
 *
 * - Terminated only outside native sections: stop() raises the thread's stop flag, waits until no `nativeSection`
 *   (a DuckDB read, an ONNX Runtime run) is open in it, and only then terminates (gate.ts says why: terminating inside
 *   an addon call aborts the whole process).
 * - Cooperative cancel at the next batch: the same flag is what a batch loop reads (`stopRequested()`); with a grace
 *   period, stop() lets the thread end itself and terminates it only if it has not ended by then (a thread past its
 *   grace is outside its batch loop, so outside the addon).
 * - Awaited at process exit: every thread that is not a daemon is registered until it ends, and `threadsEnded()`
 *   resolves when all of them have ended (a process exiting stops its threads as terminate() does, maybe inside a
 *   cancelled thread's last batch).
 * - A stopped thread's events are ignored: from stop() on, its messages, errors and exit reach nobody, so a replaced
 *   thread ending late never fails its successor's work.
 * - Messages are discriminated unions on `type`, typed on both sides by the script's ThreadScript, with one handler
 *   per message type; a handler that throws is reported as the thread's error, never as an uncaught exception.
 */
import { Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads';
import { createControl, openSections, requestStop } from './gate';

/** A message between a host and its thread: a discriminated union on `type`. */
export type ThreadMessage = { readonly type: string };

/** A thread script and what crosses to it: its data at start and the messages each way (types only at run time). */
export interface ThreadScript<Data, ToThread extends ThreadMessage, FromThread extends ThreadMessage> {
  /** The compiled script's path. */
  readonly path: string;
  /** Never set: carries the types. */
  readonly types?: { data: Data; toThread: ToThread; fromThread: FromThread };
}

/** Declares a thread script (the compiled .js file) with its data and message types. */
export function threadScript<Data, ToThread extends ThreadMessage = never, FromThread extends ThreadMessage = never>(path: string): ThreadScript<Data, ToThread, FromThread> {
  return { path };
}

/** What a host hands its thread as workerData: the control block (gate.ts) and the script's own data. */
export interface ThreadEnvelope<Data> {
  control: SharedArrayBuffer;
  data: Data;
}

/** One handler per message type; the compiler asks for every member of the union. */
export type MessageHandlers<M extends ThreadMessage> = { [K in M['type']]: (m: Extract<M, { type: K }>) => void };

export interface ThreadEvents<FromThread extends ThreadMessage> {
  messages: MessageHandlers<FromThread>;
  /** An error thrown in the thread and not caught there, or thrown by one of `messages`. */
  error: (err: Error) => void;
  /** The thread ended by itself, with its exit code (an uncaught error: 1, after `error`). */
  exit?: (code: number) => void;
}

export interface ThreadOptions {
  transferList?: readonly TransferListItem[];
  resourceLimits?: ResourceLimits;
  /**
   * A helper that never holds a native addon (JavaScript or WebAssembly only), which the process may stop at any
   * moment: it does not keep the process alive and threadsEnded() does not wait for it.
   */
  daemon?: boolean;
}

export interface StopOptions {
  /** How long the thread has to end itself (its batch loop reads the stop flag) before it is terminated; 0 = now. */
  graceMs?: number;
}

/** How often stop() looks whether the thread's native sections are closed. */
const SECTION_POLL_MS = 10;

/** Threads that are not daemons, from their start until they end. */
const live = new Set<ThreadHost<never>>();

/**
 * Resolves once every thread that is not a daemon has ended, stopping ones finishing their last batch included. A
 * process awaits it before it exits.
 */
export async function threadsEnded(): Promise<void> {
  await Promise.all([...live].map((t) => t.ended));
}

/** Starts `script` in a worker thread with `data`; its messages, errors and exit go to `events` until stop(). */
export function startThread<Data, ToThread extends ThreadMessage, FromThread extends ThreadMessage>(
  script: ThreadScript<Data, ToThread, FromThread>,
  data: Data,
  events: ThreadEvents<FromThread>,
  options: ThreadOptions = {},
): ThreadHost<ToThread> {
  return new ThreadHost<ToThread>(script.path, data, events as unknown as ThreadEvents<ThreadMessage>, options);
}

export class ThreadHost<ToThread extends ThreadMessage> {
  /** Resolves with the exit code once the thread has ended (however it ended). */
  readonly ended: Promise<number>;
  private readonly worker: Worker;
  private readonly control = createControl();
  private exited = false;
  private stopping: Promise<void> | null = null;

  constructor(path: string, data: unknown, events: ThreadEvents<ThreadMessage>, options: ThreadOptions) {
    const workerData: ThreadEnvelope<unknown> = { control: this.control, data };
    this.worker = new Worker(path, { workerData, transferList: options.transferList as TransferListItem[] | undefined, resourceLimits: options.resourceLimits });
    if (options.daemon) this.worker.unref();
    else live.add(this as unknown as ThreadHost<never>);
    this.ended = new Promise((resolve) => this.worker.once('exit', resolve));
    const fail = (err: Error) => {
      if (!this.stopping) events.error(err);
    };
    this.worker.on('message', (m: ThreadMessage) => {
      if (this.stopping) return;
      const handler = (events.messages as Record<string, ((m: ThreadMessage) => void) | undefined>)[m?.type];
      if (!handler) return fail(new Error(`the thread sent a message of unknown type ${JSON.stringify(m?.type)}`));
      try {
        handler(m);
      } catch (err) {
        fail(err instanceof Error ? err : new Error(String(err)));
      }
    });
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => {
      this.exited = true;
      live.delete(this as unknown as ThreadHost<never>);
      if (!this.stopping) events.exit?.(code);
    });
  }

  /** True once stop() was called: the thread's events are ignored from then on. */
  get stopped(): boolean {
    return this.stopping !== null;
  }

  /** Sends a message to the thread (dropped once stopped). */
  post(message: ToThread, transfer?: readonly TransferListItem[]): void {
    if (!this.stopping) this.worker.postMessage(message, transfer);
  }

  /**
   * Stops the thread; resolves once it has ended. Its events are ignored from this call on. It may end itself within
   * `graceMs` (its batch loop reads the stop flag); otherwise it is terminated, once no native section is open in it.
   * Calling it again returns the first call's promise.
   */
  stop(options: StopOptions = {}): Promise<void> {
    this.stopping ??= this.end(options.graceMs ?? 0);
    return this.stopping;
  }

  private async end(graceMs: number): Promise<void> {
    requestStop(this.control);
    if (graceMs > 0 && !this.exited) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.ended, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)).unref())]);
      clearTimeout(timer);
    }
    while (!this.exited && openSections(this.control) > 0) await new Promise((resolve) => setTimeout(resolve, SECTION_POLL_MS));
    if (!this.exited) await this.worker.terminate();
    await this.ended;
  }
}

import path from 'node:path';
import { startThread, threadScript, type ThreadHost } from '../../platform/threads';
import type { ThreadReply, ThreadRequest, ThreadResults } from './training-thread';

/** training-thread.ts: requests in, progress and one answer per request out. */
export const TRAINING_THREAD = threadScript<null, ThreadRequest, ThreadReply>(path.join(__dirname, 'training-thread.js'));

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; onProgress?: (f: number, m: string) => void };

/** An error raised inside the training thread (only its name and message cross the thread boundary). */
export class ThreadError extends Error {
  readonly name: string = 'ThreadError';
}

/** The engine's DataError in the thread: the user's data cannot train (retrying will not help). */
export class TrainingDataError extends ThreadError {
  readonly name = 'TrainingDataError';
}

/** The engine's ModelBudgetExceeded in the thread: the model's time budget ran out before it finished. */
export class ModelBudgetError extends ThreadError {
  readonly name = 'ModelBudgetError';
}

/** The engine's errors that callers tell apart, by the name the thread reports: classes again on this side, once. */
const THREAD_ERRORS: Record<string, new (message: string) => ThreadError> = { DataError: TrainingDataError, ModelBudgetExceeded: ModelBudgetError };

function threadError(name: string, message: string): ThreadError {
  return new (THREAD_ERRORS[name] ?? ThreadError)(message);
}

class TrainingThread {
  private thread: ThreadHost<ThreadRequest>;
  private pending = new Map<number, Pending>();
  busy = false;
  readonly experiments = new Set<string>();

  constructor() {
    this.thread = this.spawn();
  }

  private spawn(): ThreadHost<ThreadRequest> {
    // A replaced thread (reset) is stopped, so its late messages, error and exit reach nothing (platform/threads).
    return startThread(TRAINING_THREAD, null, {
      messages: {
        progress: (m) => this.pending.get(m.id)?.onProgress?.(m.fraction, m.message),
        result: (m) => this.settle(m.id)?.resolve(m.result),
        error: (m) => this.settle(m.id)?.reject(threadError(m.name, m.message)),
      },
      error: (err) => this.failAll(err),
      exit: (code) => code !== 0 && this.failAll(new Error(`training thread exited with code ${code}`)),
    });
  }

  /** The request's pending entry, removed (it is answered). */
  private settle(id: number): Pending | undefined {
    const p = this.pending.get(id);
    this.pending.delete(id);
    return p;
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  run(req: ThreadRequest, onProgress?: Pending['onProgress']): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.pending.set(req.id, { resolve, reject, onProgress });
      this.thread.post(req);
    });
  }

  /** Stops whatever runs now (cancellation); the thread is replaced and its cache lost. */
  async reset(): Promise<void> {
    const old = this.thread;
    this.failAll(new Error('training canceled'));
    this.experiments.clear();
    this.thread = this.spawn();
    // Terminated outside its DuckDB read (platform/threads).
    await old.stop();
  }

  async close(): Promise<void> {
    // A stopped thread's exit reaches nobody: what it still owed fails here.
    this.failAll(new Error('training thread closed'));
    await this.thread.stop();
  }
}

let nextId = 1;

/** A request without its id (distributes over the union of request kinds). */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

/**
 * A small pool of training threads (one per concurrent training activity). A request goes to
 * an idle thread that already holds its experiment's data when there is one.
 */
export class TrainingPool {
  private threads: TrainingThread[] = [];

  /**
   * Runs a request on a thread: progress (from inside the training loops, at least every couple of seconds while a
   * model trains) goes to `onProgress`, a cancel (`signal`) stops the thread. Rejects with a {@link ThreadError} (or
   * one of its classes) for an error raised in the thread.
   */
  async run<R extends Unnumbered<ThreadRequest>>(req: R, opts: { onProgress?: (f: number, m: string) => void; signal?: AbortSignal } = {}): Promise<ThreadResults[R['type']]> {
    const thread = this.acquire(req.experimentId);
    thread.busy = true;
    const onAbort = () => void thread.reset();
    opts.signal?.addEventListener('abort', onAbort);
    try {
      const out = await thread.run({ ...req, id: nextId++ } as ThreadRequest, opts.onProgress);
      thread.experiments.add(req.experimentId);
      // The thread answers a request of each type with its ThreadResults entry (training-thread.ts, `handle`).
      return out as ThreadResults[R['type']];
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      thread.busy = false;
    }
  }

  private acquire(experimentId: string): TrainingThread {
    const idle = this.threads.filter((t) => !t.busy);
    const warm = idle.find((t) => t.experiments.has(experimentId));
    if (warm) return warm;
    if (idle.length) return idle[0];
    // Threads grow with concurrent training activities, which the worker's concurrency bounds.
    const t = new TrainingThread();
    this.threads.push(t);
    return t;
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.close()));
    this.threads = [];
  }
}

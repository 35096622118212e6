import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createNativeGate, terminateOutsideNative } from '../../platform/native-gate';
import type { ThreadRequest } from './training-thread';

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; onProgress?: (f: number, m: string) => void };

/** An error raised inside the training thread, with the engine's error name kept. */
export class ThreadError extends Error {
  constructor(
    readonly errorName: string,
    message: string,
  ) {
    super(message);
  }
}

class TrainingThread {
  private worker: Worker;
  /** The current thread's gate: it is terminated outside its DuckDB read (platform/native-gate.ts). */
  private gate = createNativeGate();
  private pending = new Map<number, Pending>();
  busy = false;
  readonly experiments = new Set<string>();

  constructor() {
    this.worker = this.spawn();
  }

  private spawn(): Worker {
    this.gate = createNativeGate();
    const w = new Worker(path.join(__dirname, 'training-thread.js'), { workerData: { gate: this.gate } });
    w.on('message', (m: { id: number; type: string; result?: unknown; fraction?: number; message?: string; name?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      if (m.type === 'progress') return p.onProgress?.(m.fraction ?? 0, m.message ?? '');
      this.pending.delete(m.id);
      if (m.type === 'result') p.resolve(m.result);
      else p.reject(new ThreadError(m.name ?? 'Error', m.message ?? 'training failed'));
    });
    // A replaced thread (reset) ends after its successor started: its end must not fail the successor's requests.
    w.on('error', (err) => w === this.worker && this.failAll(err));
    w.on('exit', (code) => w === this.worker && code !== 0 && this.failAll(new Error(`training thread exited with code ${code}`)));
    return w;
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  run(req: ThreadRequest, onProgress?: Pending['onProgress']): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.pending.set(req.id, { resolve, reject, onProgress });
      this.worker.postMessage(req);
    });
  }

  /** Stops whatever runs now (cancellation); the thread is replaced and its cache lost. */
  async reset(): Promise<void> {
    const old = this.worker;
    const oldGate = this.gate;
    this.failAll(new Error('training canceled'));
    this.experiments.clear();
    this.worker = this.spawn();
    await terminateOutsideNative(old, oldGate);
  }

  async close(): Promise<void> {
    await terminateOutsideNative(this.worker, this.gate);
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

  async run(req: Unnumbered<ThreadRequest>, opts: { onProgress?: (f: number, m: string) => void; signal?: AbortSignal } = {}): Promise<unknown> {
    const thread = this.acquire(req.experimentId);
    thread.busy = true;
    const onAbort = () => void thread.reset();
    opts.signal?.addEventListener('abort', onAbort);
    try {
      const out = await thread.run({ ...req, id: nextId++ } as ThreadRequest, opts.onProgress);
      thread.experiments.add(req.experimentId);
      return out;
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

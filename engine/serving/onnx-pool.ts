import path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface TensorOut {
  dims: number[];
  data: number[] | string[];
}

/**
 * A bounded cache of ONNX Runtime sessions living in one worker thread. `ensure` reports
 * whether the session was already loaded (the `X-Service-Model-Cache` header); the least
 * recently used session is released when the cache is full.
 */
export class OnnxSessionPool {
  private worker?: Worker;
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  /** Keys in the thread, least recently used first. */
  private loaded = new Map<string, true>();
  private loading = new Map<string, Promise<void>>();

  constructor(private readonly capacity = 32) {}

  private thread(): Worker {
    if (!this.worker) {
      const w = new Worker(path.join(__dirname, 'onnx-thread.js'));
      w.on('message', (m: { id: number; ok: boolean; result?: unknown; error?: string }) => {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.ok) p.resolve(m.result);
        else p.reject(new Error(m.error));
      });
      w.on('error', (err) => this.reset(err));
      w.on('exit', () => this.reset(new Error('onnx thread exited')));
      w.unref();
      this.worker = w;
    }
    return this.worker;
  }

  private reset(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.loaded.clear();
    this.worker = undefined;
  }

  private call<T>(msg: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.thread().postMessage({ ...msg, id });
    });
  }

  /** Loads the session for `key` (bytes fetched only on a miss). Resolves true on a cache hit. */
  async ensure(key: string, bytes: () => Promise<Uint8Array>): Promise<boolean> {
    if (this.loaded.has(key)) {
      this.loaded.delete(key);
      this.loaded.set(key, true);
      return true;
    }
    let p = this.loading.get(key);
    if (!p) {
      p = (async () => {
        await this.call({ type: 'load', key, bytes: await bytes() });
        this.loaded.set(key, true);
        while (this.loaded.size > this.capacity) {
          const oldest = this.loaded.keys().next().value as string;
          this.loaded.delete(oldest);
          await this.call({ type: 'evict', key: oldest });
        }
      })().finally(() => this.loading.delete(key));
      this.loading.set(key, p);
    }
    await p;
    return false;
  }

  run(key: string, feeds: Record<string, Float32Array | string[]>): Promise<Record<string, TensorOut>> {
    return this.call({ type: 'run', key, feeds });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    await w?.terminate();
  }
}

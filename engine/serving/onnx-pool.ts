import * as ort from 'onnxruntime-node';

/** Float inputs as Float32Array, string inputs as string[]; one value per row each. */
export type OnnxFeeds = Record<string, Float32Array | string[]>;

/**
 * Rows per `session.run`. Inference runs on the event loop; a large batch is scored in chunks
 * so that other requests are served between them.
 */
const CHUNK_ROWS = 4096;

/**
 * One intra-op thread: a single-row prediction has nothing to parallelize, and onnxruntime's
 * spinning pool threads would take CPU from the requests around it.
 */
const SESSION_OPTIONS: ort.InferenceSession.SessionOptions = {
  graphOptimizationLevel: 'all',
  executionMode: 'sequential',
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
};

/**
 * Requests of at most this many rows that reach the same session in the same turn of the event
 * loop are scored in one `session.run`: a run's fixed cost (tensors, graph setup) is most of a
 * single row's, so under concurrency each row costs a fraction of it. A request never waits for
 * a batch to fill: the batch closes when the loop turn ends.
 */
const BATCH_MAX_ROWS = 256;

interface Waiting {
  feeds: OnnxFeeds;
  rows: number;
  resolve(outputs: Record<string, Float32Array>): void;
  reject(err: unknown): void;
}

interface Batch {
  session: ort.InferenceSession;
  outputs: string[];
  rows: number;
  waiting: Waiting[];
}

interface Entry {
  session: ort.InferenceSession;
  /** Runs in progress: an evicted session is released when the last one ends. */
  running: number;
  evicted: boolean;
}

/**
 * A bounded cache of ONNX Runtime sessions, run on the calling thread. Measured on 2 cores, a
 * worker-thread hop per prediction cost twice the CPU of the inference itself and added a
 * thread wake-up to every request's latency. `ensure` reports whether the session was already
 * loaded (the `X-Service-Model-Cache` header); the least recently used session is released
 * when the cache is full.
 */
export class OnnxSessionPool {
  /** Least recently used first. */
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<void>>();
  /** Open batches by session key and requested outputs. */
  private readonly batches = new Map<string, Batch>();

  constructor(private readonly capacity = 32) {}

  /**
   * Scores `rows` rows with the session for `key` (its bytes fetched only on a miss) and returns
   * the requested outputs flattened row-major (for example `probabilities`: rows x classes), and
   * whether the session was already loaded (the `X-Service-Model-Cache` header).
   */
  async run(key: string, bytes: () => Promise<Uint8Array>, feeds: OnnxFeeds, rows: number, outputs: string[]): Promise<{ hit: boolean; outputs: Record<string, Float32Array> }> {
    const { entry, hit } = await this.acquire(key, bytes);
    try {
      if (rows <= BATCH_MAX_ROWS) return { hit, outputs: await this.batched(key, entry.session, feeds, rows, outputs) };
      if (rows <= CHUNK_ROWS) return { hit, outputs: await runChunk(entry.session, feeds, 0, rows, outputs) };
      const parts: Record<string, Float32Array>[] = [];
      for (let start = 0; start < rows; start += CHUNK_ROWS) {
        parts.push(await runChunk(entry.session, feeds, start, Math.min(rows, start + CHUNK_ROWS), outputs));
      }
      return { hit, outputs: Object.fromEntries(outputs.map((name) => [name, concat(parts.map((p) => p[name]))])) };
    } finally {
      entry.running--;
      if (entry.evicted && entry.running === 0) void entry.session.release();
    }
  }

  /** Joins (or opens) the batch of this loop turn for the session and outputs; see {@link BATCH_MAX_ROWS}. */
  private batched(key: string, session: ort.InferenceSession, feeds: OnnxFeeds, rows: number, outputs: string[]): Promise<Record<string, Float32Array>> {
    const batchKey = `${key}\0${outputs.join('\0')}`;
    let batch = this.batches.get(batchKey);
    if (batch && batch.rows + rows > BATCH_MAX_ROWS) {
      this.batches.delete(batchKey);
      batch = undefined;
    }
    if (!batch) {
      const opened: Batch = { session, outputs, rows: 0, waiting: [] };
      this.batches.set(batchKey, opened);
      setImmediate(() => {
        if (this.batches.get(batchKey) === opened) this.batches.delete(batchKey);
        void runBatch(opened);
      });
      batch = opened;
    }
    batch.rows += rows;
    return new Promise((resolve, reject) => batch.waiting.push({ feeds, rows, resolve, reject }));
  }

  /** The session for `key`, loaded once however many callers ask at the same time; marked running. */
  private async acquire(key: string, bytes: () => Promise<Uint8Array>): Promise<{ entry: Entry; hit: boolean }> {
    let hit = true;
    let entry = this.entries.get(key);
    while (!entry) {
      hit = false;
      let p = this.loading.get(key);
      if (!p) {
        p = (async () => {
          const session = await ort.InferenceSession.create(await bytes(), SESSION_OPTIONS);
          this.entries.set(key, { session, running: 0, evicted: false });
          while (this.entries.size > this.capacity) this.evict(this.entries.keys().next().value as string);
        })().finally(() => this.loading.delete(key));
        this.loading.set(key, p);
      }
      await p;
      entry = this.entries.get(key); // evicted again already under heavy churn: load again
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    entry.running++;
    return { entry, hit };
  }

  private evict(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    entry.evicted = true;
    if (entry.running === 0) void entry.session.release();
  }

  async close(): Promise<void> {
    for (const key of [...this.entries.keys()]) this.evict(key);
  }
}

async function runChunk(session: ort.InferenceSession, feeds: OnnxFeeds, start: number, end: number, outputs: string[]): Promise<Record<string, Float32Array>> {
  const tensors: Record<string, ort.Tensor> = {};
  for (const [name, v] of Object.entries(feeds)) {
    tensors[name] = Array.isArray(v) ? new ort.Tensor('string', v.slice(start, end), [end - start, 1]) : new ort.Tensor('float32', v.subarray(start, end), [end - start, 1]);
  }
  const out = await session.run(tensors, outputs);
  return Object.fromEntries(outputs.map((name) => [name, out[name].data as Float32Array]));
}

/**
 * Scores a batch in one run and hands each request its rows. Should the joint run fail, each
 * request is scored alone, so one request's fault is never another's error.
 */
async function runBatch(batch: Batch): Promise<void> {
  const { session, outputs, waiting } = batch;
  const alone = async (w: Waiting) => {
    try {
      w.resolve(await runChunk(session, w.feeds, 0, w.rows, outputs));
    } catch (err) {
      w.reject(err);
    }
  };
  const names = Object.keys(waiting[0].feeds);
  const kind = (v: Float32Array | string[] | undefined) => (v === undefined ? 'none' : Array.isArray(v) ? 'string' : 'float');
  const first = waiting[0].feeds;
  const sameFeeds = waiting.every((w) => Object.keys(w.feeds).length === names.length && names.every((n) => kind(w.feeds[n]) === kind(first[n])));
  if (waiting.length === 1 || !sameFeeds) {
    await Promise.all(waiting.map(alone));
    return;
  }
  let scored: Record<string, Float32Array>;
  try {
    const merged: OnnxFeeds = {};
    for (const n of names) {
      const parts = waiting.map((w) => w.feeds[n]);
      merged[n] = Array.isArray(parts[0]) ? (parts as string[][]).flat() : concat(parts as Float32Array[]);
    }
    scored = await runChunk(session, merged, 0, batch.rows, outputs);
  } catch {
    await Promise.all(waiting.map(alone));
    return;
  }
  let at = 0;
  for (const w of waiting) {
    const mine: Record<string, Float32Array> = {};
    for (const name of outputs) {
      const width = scored[name].length / batch.rows;
      mine[name] = scored[name].slice(at * width, (at + w.rows) * width);
    }
    at += w.rows;
    w.resolve(mine);
  }
}

function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

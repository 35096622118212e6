/**
 * The thread script of host.test.ts (and of its DuckDB stress child): one behaviour per mode, observed through the
 * shared `flags` so the tests can see what a stopped thread did after its events stopped reaching anyone.
 */
import { nativeSection, stopRequested, threadContext } from './index';
import { BATCHES, DONE, ENDED_ITSELF, REFUSED, STARTED, type TEST_THREAD } from './test-thread-script';

const t = threadContext<typeof TEST_THREAD>();
const { mode, batchMs } = t.data;
const flags = new Int32Array(t.data.flags);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Holds the thread for `ms` without yielding, as a synchronous batch (a WebAssembly step, a native run) does. */
const busy = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end);
};

async function main(): Promise<void> {
  if (mode === 'echo') {
    t.onMessage((m) => t.post({ type: 'echo', value: m.value * 2 }));
    t.post({ type: 'ready' });
  } else if (mode === 'batches') {
    // A batch loop that reads the stop flag between batches.
    while (!stopRequested()) {
      busy(batchMs);
      Atomics.add(flags, BATCHES, 1);
      t.post({ type: 'batch' });
    }
    Atomics.store(flags, ENDED_ITSELF, 1);
  } else if (mode === 'stubborn') {
    for (;;) busy(batchMs);
  } else if (mode === 'native') {
    // Sections stand for addon calls: the host must never terminate the thread between STARTED and DONE.
    for (;;) {
      try {
        await nativeSection(async () => {
          Atomics.add(flags, STARTED, 1);
          await sleep(batchMs);
          Atomics.add(flags, DONE, 1);
        });
      } catch (err) {
        if ((err as Error).name === 'ThreadStopping') Atomics.store(flags, REFUSED, 1);
        return;
      }
    }
  } else if (mode === 'chatty') {
    // Messages, then an uncaught error and exit code 1: what a replaced thread ending late does.
    for (let i = 0; i < 20; i++) {
      t.post({ type: 'batch' });
      await sleep(batchMs);
    }
    throw new Error('late failure');
  } else if (mode === 'duckdb') {
    // Real addon calls: DuckDB reads of a Parquet file, each inside a native section, until the host stops the thread.
    const conn = await nativeSection(async () => {
      const { DuckDBInstance } = await import('@duckdb/node-api');
      return (await DuckDBInstance.create(':memory:')).connect();
    });
    const sql = `SELECT * FROM read_parquet('${t.data.file}')`;
    for (;;) {
      await nativeSection(() => conn.runAndReadAll(sql));
      Atomics.add(flags, DONE, 1);
    }
  } else if (mode === 'unknown') {
    t.post({ type: 'surprise' } as never);
  }
}

void main().catch((err: unknown) => {
  // An uncaught error reaches the host as its `error` event.
  setImmediate(() => {
    throw err;
  });
});

import path from 'node:path';
import { threadScript } from './host';

/** Slots of the shared `flags`, where the test thread records what it did. */
export const STARTED = 0;
export const DONE = 1;
export const REFUSED = 2;
export const ENDED_ITSELF = 3;
export const BATCHES = 4;
export const FLAG_SLOTS = 8;

export type TestMode = 'echo' | 'batches' | 'stubborn' | 'native' | 'chatty' | 'duckdb' | 'unknown';

/** test-thread.ts, for host.test.ts: one behaviour per mode, observed through the shared flags. */
export const TEST_THREAD = threadScript<
  { mode: TestMode; flags: SharedArrayBuffer; batchMs: number; file?: string },
  { type: 'double'; value: number },
  { type: 'ready' } | { type: 'echo'; value: number } | { type: 'batch' }
>(path.join(__dirname, 'test-thread.js'));

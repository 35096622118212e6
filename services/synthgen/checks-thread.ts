import { parentPort, workerData } from 'node:worker_threads';
import { ChecksInput, computeChecks } from './checks';

/** The worker thread of a generation's quality report and privacy check (see `computeChecksInThread`). */
computeChecks(workerData as ChecksInput).then(
  (result) => parentPort!.postMessage({ ok: true, result }),
  (err: unknown) => parentPort!.postMessage({ ok: false, name: err instanceof Error ? err.name : 'Error', message: err instanceof Error ? err.message : String(err) }),
);

import { parentPort, workerData } from 'node:worker_threads';
import { useNativeGate } from '../../platform/native-gate';
import { ChecksThreadData, computeChecks } from './checks';

/** The worker thread of a generation's quality report and privacy check (see `computeChecksInThread`). */
const { input, gate } = workerData as ChecksThreadData;
useNativeGate(gate);
computeChecks(input).then(
  (result) => parentPort!.postMessage({ ok: true, result }),
  (err: unknown) => parentPort!.postMessage({ ok: false, name: err instanceof Error ? err.name : 'Error', message: err instanceof Error ? err.message : String(err) }),
);

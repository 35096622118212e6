/**
 * Runs an ONNX model with onnxruntime-node in a worker thread. Besides keeping inference off the
 * calling thread, this makes onnxruntime usable under jest: inside jest's sandbox the native
 * binding returns typed arrays from another realm and onnxruntime's instanceof checks fail.
 */
import { Worker } from 'worker_threads';

export interface OrtOutput {
  dims: number[];
  /** Numbers for numeric tensors, strings for string tensors. */
  data: number[] | string[];
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('worker_threads');
const ort = require(workerData.ortPath);
(async () => {
  try {
    const session = await ort.InferenceSession.create(workerData.model);
    const feeds = {};
    for (const [name, v] of Object.entries(workerData.feeds)) {
      feeds[name] = Array.isArray(v) ? new ort.Tensor('string', v, [v.length, 1]) : new ort.Tensor('float32', v, [v.length, 1]);
    }
    const out = await session.run(feeds);
    const result = {};
    for (const [name, t] of Object.entries(out)) result[name] = { dims: Array.from(t.dims), data: Array.from(t.data, (x) => (typeof x === 'bigint' ? Number(x) : x)) };
    parentPort.postMessage({ ok: true, result });
  } catch (e) {
    parentPort.postMessage({ ok: false, error: String(e && e.stack || e) });
  }
})();
`;

/**
 * Scores `feeds` (per input: Float32Array for float inputs, string[] for string inputs, shape
 * [n, 1]) with the model bytes; resolves to every graph output.
 */
export function runOnnx(model: Uint8Array, feeds: Record<string, Float32Array | string[]>): Promise<Record<string, OrtOutput>> {
  const ortPath = require.resolve('onnxruntime-node');
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ortPath, model, feeds } });
    worker.once('message', (m: { ok: boolean; result?: Record<string, OrtOutput>; error?: string }) => {
      void worker.terminate();
      if (m.ok && m.result) resolve(m.result);
      else reject(new Error(m.error ?? 'onnxruntime worker failed'));
    });
    worker.once('error', reject);
  });
}

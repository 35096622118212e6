/**
 * Worker-thread side of the ONNX session pool: holds InferenceSessions by key. Running
 * onnxruntime here keeps inference off the API's event loop (and out of sandboxes whose
 * typed arrays come from another realm, which onnxruntime's instanceof checks reject).
 */
import { parentPort } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';

type Req =
  | { id: number; type: 'load'; key: string; bytes: Uint8Array }
  | { id: number; type: 'run'; key: string; feeds: Record<string, Float32Array | string[]> }
  | { id: number; type: 'evict'; key: string };

const sessions = new Map<string, ort.InferenceSession>();

async function handle(req: Req): Promise<unknown> {
  if (req.type === 'load') {
    if (!sessions.has(req.key)) sessions.set(req.key, await ort.InferenceSession.create(req.bytes, { graphOptimizationLevel: 'all' }));
    return true;
  }
  if (req.type === 'evict') {
    await sessions.get(req.key)?.release();
    sessions.delete(req.key);
    return true;
  }
  const session = sessions.get(req.key);
  if (!session) throw new Error(`no session ${req.key}`);
  const feeds: Record<string, ort.Tensor> = {};
  for (const [name, v] of Object.entries(req.feeds)) {
    feeds[name] = Array.isArray(v) ? new ort.Tensor('string', v, [v.length, 1]) : new ort.Tensor('float32', v, [v.length, 1]);
  }
  const out = await session.run(feeds);
  const result: Record<string, { dims: number[]; data: number[] | string[] }> = {};
  for (const [name, t] of Object.entries(out)) {
    result[name] = { dims: Array.from(t.dims), data: Array.from(t.data as ArrayLike<number | bigint | string>, (x) => (typeof x === 'bigint' ? Number(x) : x)) as number[] | string[] };
  }
  return result;
}

parentPort!.on('message', (req: Req) => {
  handle(req).then(
    (result) => parentPort!.postMessage({ id: req.id, ok: true, result }),
    (err: Error) => parentPort!.postMessage({ id: req.id, ok: false, error: err.message }),
  );
});

import type { Tensor } from 'onnxruntime-node';

export interface OrtOutput {
  dims: number[];
  /** Numbers for numeric tensors, strings for string tensors. */
  data: number[] | string[];
}

/**
 * Scores `feeds` (per input: Float32Array for float inputs, string[] for string inputs, shape
 * [n, 1]) with the model bytes in a fresh session; resolves to every graph output. For parity
 * checks and one-off scoring; serving keeps its sessions in engine/serving/onnx-pool.
 */
export async function runOnnx(model: Uint8Array, feeds: Record<string, Float32Array | string[]>): Promise<Record<string, OrtOutput>> {
  // Loaded here, not at the top: engine/automl's index exports runOnnx, and importing the index
  // (training threads do) must not load the native addon into threads that never score with it.
  const ort = await import('onnxruntime-node');
  const session = await ort.InferenceSession.create(model);
  try {
    const tensors: Record<string, Tensor> = {};
    for (const [name, v] of Object.entries(feeds)) {
      tensors[name] = Array.isArray(v) ? new ort.Tensor('string', v, [v.length, 1]) : new ort.Tensor('float32', v, [v.length, 1]);
    }
    const out = await session.run(tensors);
    const result: Record<string, OrtOutput> = {};
    for (const [name, t] of Object.entries(out)) {
      result[name] = { dims: Array.from(t.dims), data: Array.from(t.data as ArrayLike<number | bigint | string>, (x) => (typeof x === 'bigint' ? Number(x) : x)) as number[] | string[] };
    }
    return result;
  } finally {
    await session.release();
  }
}

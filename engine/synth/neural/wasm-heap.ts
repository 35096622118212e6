import type * as tf from '@tensorflow/tfjs';

/**
 * What the neural kernels use of tfjs-backend-wasm beyond the kernel API: fresh outputs and float32 views of tensor
 * data in the wasm heap (a view is detached when the heap grows, so take views after allocating), and the data's
 * reference count.
 */
export interface WasmHeap {
  incRef: (dataId: object) => void;
  makeOutput: (shape: number[], dtype: string) => tf.TensorInfo;
  typedArrayFromHeap: (t: tf.TensorInfo) => Float32Array;
}

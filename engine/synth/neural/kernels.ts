/**
 * Kernels the neural models register on the active TensorFlow.js backend, for tfjs-backend-wasm's sake.
 *
 * Matrix products: kernels of their own (they run the backend's BatchMatMul) with gradients written for this
 * backend's strengths:
 *
 * - tfjs-backend-wasm multiplies with a transposed operand (what tf.matMul's own gradient asks for) about ten times
 *   slower than transposing first, so the gradients transpose explicitly and multiply plainly.
 * - Each input's gradient is computed only when the backward pass needs it (a registered kernel's gradient is one
 *   function per input, and the tape prunes inputs that do not depend on what is differentiated): no product for the
 *   gradient of a constant input (the critic's real and fake rows, the generator's noise), nor for a weight's
 *   gradient inside the gradient penalty's inner pass, which differentiates with respect to the interpolates only.
 *   A tf.customGrad computes every input's gradient, needed or not.
 * - `matMulW`, the product with a weight variable, transposes each weight once per value of the weight (the
 *   transpose is cached until the optimizer assigns a new value), instead of once per backward product; the
 *   backend's weight packing (XNNPACK keys it on the operand) is then reused too. The variable travels to the
 *   gradient in the kernel's attributes rather than as a saved tensor, because saved tensors are copies.
 *
 * On the wasm backend a fit's thread may hand the products to ONNX Runtime (`useOrtProducts`, see ort-products.ts).
 *
 * Both are differentiable any number of times (their gradients are made of these kernels and transposes), which the
 * gradient penalty needs.
 *
 * Identity on wasm: the engine clones every tensor a gradient saves (tfjs' saveTensorsForBackwardMode), and the wasm
 * backend's Identity copies the data, a few hundred copies per CTGAN step. Tensor data is immutable on this backend
 * (kernels write only their outputs; a variable's assign replaces its data), so the replacement shares the data by
 * reference count, as the backend's own Reshape does.
 *
 * Slice and SplitV on wasm: the backend's slice reads its whole input out of the wasm heap into a fresh JavaScript
 * copy before taking the part it returns (and SplitV does so once per output), which for the concatenations'
 * gradients and the activation's slices of a batch costs more than the products. The replacements copy only the
 * part, from a view of the heap. Other dtypes and ranks above 3 keep the backend's kernels.
 */
import * as tf from '@tensorflow/tfjs';
import type { OrtProducts } from './ort-products';
import type { WasmHeap } from './wasm-heap';

const MATMUL = 'SynthMatMul';
/** a W with W a variable (attrs.w). */
const MATMUL_W = 'SynthMatMulW';
/** dy W^T with W a variable (attrs.w), from W's cached transpose. */
const MATMUL_WT = 'SynthMatMulWT';

type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: Record<string, unknown> };
type KernelFn = (args: KernelArgs) => tf.TensorInfo | tf.TensorInfo[];

interface CachedTranspose {
  source: object;
  info: tf.TensorInfo;
  backend: { disposeData: (dataId: object) => unknown };
}

/** Per weight variable: the transpose of its current value (backend data the engine does not track). */
const transposes = new Map<tf.Variable, CachedTranspose>();

function kernelOf(name: string, backendName: string): KernelFn {
  const k = tf.getKernel(name, backendName);
  if (!k) throw new Error(`the ${backendName} backend has no ${name} kernel`);
  return k.kernelFunc as unknown as KernelFn;
}

/** Set by the fit's thread when ONNX Runtime multiplies for the wasm backend (`useOrtProducts`). */
let ortProducts: OrtProducts | null = null;

/** Routes this thread's products on the wasm backend through ONNX Runtime (null: the backend's own kernel). */
export function useOrtProducts(products: OrtProducts | null): void {
  ortProducts = products;
}

function plainProduct(backendName: string, a: tf.TensorInfo, b: tf.TensorInfo, backend: unknown): tf.TensorInfo {
  if (ortProducts && backendName === 'wasm') return ortProducts.product(backend as WasmHeap, a, b);
  return kernelOf('BatchMatMul', backendName)({ inputs: { a, b }, backend, attrs: { transposeA: false, transposeB: false } }) as tf.TensorInfo;
}

function cachedTranspose(w: tf.Variable, backendName: string, backend: unknown): tf.TensorInfo {
  const hit = transposes.get(w);
  if (hit && hit.source === w.dataId) return hit.info;
  if (hit) hit.backend.disposeData(hit.info.dataId);
  const info = kernelOf('Transpose', backendName)({ inputs: { x: w }, backend, attrs: { perm: [1, 0] } }) as tf.TensorInfo;
  transposes.set(w, { source: w.dataId, info, backend: backend as CachedTranspose['backend'] });
  return info;
}

const registeredOn = new Set<string>();

/** The part [begin, begin + size) of a float32 tensor of rank 1 to 3, copied row by row from heap views. */
function sliceFloat(backend: WasmHeap, x: tf.TensorInfo, begin: number[], size: number[]): tf.TensorInfo {
  const out = backend.makeOutput(size, 'float32');
  // Views after the output exists: allocating can grow the heap, which detaches earlier views.
  const src = backend.typedArrayFromHeap(x);
  const dst = backend.typedArrayFromHeap(out);
  const shape = x.shape.length === 1 ? [1, 1, x.shape[0]] : x.shape.length === 2 ? [1, x.shape[0], x.shape[1]] : x.shape;
  const b = begin.length === 1 ? [0, 0, begin[0]] : begin.length === 2 ? [0, begin[0], begin[1]] : begin;
  const n = size.length === 1 ? [1, 1, size[0]] : size.length === 2 ? [1, size[0], size[1]] : size;
  let o = 0;
  for (let i = 0; i < n[0]; i++) {
    for (let j = 0; j < n[1]; j++) {
      const start = ((b[0] + i) * shape[1] + b[1] + j) * shape[2] + b[2];
      dst.set(src.subarray(start, start + n[2]), o);
      o += n[2];
    }
  }
  return out;
}

function overrideSliceKernels(backendName: string): void {
  const slice = kernelOf('Slice', backendName);
  const splitV = kernelOf('SplitV', backendName);
  const fits = (x: tf.TensorInfo) => x.dtype === 'float32' && x.shape.length >= 1 && x.shape.length <= 3;
  tf.unregisterKernel('Slice', backendName);
  tf.registerKernel({
    kernelName: 'Slice',
    backendName,
    kernelFunc: ((args: KernelArgs) => {
      const x = args.inputs.x as tf.TensorInfo;
      if (!fits(x)) return slice(args);
      const [begin, size] = tf.slice_util.parseSliceParams(x as tf.TensorInfo as tf.Tensor, args.attrs?.begin as number[], args.attrs?.size as number[]);
      return sliceFloat(args.backend as WasmHeap, x, begin, size);
    }) as unknown as tf.KernelFunc,
  });
  tf.unregisterKernel('SplitV', backendName);
  tf.registerKernel({
    kernelName: 'SplitV',
    backendName,
    kernelFunc: ((args: KernelArgs) => {
      const x = args.inputs.x as tf.TensorInfo;
      if (!fits(x)) return splitV(args);
      const axis = tf.util.parseAxisParam(args.attrs?.axis as number, x.shape)[0];
      const sizes = tf.backend_util.prepareSplitSize(x as tf.Tensor, args.attrs?.numOrSizeSplits as number[], axis);
      const begin = new Array<number>(x.shape.length).fill(0);
      return sizes.map((s) => {
        const size = x.shape.slice();
        size[axis] = s;
        const part = sliceFloat(args.backend as WasmHeap, x, begin, size);
        begin[axis] += s;
        return part;
      });
    }) as unknown as tf.KernelFunc,
  });
}

function shareIdentity({ inputs, backend }: KernelArgs): tf.TensorInfo {
  const x = inputs.x as tf.TensorInfo;
  (backend as { incRef: (dataId: object) => void }).incRef(x.dataId);
  return { dataId: x.dataId, shape: x.shape, dtype: x.dtype };
}

/** Registers the kernels on the active backend (once per backend) and their gradients (once). */
export function ensureKernels(): string {
  const backendName = tf.getBackend();
  if (registeredOn.has(backendName)) return backendName;
  if (backendName === 'wasm' && tf.getKernel('Identity', backendName)?.kernelFunc !== (shareIdentity as unknown as tf.KernelFunc)) {
    tf.unregisterKernel('Identity', backendName);
    tf.registerKernel({ kernelName: 'Identity', backendName, kernelFunc: shareIdentity as unknown as tf.KernelFunc });
    overrideSliceKernels(backendName);
  }
  if (!tf.getKernel(MATMUL, backendName)) {
    tf.registerKernel({
      kernelName: MATMUL,
      backendName,
      kernelFunc: (({ inputs, backend }: KernelArgs) => plainProduct(backendName, inputs.a as tf.TensorInfo, inputs.b as tf.TensorInfo, backend)) as unknown as tf.KernelFunc,
    });
    tf.registerKernel({
      kernelName: MATMUL_W,
      backendName,
      kernelFunc: (({ inputs, backend }: KernelArgs) => plainProduct(backendName, inputs.a as tf.TensorInfo, inputs.w as tf.TensorInfo, backend)) as unknown as tf.KernelFunc,
    });
    tf.registerKernel({
      kernelName: MATMUL_WT,
      backendName,
      kernelFunc: (({ inputs, backend, attrs }: KernelArgs) =>
        plainProduct(backendName, inputs.dy as tf.TensorInfo, cachedTranspose(attrs?.w as tf.Variable, backendName, backend), backend)) as unknown as tf.KernelFunc,
    });
  }
  if (!tf.getGradient(MATMUL)) {
    tf.registerGradient({
      kernelName: MATMUL,
      inputsToSave: ['a', 'b'],
      gradFunc: (dy, saved) => {
        const [a, b] = saved as tf.Tensor2D[];
        return { a: () => matMul(dy as tf.Tensor2D, tf.transpose(b)), b: () => matMul(tf.transpose(a), dy as tf.Tensor2D) };
      },
    });
    tf.registerGradient({
      kernelName: MATMUL_W,
      inputsToSave: ['a'],
      gradFunc: (dy, saved, attrs) => {
        const [a] = saved as tf.Tensor2D[];
        const w = (attrs as unknown as { w: tf.Variable }).w;
        return { a: () => matMulWT(dy as tf.Tensor2D, w), w: () => matMul(tf.transpose(a), dy as tf.Tensor2D) };
      },
    });
    tf.registerGradient({
      kernelName: MATMUL_WT,
      inputsToSave: ['dy'],
      gradFunc: (g, saved, attrs) => {
        const [dy] = saved as tf.Tensor2D[];
        const w = (attrs as unknown as { w: tf.Variable }).w;
        // y = dy W^T: d/d(dy) = g W, d/dW = g^T dy.
        return { dy: () => matMulW(g as tf.Tensor2D, w), w: () => matMul(tf.transpose(g as tf.Tensor2D), dy) };
      },
    });
  }
  registeredOn.add(backendName);
  return backendName;
}

/** a b for any two matrices. */
export function matMul(a: tf.Tensor2D, b: tf.Tensor2D): tf.Tensor2D {
  ensureKernels();
  return tf.engine().runKernel(MATMUL, { a, b }) as tf.Tensor2D;
}

/** a W for a weight variable W (its transpose cached for the backward products). A plain tensor takes `matMul`. */
export function matMulW(a: tf.Tensor2D, w: tf.Tensor): tf.Tensor2D {
  if (!(w instanceof tf.Variable)) return matMul(a, w as tf.Tensor2D);
  ensureKernels();
  return tf.engine().runKernel(MATMUL_W, { a, w }, { w } as unknown as tf.NamedAttrMap) as tf.Tensor2D;
}

function matMulWT(dy: tf.Tensor2D, w: tf.Variable): tf.Tensor2D {
  ensureKernels();
  return tf.engine().runKernel(MATMUL_WT, { dy, w }, { w } as unknown as tf.NamedAttrMap) as tf.Tensor2D;
}

/** Frees the cached transposes of these variables (call before disposing them). */
export function releaseTransposes(vars: tf.Variable[]): void {
  for (const v of vars) {
    const hit = transposes.get(v);
    if (hit) hit.backend.disposeData(hit.info.dataId);
    transposes.delete(v);
  }
}

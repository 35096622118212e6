/**
 * Fused kernels of CTGAN's generator on tfjs-backend-wasm, each a loop over views of the wasm heap with a
 * closed-form gradient kernel: on this backend a kernel's dispatch costs more than its arithmetic at these sizes, and
 * the composite forms take 9 (batch normalisation + ReLU) and about 15 (activation) kernels forward, more backward.
 *
 * - `bnRelu(z, gamma, beta)`: relu(gamma (z - mean) / sqrt(var + 1e-5) + beta) with the batch's statistics (biased
 *   variance, as PyTorch's training mode). Gradient: with g = dy [y > 0] and xhat the normalised z,
 *   dbeta = sum g, dgamma = sum g xhat (both summed over rows), dz = gamma rstd / B (B g - dbeta - xhat dgamma).
 * - `activate(logits, gumbel, layout, tau)`: tanh on the scalars and softmax((logits + gumbel) / tau) on every span
 *   (CTGAN's Gumbel-softmax; without noise a plain softmax). Gradient: dy (1 - y^2) on the scalars, and
 *   y (dy - sum_span dy y) / tau on a span.
 *
 * The generator is never differentiated twice (only the critic is, in the gradient penalty), so the gradient kernels
 * have no gradient of their own. Other backends take the composite forms (ctgan.ts, span-ops.ts); `fusedAvailable`
 * says which.
 */
import * as tf from '@tensorflow/tfjs';
import { ensureKernels } from './kernels';
import type { WasmHeap } from './wasm-heap';

const BN_RELU = 'SynthBnRelu';
const BN_RELU_GRAD = 'SynthBnReluGrad';
const ACTIVATE = 'SynthActivate';
const ACTIVATE_GRAD = 'SynthActivateGrad';
export const FUSED_BN_EPS = 1e-5;

type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: WasmHeap; attrs?: Record<string, unknown> };

/** Spans as flat [offset, width, offset, width, ...] (attributes must be plain values). */
interface ActivateAttrs {
  nScalar: number;
  spans: number[];
  /** Divides logits + noise; 1 without noise. */
  tau: number;
  [key: string]: unknown;
}

/** Column statistics of z [B, o]: mean and 1 / sqrt(biased variance + eps), from sums in one pass (float64). */
function columnStats(z: Float32Array, B: number, o: number): ColumnStats {
  const mean = new Float64Array(o);
  const rstd = new Float64Array(o);
  const n = B * o;
  // Column by column: the sums stay in registers, twice as fast as accumulating a row at a time into arrays.
  for (let j = 0; j < o; j++) {
    let sum = 0;
    let squares = 0;
    for (let p = j; p < n; p += o) {
      const v = z[p];
      sum += v;
      squares += v * v;
    }
    const m = sum / B;
    mean[j] = m;
    rstd[j] = 1 / Math.sqrt(Math.max(0, squares / B - m * m) + FUSED_BN_EPS);
  }
  return { mean, rstd };
}

interface ColumnStats {
  mean: Float64Array;
  rstd: Float64Array;
}

/** The forward pass's statistics by its output's data, for the gradient (saved outputs share their data here). */
const forwardStats = new WeakMap<object, ColumnStats>();

function bnReluKernel({ inputs, backend }: KernelArgs): tf.TensorInfo {
  const zi = inputs.z as tf.TensorInfo;
  const [B, o] = zi.shape;
  const out = backend.makeOutput([B, o], 'float32');
  const z = backend.typedArrayFromHeap(zi);
  const gamma = backend.typedArrayFromHeap(inputs.gamma as tf.TensorInfo);
  const beta = backend.typedArrayFromHeap(inputs.beta as tf.TensorInfo);
  const y = backend.typedArrayFromHeap(out);
  const stats = columnStats(z, B, o);
  const { mean, rstd } = stats;
  const scale = new Float64Array(o);
  const shift = new Float64Array(o);
  for (let j = 0; j < o; j++) {
    scale[j] = rstd[j] * gamma[j];
    shift[j] = beta[j] - mean[j] * scale[j];
  }
  // One flat pass; 0.5 (v + |v|) is ReLU without a branch (a branch on the sign mispredicts on half the elements and
  // made this loop 2-3x slower). It is exact: v + |v| is 2v or 0.
  for (let p = 0, j = 0, n = B * o; p < n; p++) {
    const v = z[p] * scale[j] + shift[j];
    y[p] = 0.5 * (v + Math.abs(v));
    if (++j === o) j = 0;
  }
  forwardStats.set(out.dataId, stats);
  return out;
}

/** What the batch normalisation's gradient needs, from dy, z and y: the statistics and the sums of g and g xhat. */
interface BnGradStats {
  mean: Float64Array;
  rstd: Float64Array;
  sg: Float64Array;
  sgx: Float64Array;
}

function bnGradStats(dy: Float32Array, z: Float32Array, y: Float32Array, B: number, o: number, forward?: ColumnStats): BnGradStats {
  const { mean, rstd } = forward ?? columnStats(z, B, o);
  const sg = new Float64Array(o);
  const sgx = new Float64Array(o);
  const n = B * o;
  for (let j = 0; j < o; j++) {
    const m = mean[j];
    let a = 0;
    let b = 0;
    for (let p = j; p < n; p += o) {
      const g = +(y[p] > 0) * dy[p];
      a += g;
      b += g * (z[p] - m);
    }
    sg[j] = a;
    sgx[j] = b * rstd[j];
  }
  return { mean, rstd, sg, sgx };
}

/** dz from dy, z, y, gamma and the statistics (attrs.stats). */
function bnReluGradKernel({ inputs, backend, attrs }: KernelArgs): tf.TensorInfo {
  const zi = inputs.z as tf.TensorInfo;
  const [B, o] = zi.shape;
  const out = backend.makeOutput([B, o], 'float32');
  const z = backend.typedArrayFromHeap(zi);
  const dy = backend.typedArrayFromHeap(inputs.dy as tf.TensorInfo);
  const y = backend.typedArrayFromHeap(inputs.y as tf.TensorInfo);
  const gamma = backend.typedArrayFromHeap(inputs.gamma as tf.TensorInfo);
  const dz = backend.typedArrayFromHeap(out);
  const { mean, rstd, sg, sgx } = attrs?.stats as BnGradStats;
  // dz = a g - (a / B) sg - (a / B) xhat sgx with a = gamma rstd, written per column as a g + k0 + k1 z.
  const a = new Float64Array(o);
  const k0 = new Float64Array(o);
  const k1 = new Float64Array(o);
  for (let j = 0; j < o; j++) {
    a[j] = gamma[j] * rstd[j];
    const c = (a[j] * rstd[j] * sgx[j]) / B;
    k1[j] = -c;
    k0[j] = (-a[j] * sg[j]) / B + c * mean[j];
  }
  for (let p = 0, j = 0, n = B * o; p < n; p++) {
    dz[p] = +(y[p] > 0) * dy[p] * a[j] + k0[j] + k1[j] * z[p];
    if (++j === o) j = 0;
  }
  return out;
}

function activateKernel({ inputs, backend, attrs }: KernelArgs): tf.TensorInfo {
  const a = attrs as ActivateAttrs;
  const li = inputs.logits as tf.TensorInfo;
  const [rows, dim] = li.shape;
  const out = backend.makeOutput([rows, dim], 'float32');
  const logits = backend.typedArrayFromHeap(li);
  const noise = inputs.noise ? backend.typedArrayFromHeap(inputs.noise as tf.TensorInfo) : null;
  const y = backend.typedArrayFromHeap(out);
  const soft = dim - a.nScalar;
  const inv = 1 / a.tau;
  for (let i = 0; i < rows; i++) {
    const r = i * dim;
    for (let j = 0; j < a.nScalar; j++) y[r + j] = Math.tanh(logits[r + j]);
    for (let s = 0; s < a.spans.length; s += 2) {
      const start = r + a.spans[s];
      const width = a.spans[s + 1];
      const n0 = i * soft + a.spans[s] - a.nScalar;
      let max = -Infinity;
      for (let k = 0; k < width; k++) {
        const v = (logits[start + k] + (noise ? noise[n0 + k] : 0)) * inv;
        y[start + k] = v;
        if (v > max) max = v;
      }
      let sum = 0;
      for (let k = 0; k < width; k++) sum += y[start + k] = Math.exp(y[start + k] - max);
      for (let k = 0; k < width; k++) y[start + k] /= sum;
    }
  }
  return out;
}

function activateGradKernel({ inputs, backend, attrs }: KernelArgs): tf.TensorInfo {
  const a = attrs as ActivateAttrs;
  const yi = inputs.y as tf.TensorInfo;
  const [rows, dim] = yi.shape;
  const out = backend.makeOutput([rows, dim], 'float32');
  const y = backend.typedArrayFromHeap(yi);
  const dy = backend.typedArrayFromHeap(inputs.dy as tf.TensorInfo);
  const dx = backend.typedArrayFromHeap(out);
  const inv = 1 / a.tau;
  for (let i = 0; i < rows; i++) {
    const r = i * dim;
    for (let j = 0; j < a.nScalar; j++) dx[r + j] = dy[r + j] * (1 - y[r + j] * y[r + j]);
    for (let s = 0; s < a.spans.length; s += 2) {
      const start = r + a.spans[s];
      const width = a.spans[s + 1];
      let dot = 0;
      for (let k = 0; k < width; k++) dot += dy[start + k] * y[start + k];
      for (let k = 0; k < width; k++) dx[start + k] = y[start + k] * (dy[start + k] - dot) * inv;
    }
  }
  return out;
}

let registered = false;

/** True when the fused kernels run on the active backend (wasm); registers them on first use. */
export function fusedAvailable(): boolean {
  if (tf.getBackend() !== 'wasm') return false;
  if (registered) return true;
  ensureKernels();
  const reg = (kernelName: string, fn: (args: KernelArgs) => tf.TensorInfo | tf.TensorInfo[]) => {
    if (!tf.getKernel(kernelName, 'wasm')) tf.registerKernel({ kernelName, backendName: 'wasm', kernelFunc: fn as unknown as tf.KernelFunc });
  };
  reg(BN_RELU, bnReluKernel);
  reg(BN_RELU_GRAD, bnReluGradKernel);
  reg(ACTIVATE, activateKernel);
  reg(ACTIVATE_GRAD, activateGradKernel);
  if (!tf.getGradient(BN_RELU)) {
    tf.registerGradient({
      kernelName: BN_RELU,
      inputsToSave: ['z', 'gamma'],
      outputsToSave: [true],
      gradFunc: (dy, saved) => {
        const [z, gamma, y] = saved;
        const [B, o] = z.shape;
        // The sums are shared by the three gradients, and kept in JavaScript: the engine disposes what one gradient
        // function creates beyond the tensor it returns.
        let stats: BnGradStats | null = null;
        const heap = (t: tf.Tensor) => (tf.backend() as unknown as WasmHeap).typedArrayFromHeap(t);
        const get = () => (stats ??= bnGradStats(heap(dy as tf.Tensor), heap(z), heap(y), B, o, forwardStats.get(y.dataId)));
        return {
          z: () => tf.engine().runKernel(BN_RELU_GRAD, { dy: dy as tf.Tensor, z, gamma, y }, { stats: get() } as unknown as tf.NamedAttrMap) as tf.Tensor,
          gamma: () => tf.tensor1d(Float32Array.from(get().sgx)),
          beta: () => tf.tensor1d(Float32Array.from(get().sg)),
        };
      },
    });
    tf.registerGradient({
      kernelName: ACTIVATE,
      outputsToSave: [true],
      gradFunc: (dy, saved, attrs) => {
        const [y] = saved;
        return {
          logits: () => tf.engine().runKernel(ACTIVATE_GRAD, { dy: dy as tf.Tensor, y }, attrs) as tf.Tensor,
          noise: () => tf.zeros([y.shape[0], (y.shape[1] as number) - (attrs as unknown as ActivateAttrs).nScalar]),
        };
      },
    });
  }
  registered = true;
  return true;
}

/** Batch normalisation (batch statistics) then ReLU, fused; see the file comment. Only where fusedAvailable(). */
export function bnRelu(z: tf.Tensor2D, gamma: tf.Tensor, beta: tf.Tensor): tf.Tensor2D {
  return tf.engine().runKernel(BN_RELU, { z, gamma, beta }) as tf.Tensor2D;
}

/**
 * CTGAN's activation, fused: tanh on the scalars, softmax((logits + gumbel) / tau) per span (`gumbel` [rows,
 * dim - nScalar] or null for a plain softmax). Only where fusedAvailable().
 */
export function activate(logits: tf.Tensor2D, gumbel: tf.Tensor2D | null, nScalar: number, spans: Array<{ offset: number; width: number }>, tau: number): tf.Tensor2D {
  const attrs: ActivateAttrs = { nScalar, spans: spans.flatMap((s) => [s.offset, s.width]), tau: gumbel ? tau : 1 };
  const inputs: tf.NamedTensorMap = gumbel ? { logits, noise: gumbel } : { logits };
  return tf.engine().runKernel(ACTIVATE, inputs, attrs as unknown as tf.NamedAttrMap) as tf.Tensor2D;
}

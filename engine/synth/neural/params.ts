/**
 * Named network parameters and the Adam optimizer the neural models train with, written on raw TensorFlow.js
 * variables so their state (weights, both moments, the step count) can be read into a checkpoint and written back.
 *
 * Initialisation is PyTorch's default for `nn.Linear` (weights and biases uniform in +-1/sqrt(fan_in)) and
 * `nn.BatchNorm1d` (scale 1, shift 0), drawn from the model's seeded stream, as the ctgan package's networks start.
 * Adam is PyTorch's (bias-corrected moments, eps added to the corrected root, L2 `weight_decay` added to the
 * gradient), not TensorFlow.js's built-in one, which has no weight decay.
 */
import * as tf from '@tensorflow/tfjs';
import { linearInit } from './host-random';
import { matMulW, releaseTransposes } from './kernels';
import { NeuralRng } from './rng';
import type { WasmHeap } from './wasm-heap';

export { linearInit };

/** A plain copy of a tensor: what checkpoints and serialized models hold. */
export interface TensorData {
  shape: number[];
  data: Float32Array;
}

export class ParamSet {
  readonly names: string[] = [];
  readonly vars: tf.Variable[] = [];
  private readonly byName = new Map<string, tf.Variable>();

  add(name: string, shape: number[], values: Float32Array): tf.Variable {
    if (this.byName.has(name)) throw new Error(`duplicate parameter ${name}`);
    const v = tf.tidy(() => tf.variable(tf.tensor(values, shape), true, undefined, 'float32'));
    this.names.push(name);
    this.vars.push(v);
    this.byName.set(name, v);
    return v;
  }

  /** A linear layer's weight [fanIn, fanOut] and bias, PyTorch-initialised. */
  linear(name: string, fanIn: number, fanOut: number, rng: NeuralRng): { w: tf.Variable; b: tf.Variable } {
    const { w, b } = linearInit(fanIn, fanOut, rng);
    return { w: this.add(`${name}.w`, [fanIn, fanOut], w), b: this.add(`${name}.b`, [fanOut], b) };
  }

  get(name: string): tf.Variable {
    const v = this.byName.get(name);
    if (!v) throw new Error(`unknown parameter ${name}`);
    return v;
  }

  /** Copies of every parameter, by name. */
  read(): Record<string, TensorData> {
    const out: Record<string, TensorData> = {};
    this.names.forEach((n, i) => (out[n] = { shape: this.vars[i].shape.slice(), data: this.vars[i].dataSync() as Float32Array }));
    return out;
  }

  /** Overwrites the parameters from copies (shapes must match). */
  write(values: Record<string, TensorData>): void {
    this.names.forEach((n, i) => {
      const t = values[n];
      if (!t || t.data.length !== this.vars[i].size) throw new Error(`parameter ${n} is missing or has another shape`);
      tf.tidy(() => this.vars[i].assign(tf.tensor(t.data, this.vars[i].shape)));
    });
  }

  dispose(): void {
    releaseTransposes(this.vars);
    this.vars.forEach((v) => v.dispose());
  }
}

/** The wasm backend's heap access, or null on other backends. */
function heapOf(backend: tf.KernelBackend): WasmHeap | null {
  return tf.getBackend() === 'wasm' ? (backend as unknown as WasmHeap) : null;
}

export interface AdamOptions {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
}

/**
 * PyTorch's Adam over a ParamSet, computed in JavaScript over the parameters and gradients, the moments kept
 * as flat Float32Arrays (parameter order). One pass over each parameter's values replaces a dozen element-wise kernels
 * over all of them, plus the concatenations and the split that the kernels needed (the wasm backend's slice copies
 * its whole input, once per output of a split); each parameter then gets its new value as one upload.
 */
export class Adam {
  private readonly m: Float32Array;
  private readonly v: Float32Array;
  step = 0;

  constructor(
    private readonly params: ParamSet,
    private readonly o: AdamOptions,
  ) {
    const total = params.vars.reduce((a, p) => a + p.size, 0);
    this.m = new Float32Array(total);
    this.v = new Float32Array(total);
  }

  /** One update from gradients keyed by variable name (as tf.variableGrads returns them; a missing one counts as 0). */
  apply(grads: tf.NamedTensorMap): void {
    this.step++;
    const { lr, beta1, beta2, eps, weightDecay } = this.o;
    const stepSize = lr / (1 - beta1 ** this.step);
    const bc2 = Math.sqrt(1 - beta2 ** this.step);
    const { m, v } = this;
    const heap = heapOf(tf.backend());
    let offset = 0;
    for (const p of this.params.vars) {
      const g = grads[p.name];
      // On wasm the update reads the weights and gradients in place and writes the new weights straight into a fresh
      // buffer of the heap (three copies of every weight fewer a step); elsewhere it works on copies.
      const out = heap ? heap.makeOutput(p.shape, 'float32') : null;
      const values = heap ? heap.typedArrayFromHeap(p) : (p.dataSync() as Float32Array);
      const grad = g ? (heap ? heap.typedArrayFromHeap(g) : (g.dataSync() as Float32Array)) : null;
      const next = out && heap ? heap.typedArrayFromHeap(out) : new Float32Array(values.length);
      for (let i = 0, j = offset; i < values.length; i++, j++) {
        const gi = (grad ? grad[i] : 0) + weightDecay * values[i];
        const mj = (m[j] = beta1 * m[j] + (1 - beta1) * gi);
        const vj = (v[j] = beta2 * v[j] + (1 - beta2) * gi * gi);
        next[i] = values[i] - (stepSize * mj) / (Math.sqrt(vj) / bc2 + eps);
      }
      const value = out ? tf.engine().makeTensorFromTensorInfo(out) : tf.tensor(next, p.shape);
      p.assign(value);
      value.dispose();
      offset += values.length;
    }
  }

  /** Both moments (flat, in parameter order). */
  read(): Record<string, TensorData> {
    return { m: { shape: [this.m.length], data: this.m.slice() }, v: { shape: [this.v.length], data: this.v.slice() } };
  }

  write(values: Record<string, TensorData>, step: number): void {
    const { m, v } = values;
    if (!m || !v || m.data.length !== this.m.length || v.data.length !== this.v.length) throw new Error('optimizer state is missing or has another shape');
    this.m.set(m.data);
    this.v.set(v.data);
    this.step = step;
  }

  /** Nothing to free (the moments are plain arrays); kept so trainers can dispose every part alike. */
  dispose(): void {}
}

/** x W + b. */
export function dense(x: tf.Tensor2D, w: tf.Tensor, b: tf.Tensor): tf.Tensor2D {
  return tf.add(matMulW(x, w), b);
}

/**
 * Leaky ReLU as 0.6 x + 0.4 |x| (slope 1 above zero, 0.2 below): the same function as tf.leakyRelu(x, 0.2), built
 * from ops whose gradients are themselves differentiable. tf.leakyRelu's gradient goes through `greater`, which has
 * no gradient, so a gradient penalty (a gradient of a gradient) cannot pass through it.
 */
export function leakyRelu02(x: tf.Tensor): tf.Tensor {
  return tf.add(tf.mul(x, 0.6), tf.mul(tf.abs(x), 0.4));
}

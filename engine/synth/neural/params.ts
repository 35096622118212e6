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
import { NeuralRng } from './rng';

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
    const bound = 1 / Math.sqrt(fanIn);
    const w = new Float32Array(fanIn * fanOut);
    for (let i = 0; i < w.length; i++) w[i] = (rng.next() * 2 - 1) * bound;
    const b = new Float32Array(fanOut);
    for (let i = 0; i < b.length; i++) b[i] = (rng.next() * 2 - 1) * bound;
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
    this.vars.forEach((v) => v.dispose());
  }
}

export interface AdamOptions {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
}

/**
 * PyTorch's Adam over a ParamSet. The update runs once on all parameters concatenated into one vector (and the
 * moments are such vectors), so a step costs a fixed dozen kernels instead of a dozen per parameter: with small
 * tensors TensorFlow.js's per-kernel overhead, not arithmetic, is what a step spends.
 */
export class Adam {
  private readonly m: tf.Variable;
  private readonly v: tf.Variable;
  private readonly sizes: number[];
  step = 0;

  constructor(
    private readonly params: ParamSet,
    private readonly o: AdamOptions,
  ) {
    this.sizes = params.vars.map((p) => p.size);
    const total = this.sizes.reduce((a, b) => a + b, 0);
    this.m = tf.tidy(() => tf.variable(tf.zeros([total]), false));
    this.v = tf.tidy(() => tf.variable(tf.zeros([total]), false));
  }

  /** One update from gradients keyed by variable name (as tf.variableGrads returns them; a missing one counts as 0). */
  apply(grads: tf.NamedTensorMap): void {
    this.step++;
    const { lr, beta1, beta2, eps, weightDecay } = this.o;
    const bc1 = 1 - beta1 ** this.step;
    const bc2 = Math.sqrt(1 - beta2 ** this.step);
    tf.tidy(() => {
      const vars = this.params.vars;
      const flatP = tf.concat(vars.map((p) => tf.reshape(p, [-1])));
      let g = tf.concat(vars.map((p) => tf.reshape(grads[p.name] ?? tf.zerosLike(p), [-1])));
      if (weightDecay > 0) g = tf.add(g, tf.mul(flatP, weightDecay));
      const m = tf.add(tf.mul(this.m, beta1), tf.mul(g, 1 - beta1));
      const v = tf.add(tf.mul(this.v, beta2), tf.mul(tf.square(g), 1 - beta2));
      this.m.assign(m);
      this.v.assign(v);
      const next = tf.sub(flatP, tf.div(tf.mul(m, lr / bc1), tf.add(tf.mul(tf.sqrt(v), 1 / bc2), eps)));
      tf.split(next, this.sizes).forEach((t, i) => vars[i].assign(tf.reshape(t, vars[i].shape)));
    });
  }

  /** Both moments (flat, in parameter order). */
  read(): Record<string, TensorData> {
    return {
      m: { shape: this.m.shape.slice(), data: this.m.dataSync() as Float32Array },
      v: { shape: this.v.shape.slice(), data: this.v.dataSync() as Float32Array },
    };
  }

  write(values: Record<string, TensorData>, step: number): void {
    const { m, v } = values;
    if (!m || !v || m.data.length !== this.m.size || v.data.length !== this.v.size) throw new Error('optimizer state is missing or has another shape');
    tf.tidy(() => {
      this.m.assign(tf.tensor(m.data, this.m.shape));
      this.v.assign(tf.tensor(v.data, this.v.shape));
    });
    this.step = step;
  }

  dispose(): void {
    this.m.dispose();
    this.v.dispose();
  }
}

/**
 * a b, with a gradient built from explicit transposes and plain products: tfjs-backend-wasm multiplies with a
 * transposed operand (what tf.matMul's own gradient asks for) about ten times slower than transposing first.
 * The gradient calls `matMul` again, so gradients of gradients (the gradient penalty) take the fast path too.
 */
type CustomGradient = Parameters<typeof tf.customGrad<tf.Tensor2D>>[0];

export const matMul = tf.customGrad(((a: tf.Tensor2D, b: tf.Tensor2D, save: tf.GradSaveFunc) => {
  save([a, b]);
  return {
    value: tf.matMul(a, b),
    gradFunc: (dy: tf.Tensor2D, saved: tf.Tensor[]) => {
      const [sa, sb] = saved as tf.Tensor2D[];
      return [matMul(dy, tf.transpose(sb)), matMul(tf.transpose(sa), dy)];
    },
  };
}) as unknown as CustomGradient) as (a: tf.Tensor2D, b: tf.Tensor2D) => tf.Tensor2D;

/** x W + b. */
export function dense(x: tf.Tensor2D, w: tf.Tensor, b: tf.Tensor): tf.Tensor2D {
  return tf.add(matMul(x, w as tf.Tensor2D), b);
}

/**
 * Leaky ReLU as 0.6 x + 0.4 |x| (slope 1 above zero, 0.2 below): the same function as tf.leakyRelu(x, 0.2), built
 * from ops whose gradients are themselves differentiable. tf.leakyRelu's gradient goes through `greater`, which has
 * no gradient, so a gradient penalty (a gradient of a gradient) cannot pass through it.
 */
export function leakyRelu02(x: tf.Tensor): tf.Tensor {
  return tf.add(tf.mul(x, 0.6), tf.mul(tf.abs(x), 0.4));
}

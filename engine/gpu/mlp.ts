/// <reference types="@webgpu/types" />
/**
 * A multilayer perceptron trained on the GPU as a static graph: dense layers (hidden activation, linear output), a
 * mean loss, mini-batch Adam. Every buffer, bind group and pipeline is made in the constructor; a training step
 * writes the batch and the step uniform and submits one command buffer; the per-step losses land in a ring on the
 * GPU and are read back only when asked (`takeLosses`, at least every `lossEvery` steps).
 *
 * One training step, for L layers: L forward products with bias + activation fused, the loss and its gradient, per
 * layer a weight-gradient product (Hᵀ·dZ), a column sum (bias gradient) and, below the top, the product dZ·Wᵀ with the
 * activation's gradient fused; then ONE Adam dispatch over all parameters, which live packed in one buffer.
 */
import type { ActivationKind, LossKind } from './kernels';
import { GpuRuntime, Program, Tensor } from './runtime';

export interface MlpSpec {
  /** Layer widths, input first: [inputs, ...hidden, outputs]. */
  sizes: number[];
  /** The hidden layers' activation (the output layer is linear: margins). */
  activation: ActivationKind;
  loss: LossKind;
  /** Penalties on the weights (not the biases), as TF.js's l1·Σ|w| + l2·Σw². */
  l1?: number;
  l2?: number;
}

/** Adam's settings; the defaults are TF.js's (the CPU engine's): β1 0.9, β2 0.999, ε 1e-7. */
export interface AdamSettings {
  lr: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
}

export interface MlpParameters {
  /** Per layer, row-major inputs × outputs (the CPU engine's layout). */
  weights: Float32Array[];
  biases: Float32Array[];
}

export interface GpuMlpOptions {
  /** Rows a training step holds (a shorter last batch is fine). */
  batch: number;
  /** Rows an evaluation pass holds per submit; default max(batch, 1024). */
  evalRows?: number;
  /** Steps whose losses the GPU keeps between two `takeLosses`; default 100. */
  lossEvery?: number;
}

interface Pass {
  program: Program;
  x: Tensor;
  y: Tensor;
  rows: number;
}

export class GpuMlp {
  readonly spec: MlpSpec;
  private readonly rt: GpuRuntime;
  private readonly L: number;
  private readonly params: { whole: Tensor; parts: Tensor[] };
  private readonly train: Pass;
  private readonly evaluation: Pass;
  private readonly losses: Tensor;
  private readonly evalSum: Tensor;
  private readonly adam: Required<AdamSettings>;
  private readonly lossEvery: number;
  private steps = 0;
  private untaken = 0;
  private accBeta1 = 1;
  private accBeta2 = 1;

  constructor(rt: GpuRuntime, spec: MlpSpec, init: MlpParameters, adam: AdamSettings, options: GpuMlpOptions) {
    this.rt = rt;
    this.spec = spec;
    const sizes = spec.sizes;
    this.L = sizes.length - 1;
    if (init.weights.length !== this.L || init.biases.length !== this.L) throw new Error(`GpuMlp: ${this.L} layers need as many weight and bias arrays`);
    this.adam = { beta1: 0.9, beta2: 0.999, eps: 1e-7, ...adam };
    this.lossEvery = options.lossEvery ?? 100;

    // Parameters and their Adam state, packed alike: W0, b0, W1, b1, ...
    const lengths = sizes.slice(0, -1).flatMap((n, l) => [n * sizes[l + 1], sizes[l + 1]]);
    this.params = rt.packed(lengths, 'params');
    const grads = rt.packed(lengths, 'grads');
    const m = rt.packed(lengths, 'adam m');
    const v = rt.packed(lengths, 'adam v');
    const decay = rt.packed(lengths, 'decay mask');
    decay.parts.forEach((t, i) => {
      if (i % 2 === 0) rt.write(t, new Float32Array(t.length).fill(1));
    });
    this.setParameters(init);
    this.losses = rt.tensor(this.lossEvery, 'losses');
    this.evalSum = rt.tensor(1, 'eval loss sum');

    const W = (l: number) => this.params.parts[2 * l];

    // Training: forward, loss, backward, Adam.
    const B = options.batch;
    const rows = { rows: B };
    const train = this.forward(B, 'train');
    const dZ = sizes.map((n, l) => (l === 0 ? undefined : rt.tensor(B * n, `dZ${l}`)));
    rt.loss(train.program, { z: train.h[this.L], y: train.y, grad: dZ[this.L]!, losses: this.losses, rows, K: sizes[this.L], loss: spec.loss });
    for (let l = this.L - 1; l >= 0; l--) {
      const [nIn, nOut] = [sizes[l], sizes[l + 1]];
      rt.matmul(train.program, { a: train.h[l], b: dZ[l + 1]!, c: grads.parts[2 * l], M: nIn, N: nOut, K: rows, transA: true });
      rt.columnSums(train.program, { x: dZ[l + 1]!, out: grads.parts[2 * l + 1], rows, N: nOut });
      if (l > 0) {
        rt.matmul(train.program, { a: dZ[l + 1]!, b: W(l), c: dZ[l]!, M: rows, N: nIn, K: nOut, transB: true, epilogue: 'act_grad', extra: train.h[l], activation: spec.activation });
      }
    }
    rt.adam(train.program, { params: this.params.whole, grad: grads.whole, m: m.whole, v: v.whole, decay: decay.whole, l1: spec.l1, l2: spec.l2 });
    this.train = { program: train.program, x: train.x, y: train.y, rows: B };

    // Evaluation: forward and the loss's sum, accumulated over chunks.
    const E = options.evalRows ?? Math.max(B, 1024);
    const ev = this.forward(E, 'eval');
    rt.loss(ev.program, { z: ev.h[this.L], y: ev.y, grad: rt.tensor(1, 'unused grad'), losses: this.evalSum, rows: { rows: E }, K: sizes[this.L], loss: spec.loss, evaluate: true });
    this.evaluation = { program: ev.program, x: ev.x, y: ev.y, rows: E };
  }

  /** The forward products of a pass holding `capacity` rows: h[0] is the input, h[L] the margins. */
  private forward(capacity: number, label: string): { program: Program; x: Tensor; y: Tensor; h: Tensor[] } {
    const { sizes } = this.spec;
    const program = new Program();
    const x = this.rt.tensor(capacity * sizes[0], `${label} x`);
    const y = this.rt.tensor(capacity * sizes[this.L], `${label} y`);
    const h = [x, ...sizes.slice(1).map((n, l) => this.rt.tensor(capacity * n, `${label} h${l + 1}`))];
    for (let l = 0; l < this.L; l++) {
      this.rt.matmul(program, {
        a: h[l],
        b: this.params.parts[2 * l],
        c: h[l + 1],
        M: { rows: capacity },
        N: sizes[l + 1],
        K: sizes[l],
        epilogue: 'bias_act',
        extra: this.params.parts[2 * l + 1],
        activation: l === this.L - 1 ? 'identity' : this.spec.activation,
      });
    }
    return { program, x, y, h };
  }

  setParameters(p: MlpParameters): void {
    p.weights.forEach((w, l) => this.rt.write(this.params.parts[2 * l], w));
    p.biases.forEach((b, l) => this.rt.write(this.params.parts[2 * l + 1], b));
  }

  /**
   * One training step on `rows` rows (x: rows × inputs, y: rows × outputs, row-major): writes them, submits one
   * command buffer. Does not wait for the GPU.
   */
  step(x: Float32Array, y: Float32Array, rows = x.length / this.spec.sizes[0]): void {
    if (rows > this.train.rows || rows < 1) throw new Error(`GpuMlp.step: ${rows} rows for a batch of ${this.train.rows}`);
    if (this.untaken >= this.lossEvery) throw new Error(`GpuMlp.step: take the losses at least every ${this.lossEvery} steps`);
    this.rt.write(this.train.x, x.subarray(0, rows * this.spec.sizes[0]));
    this.rt.write(this.train.y, y.subarray(0, rows * this.spec.sizes[this.L]));
    // β^t accumulated in float32, as TF.js's optimizer does.
    this.accBeta1 = Math.fround(this.accBeta1 * this.adam.beta1);
    this.accBeta2 = Math.fround(this.accBeta2 * this.adam.beta2);
    const { lr, beta1, beta2, eps } = this.adam;
    this.rt.run(this.train.program, { rows, slot: this.untaken, lr, beta1, beta2, eps, c1: 1 - this.accBeta1, c2: 1 - this.accBeta2 });
    this.steps++;
    this.untaken++;
  }

  get stepsTaken(): number {
    return this.steps;
  }

  /** The mean training loss of each step since the last call (waits for them). */
  async takeLosses(): Promise<Float32Array> {
    const n = this.untaken;
    this.untaken = 0;
    if (n === 0) return new Float32Array(0);
    return (await this.rt.read(this.losses)).slice(0, n);
  }

  /** The mean loss over n rows (x: n × inputs, y: n × outputs), without training; one readback at the end. */
  async evaluate(x: Float32Array, y: Float32Array, n = x.length / this.spec.sizes[0]): Promise<number> {
    const [inputs, outputs] = [this.spec.sizes[0], this.spec.sizes[this.L]];
    this.rt.write(this.evalSum, new Float32Array(1));
    const E = this.evaluation.rows;
    for (let s = 0; s < n; s += E) {
      const rows = Math.min(E, n - s);
      this.rt.write(this.evaluation.x, x.subarray(s * inputs, (s + rows) * inputs));
      this.rt.write(this.evaluation.y, y.subarray(s * outputs, (s + rows) * outputs));
      this.rt.run(this.evaluation.program, { rows, slot: 0, lr: 0, beta1: 0, beta2: 0, eps: 1, c1: 1, c2: 1 });
    }
    const sum = (await this.rt.read(this.evalSum))[0];
    return sum / (this.spec.loss === 'softmax_ce' ? n : n * outputs);
  }

  /** The current weights and biases, in the CPU engine's layout. */
  async parameters(): Promise<MlpParameters> {
    const all = await this.rt.read(this.params.whole);
    const part = (t: Tensor) => all.slice(t.offset, t.offset + t.length);
    return {
      weights: Array.from({ length: this.L }, (_, l) => part(this.params.parts[2 * l])),
      biases: Array.from({ length: this.L }, (_, l) => part(this.params.parts[2 * l + 1])),
    };
  }
}

/// <reference types="@webgpu/types" />
/**
 * CTGAN (and CopulaGAN, the same trainer on normal scores) on the GPU: engine/synth/neural/ctgan.ts's CtganTrainer
 * as one static graph. A training step (one critic step, then one generator step, as the CPU) is ONE command buffer:
 *
 * - critic step: generator forward (residual Linear → batch norm with batch statistics → ReLU blocks, each
 *   concatenated before its input; output tanh / Gumbel-softmax written straight into the critic's input next to
 *   the real rows), critic forward on real ++ fake pac groups (Linear → LeakyReLU(0.2) → dropout), the WGAN loss
 *   gradient, the gradient penalty and its weight gradients in closed form (below), Adam on the critic;
 * - generator step: generator forward, critic forward and backward to its input (no critic weight gradients), the
 *   output activation's gradient fused with the conditional cross-entropy, generator backward, Adam on the generator.
 *
 * The gradient penalty: LeakyReLU's derivative is piecewise constant, so at the interpolates x̂ the critic's input
 * gradient is the linear chain ∇x D = W0 (m0 ⊙ s0 ⊙ W1 (m1 ⊙ s1 ⊙ w_out)) (m the dropout masks, s the leaky slopes
 * at x̂; biases do not enter). Its backward pass gives each W's penalty gradient as products of that chain's vectors
 * (dW_l = c_lᵀ v_l), which the CPU engine gets by differentiating its tape twice.
 *
 * Randomness, two modes (GpuNeuralOptions.random):
 * - 'host' (default): every number a step uses (conditions, permutation and real rows, noise, Gumbel noise,
 *   interpolation weights, dropout masks) is drawn on the host from the model's NeuralRng in the CPU step's order
 *   (`hostDraws`) and written into the step's buffers, so both engines consume one stream: equal results within float
 *   tolerance (what the equality tests compare), and a checkpoint resumes on either engine.
 * - 'device': the conditions and real rows still come from the NeuralRng (a few draws a row), but the noise, Gumbel
 *   noise, α and dropout masks (~250k numbers a step at the default sizes: about 3-4 ms of JavaScript on an idle
 *   core, the whole budget of a GPU step) are made on the GPU by GAN_RANDOM, a counter hash of (a key drawn once from
 *   the NeuralRng at construction, the step number). Same distributions, other numbers: a resumed fit is reproducible
 *   on the GPU engine only. For the speed target this is the mode a GPU fit should use.
 */
import { CondBatch, CondSampler } from '../../synth/neural/cond-sampler';
import { hostDraws, linearInit } from '../../synth/neural/host-random';
import type { NeuralRng } from '../../synth/neural/rng';
import type { Layout } from '../../synth/neural/transformer';
import type { CtganConfig } from '../../synth/types';
import {
  CustomKernel,
  GAN_ACTIVATE,
  GAN_BN_GRAD,
  GAN_BN_GRAD_SUMS,
  GAN_BN_RELU,
  GAN_BN_STATS,
  GAN_COPY_COLUMNS,
  GAN_DROPOUT,
  GAN_LOSSES,
  GAN_OUTPUT_GRAD,
  GAN_RANDOM,
  ganParams,
  RANDOM_KIND,
} from '../kernels-gan';
import type { ActivationKind } from '../kernels';
import { DispatchDims, GpuRuntime, Program, StepValues, Tensor } from '../runtime';
import { GPU_CTGAN_CONSTANTS } from './ctgan-constants';
import { PackedParams } from './packed-params';
import { recordGradientPenalty } from './penalty';
import type { CtganLosses, CtganSteps, GpuCtganTrainer, GpuCtganTrainerFactory, GpuNeuralOptions, GpuNeuralUnsupported, TensorData } from './trainer';

const { adam: CTGAN_ADAM, bnEps: BN_EPS, gumbelTau: GUMBEL_TAU, dropoutRate: DROPOUT_RATE } = GPU_CTGAN_CONSTANTS;
/** The most storage buffers one of the graph's kernels binds (GAN_OUTPUT_GRAD): WebGPU's default limit. */
const MAX_STORAGE_BINDINGS = 8;

/** Where a step's host draws go: one packed buffer, written with one call a step ('host' mode; 'device' writes only the host-made parts). */
interface StepInputs {
  whole: Tensor;
  host: Float32Array;
  critic: { input: Tensor; gumbel: Tensor; alpha: Tensor; masks: Tensor[]; penaltyMasks: Tensor[] };
  generator: { input: Tensor; gumbel: Tensor; masks: Tensor[]; target: Tensor; spanMask: Tensor };
}

/** The critic's per-pass buffers (capacity 2G rows: real ++ fake), shared by the critic and generator steps. */
interface CriticBuffers {
  a: Tensor[];
  h: Tensor[];
  y: Tensor;
  dh: Tensor[];
  dz: Tensor[];
}

export class GpuCtgan implements GpuCtganTrainer {
  readonly sampler: CondSampler;
  private readonly g: PackedParams;
  private readonly d: PackedParams;
  private readonly penaltyGrads: { whole: Tensor; parts: Tensor[] };
  private readonly program = new Program();
  private readonly inputs: StepInputs;
  /** [2B, dim + condDim]: real rows ++ their conditions, then fake rows ++ theirs; read as [2G, pac · width]. */
  private readonly criticInput: Tensor;
  private readonly criticHost: Float32Array;
  /** [B, dim + condDim]: the generator step's fake rows ++ conditions. */
  private readonly generatorCriticInput: Tensor;
  private readonly generatorCriticHost: Float32Array;
  /** [loss_g, loss_d, penalty] of the last step. */
  private readonly losses: Tensor;
  private readonly fakeCond: CondBatch;
  private readonly rows: Int32Array;
  private readonly perm: Int32Array;
  private readonly realCond: Float32Array;
  private readonly B: number;
  private readonly G: number;
  /** dim + condDim: a row of the critic's input before packing. */
  private readonly rowWidth: number;
  private readonly packedWidth: number;
  private readonly soft: number;
  /** Generator hidden widths o_l and input widths w_l (w_0 = emb + condDim, w_{l+1} = o_l + w_l). */
  private readonly gOut: number[];
  private readonly gIn: number[];
  private readonly dOut: number[];
  private readonly dIn: number[];
  private steps: CtganSteps = { g: 0, d: 0 };
  private readonly dummy: Tensor;
  /** The on-GPU generator's key ('device' mode), or null: the host draws everything. */
  private readonly randomKey: number | null;

  constructor(
    private readonly rt: GpuRuntime,
    readonly layout: Layout,
    private readonly encoded: Float32Array,
    readonly nrows: number,
    readonly config: CtganConfig,
    rng: NeuralRng,
    options: GpuNeuralOptions = {},
  ) {
    const { batch_size: B, pac, embedding_dim: emb } = config;
    if (B % pac !== 0) throw new Error(`pac (${pac}) must divide batch_size (${B})`);
    this.B = B;
    this.G = B / pac;
    const condDim = layout.condDim;
    this.rowWidth = layout.dim + condDim;
    this.packedWidth = this.rowWidth * pac;
    this.soft = layout.dim - layout.nScalar;

    // Initial weights drawn exactly as CtganTrainer's constructor (ParamSet order and draws).
    const gInit: Array<{ name: string; shape: number[]; data: Float32Array }> = [];
    const linear = (list: typeof gInit, name: string, fanIn: number, fanOut: number) => {
      const { w, b } = linearInit(fanIn, fanOut, rng);
      list.push({ name: `${name}.w`, shape: [fanIn, fanOut], data: w }, { name: `${name}.b`, shape: [fanOut], data: b });
    };
    this.gOut = config.generator_dim.slice();
    this.gIn = [emb + condDim];
    config.generator_dim.forEach((o, l) => {
      linear(gInit, `g${l}`, this.gIn[l], o);
      gInit.push({ name: `g${l}.gamma`, shape: [o], data: new Float32Array(o).fill(1) }, { name: `g${l}.beta`, shape: [o], data: new Float32Array(o) });
      this.gIn.push(this.gIn[l] + o);
    });
    linear(gInit, 'gout', this.gIn[this.gOut.length], layout.dim);
    const dInit: typeof gInit = [];
    this.dOut = config.discriminator_dim.slice();
    this.dIn = [this.packedWidth, ...this.dOut.slice(0, -1)];
    this.dOut.forEach((o, l) => linear(dInit, `d${l}`, this.dIn[l], o));
    linear(dInit, 'dout', this.dOut[this.dOut.length - 1], 1);
    // After the weights, so 'host' mode leaves the stream exactly as the CPU trainer's constructor does.
    this.randomKey = options.random === 'device' ? Math.floor(rng.next() * 2 ** 32) >>> 0 : null;
    this.g = new PackedParams(rt, 'generator', gInit);
    this.d = new PackedParams(rt, 'critic', dInit);
    this.penaltyGrads = rt.packed(
      dInit.map((p) => p.data.length),
      'critic penalty grads',
    );

    this.sampler = CondSampler.fromEncoded(layout, encoded, nrows);
    this.fakeCond = this.sampler.allocate(B);
    this.rows = new Int32Array(B);
    this.perm = new Int32Array(B);
    this.realCond = new Float32Array(B * condDim);

    this.inputs = this.allocateInputs();
    this.criticInput = rt.tensor(2 * B * this.rowWidth, 'critic input');
    this.criticHost = new Float32Array(2 * B * this.rowWidth);
    this.generatorCriticInput = rt.tensor(B * this.rowWidth, 'generator critic input');
    this.generatorCriticHost = new Float32Array(B * this.rowWidth);
    this.losses = rt.tensor(3, 'losses');
    this.dummy = rt.tensor(1, 'unused');
    this.record();
  }

  /** Steps per epoch: max(1, rows / batch_size), as the CPU trainer. */
  get stepsPerEpoch(): number {
    return Math.max(1, Math.floor(this.nrows / this.config.batch_size));
  }

  private allocateInputs(): StepInputs {
    const { B, G, soft } = this;
    const inputWidth = this.config.embedding_dim + this.layout.condDim;
    const lengths: number[] = [];
    const add = (n: number) => lengths.push(Math.max(1, n)) - 1;
    const c = {
      input: add(B * inputWidth),
      gumbel: add(B * soft),
      alpha: add(G),
      masks: this.dOut.map((o) => add(2 * G * o)),
      penaltyMasks: this.dOut.map((o) => add(G * o)),
    };
    const g = {
      input: add(B * inputWidth),
      gumbel: add(B * soft),
      masks: this.dOut.map((o) => add(G * o)),
      target: add(B * soft),
      spanMask: add(B * this.layout.spans.length),
    };
    const packed = this.rt.packed(lengths, 'step inputs');
    const p = (i: number) => packed.parts[i];
    return {
      whole: packed.whole,
      host: new Float32Array(packed.whole.length),
      critic: { input: p(c.input), gumbel: p(c.gumbel), alpha: p(c.alpha), masks: c.masks.map(p), penaltyMasks: c.penaltyMasks.map(p) },
      generator: { input: p(g.input), gumbel: p(g.gumbel), masks: g.masks.map(p), target: p(g.target), spanMask: p(g.spanMask) },
    };
  }

  /** The host array's view of a step-input tensor. */
  private view(t: Tensor, length = t.length): Float32Array {
    return this.inputs.host.subarray(t.offset, t.offset + length);
  }

  // ---- recording -------------------------------------------------------------------------------------------------

  private custom(kernel: CustomKernel, dims: DispatchDims, tensors: Tensor[], workgroups: [number, number]): void {
    this.rt.custom(this.program, kernel, dims, tensors, workgroups);
  }

  private prm(values: number[]): Tensor {
    return this.rt.tensor(ganParams(values), 'gan params');
  }

  private linear(count: number): [number, number] {
    return this.rt.linearWorkgroups(count);
  }

  private matmul(a: Tensor, b: Tensor, c: Tensor, M: number, N: number, K: number, o: { transA?: boolean; transB?: boolean; bias?: Tensor; activation?: ActivationKind } = {}): void {
    this.rt.matmul(this.program, { a, b, c, M, N, K, transA: o.transA, transB: o.transB, ...(o.bias ? { epilogue: 'bias_act' as const, extra: o.bias, activation: o.activation ?? 'identity' } : {}) });
  }

  private record(): void {
    if (this.randomKey !== null) this.recordRandom(this.randomKey);
    const { rt, B, G, layout } = this;
    const L = this.gOut.length;
    const DL = this.dOut.length;
    const spans = layout.spans.flatMap((s) => [s.offset, s.width]);
    const spanPrm = (a: number, b: number) => this.prm([a, b, this.soft, ...spans]);
    const tensors = (label: string, sizes: number[]) => sizes.map((n, i) => rt.tensor(n, `${label}${i}`));

    // Generator buffers (shared by both steps' forward passes).
    const z = tensors(
      'g z',
      this.gOut.map((o) => B * o),
    );
    const stats = tensors(
      'g stats',
      this.gOut.map((o) => 4 * o),
    );
    const gh = [
      null as unknown as Tensor,
      ...tensors(
        'g h',
        this.gIn.slice(1).map((w) => B * w),
      ),
    ];
    const raw = rt.tensor(B * layout.dim, 'g raw');
    const recordGenerator = (input: Tensor, gumbel: Tensor, out: Tensor, rowBase: number) => {
      gh[0] = input;
      for (let l = 0; l < L; l++) {
        const [w, o] = [this.gIn[l], this.gOut[l]];
        this.matmul(gh[l], this.g.get(`g${l}.w`), z[l], B, o, w, { bias: this.g.get(`g${l}.b`) });
        this.custom(GAN_BN_STATS, { a: B, b: o, f0: BN_EPS }, [z[l], stats[l]], [Math.ceil(o / 16), 1]);
        this.custom(GAN_BN_RELU, { a: B, b: o }, [this.prm([w + o, 0]), z[l], stats[l], this.g.get(`g${l}.gamma`), this.g.get(`g${l}.beta`), gh[l + 1]], this.linear(B * o));
        this.custom(GAN_COPY_COLUMNS, { a: B, b: w }, [this.prm([w, 0, w + o, o]), gh[l], gh[l + 1]], this.linear(B * w));
      }
      this.matmul(gh[L], this.g.get('gout.w'), raw, B, layout.dim, this.gIn[L], { bias: this.g.get('gout.b') });
      this.custom(
        GAN_ACTIVATE,
        { a: B, b: layout.dim, c: layout.nScalar, code: layout.spans.length, f0: 1 / GUMBEL_TAU },
        [spanPrm(this.rowWidth, rowBase), raw, this.soft > 0 ? gumbel : this.dummy, out],
        this.linear(B),
      );
      return gh.slice();
    };

    // Critic buffers, 2G rows (the generator step uses the first G).
    const critic: CriticBuffers = {
      a: tensors(
        'd a',
        this.dOut.map((o) => 2 * G * o),
      ),
      h: tensors(
        'd h',
        this.dOut.map((o) => 2 * G * o),
      ),
      y: rt.tensor(2 * G, 'd y'),
      dh: tensors(
        'd dh',
        this.dOut.map((o) => 2 * G * o),
      ),
      dz: tensors(
        'd dz',
        this.dOut.map((o) => 2 * G * o),
      ),
    };
    const recordCritic = (x0: Tensor, rows: number, masks: Tensor[]) => {
      let x = x0;
      for (let l = 0; l < DL; l++) {
        const o = this.dOut[l];
        this.matmul(x, this.d.get(`d${l}.w`), critic.a[l], rows, o, this.dIn[l], { bias: this.d.get(`d${l}.b`), activation: 'leaky_relu' });
        this.custom(GAN_DROPOUT, { a: rows, b: o, code: 0 }, [critic.a[l], masks[l], critic.a[l], critic.h[l]], this.linear(rows * o));
        x = critic.h[l];
      }
      this.matmul(x, this.d.get('dout.w'), critic.y, rows, 1, this.dOut[DL - 1], { bias: this.d.get('dout.b') });
    };
    /** From d loss / d y (dy, rows × 1) down the critic: its weight gradients into `grads`, and/or d loss / d input. */
    const recordCriticBackward = (x0: Tensor, rows: number, masks: Tensor[], dy: Tensor, grads: boolean, dInput: Tensor | null) => {
      const last = this.dOut[DL - 1];
      if (grads) {
        this.matmul(critic.h[DL - 1], dy, this.d.grad('dout.w'), last, 1, rows, { transA: true });
        rt.columnSums(this.program, { x: dy, out: this.d.grad('dout.b'), rows, N: 1 });
      }
      this.matmul(dy, this.d.get('dout.w'), critic.dh[DL - 1], rows, last, 1, { transB: true });
      for (let l = DL - 1; l >= 0; l--) {
        const [i, o] = [this.dIn[l], this.dOut[l]];
        this.custom(GAN_DROPOUT, { a: rows, b: o, code: 1 }, [critic.dh[l], masks[l], critic.a[l], critic.dz[l]], this.linear(rows * o));
        if (grads) {
          this.matmul(l === 0 ? x0 : critic.h[l - 1], critic.dz[l], this.d.grad(`d${l}.w`), i, o, rows, { transA: true });
          rt.columnSums(this.program, { x: critic.dz[l], out: this.d.grad(`d${l}.b`), rows, N: o });
        }
        if (l > 0) this.matmul(critic.dz[l], this.d.get(`d${l}.w`), critic.dh[l - 1], rows, i, o, { transB: true });
        else if (dInput) this.matmul(critic.dz[0], this.d.get('d0.w'), dInput, rows, i, o, { transB: true });
      }
    };

    // ---- critic step ----
    const c = this.inputs.critic;
    recordGenerator(c.input, c.gumbel, this.criticInput, B);
    recordCritic(this.criticInput, 2 * G, c.masks);
    this.custom(GAN_LOSSES, { a: G, b: 0, code: 0 }, [critic.y, this.dummy, this.losses], [1, 1]);
    // d(mean D(fake) − mean D(real)) / dy: −1/G on the real rows, 1/G on the fake ones.
    const criticDy = rt.tensor(
      Float32Array.from({ length: 2 * G }, (_, r) => (r < G ? -1 : 1) / G),
      'critic dy',
    );
    recordCriticBackward(this.criticInput, 2 * G, c.masks, criticDy, true, null);
    recordGradientPenalty(rt, this.program, {
      weight: (name) => this.d.get(name),
      grads: (name) => this.penaltyGrads.parts[this.d.names.indexOf(name)],
      dIn: this.dIn,
      dOut: this.dOut,
      groups: G,
      packed: this.criticInput,
      alpha: c.alpha,
      masks: c.penaltyMasks,
      losses: this.losses,
    });
    const n = this.penaltyGrads.whole.length;
    this.custom(GAN_COPY_COLUMNS, { a: 1, b: n, code: 1 }, [this.prm([n, 0, n, 0]), this.penaltyGrads.whole, this.d.grads.whole], this.linear(n));
    rt.adam(this.program, { params: this.d.values.whole, grad: this.d.grads.whole, m: this.d.m.whole, v: this.d.v.whole, decay: this.d.decay, l2: CTGAN_ADAM.weightDecay / 2 });

    // ---- generator step ----
    const g = this.inputs.generator;
    const h = recordGenerator(g.input, g.gumbel, this.generatorCriticInput, 0);
    recordCritic(this.generatorCriticInput, G, g.masks);
    const dInput = rt.tensor(B * this.rowWidth, 'critic d input');
    recordCriticBackward(this.generatorCriticInput, G, g.masks, rt.tensor(new Float32Array(G).fill(-1 / G), 'generator dy'), false, dInput);
    const dRaw = rt.tensor(B * layout.dim, 'g d raw');
    const ce = rt.tensor(B, 'g ce');
    const withCond = layout.condDim > 0;
    this.custom(
      GAN_OUTPUT_GRAD,
      { a: B, b: layout.dim, c: layout.nScalar, code: layout.spans.length, f0: 1 / GUMBEL_TAU, f1: 1 / B },
      [spanPrm(this.rowWidth, withCond ? 1 : 0), dInput, this.generatorCriticInput, raw, g.target, g.spanMask, dRaw, ce],
      this.linear(B),
    );
    this.custom(GAN_LOSSES, { a: G, b: withCond ? B : 0, code: 1 }, [critic.y, ce, this.losses], [1, 1]);
    const dh = [
      null,
      ...tensors(
        'g dh',
        this.gIn.slice(1).map((w) => B * w),
      ),
    ] as Tensor[];
    const dz = tensors(
      'g dz',
      this.gOut.map((o) => B * o),
    );
    this.matmul(h[L], dRaw, this.g.grad('gout.w'), this.gIn[L], layout.dim, B, { transA: true });
    rt.columnSums(this.program, { x: dRaw, out: this.g.grad('gout.b'), rows: B, N: layout.dim });
    if (L > 0) this.matmul(dRaw, this.g.get('gout.w'), dh[L], B, this.gIn[L], layout.dim, { transB: true });
    for (let l = L - 1; l >= 0; l--) {
      const [w, o] = [this.gIn[l], this.gOut[l]];
      const stride = this.prm([w + o]);
      this.custom(GAN_BN_GRAD_SUMS, { a: B, b: o }, [stride, dh[l + 1], h[l + 1], z[l], stats[l], this.g.grad(`g${l}.gamma`), this.g.grad(`g${l}.beta`)], [Math.ceil(o / 16), 1]);
      this.custom(GAN_BN_GRAD, { a: B, b: o }, [stride, dh[l + 1], h[l + 1], z[l], stats[l], this.g.get(`g${l}.gamma`), dz[l]], this.linear(B * o));
      this.matmul(h[l], dz[l], this.g.grad(`g${l}.w`), w, o, B, { transA: true });
      rt.columnSums(this.program, { x: dz[l], out: this.g.grad(`g${l}.b`), rows: B, N: o });
      if (l > 0) {
        this.matmul(dz[l], this.g.get(`g${l}.w`), dh[l], B, w, o, { transB: true });
        // The residual concatenation's passthrough: h_l's gradient also flows straight from h_{l+1}'s right part.
        this.custom(GAN_COPY_COLUMNS, { a: B, b: w, code: 1 }, [this.prm([w + o, o, w, 0]), dh[l + 1], dh[l]], this.linear(B * w));
      }
    }
    rt.adam(this.program, { params: this.g.values.whole, grad: this.g.grads.whole, m: this.g.m.whole, v: this.g.v.whole, decay: this.g.decay, l2: CTGAN_ADAM.weightDecay / 2 });
  }

  /** 'device' mode: the step's noise, Gumbel noise, α and dropout masks, one stream each, at the program's start. */
  private recordRandom(key: number): void {
    const { B, G, soft } = this;
    const emb = this.config.embedding_dim;
    const inputWidth = emb + this.layout.condDim;
    let stream = 0;
    const fill = (t: Tensor, kind: keyof typeof RANDOM_KIND, rows: number, width: number, stride = width) =>
      this.custom(GAN_RANDOM, { a: rows, b: width, code: RANDOM_KIND[kind], f0: DROPOUT_RATE }, [this.prm([stride, 0, key, stream++]), t], this.linear(rows * width));
    const c = this.inputs.critic;
    const g = this.inputs.generator;
    fill(c.input, 'normal', B, emb, inputWidth);
    if (soft > 0) fill(c.gumbel, 'gumbel', B, soft);
    fill(c.alpha, 'uniform', G, 1);
    c.masks.forEach((m, l) => fill(m, 'dropout', 2 * G, this.dOut[l]));
    c.penaltyMasks.forEach((m, l) => fill(m, 'dropout', G, this.dOut[l]));
    fill(g.input, 'normal', B, emb, inputWidth);
    if (soft > 0) fill(g.gumbel, 'gumbel', B, soft);
    g.masks.forEach((m, l) => fill(m, 'dropout', G, this.dOut[l]));
  }

  // ---- stepping --------------------------------------------------------------------------------------------------

  /**
   * The host draws of one step, in CtganTrainer.step's order, into the step buffers: conditions, permutation and real
   * rows; noise; Gumbel noise; α; the critic's dropout masks (real ++ fake pass, then the penalty's pass); then the
   * generator step's conditions, noise, Gumbel noise and the critic's masks.
   */
  private drawStep(rng: NeuralRng): void {
    const { B, layout } = this;
    const condDim = layout.condDim;
    const emb = this.config.embedding_dim;
    const fc = this.fakeCond;
    if (condDim > 0) {
      this.sampler.sampleTrain(fc, rng);
      for (let i = 0; i < B; i++) this.perm[i] = i;
      rng.shuffle(this.perm);
      const col = new Int32Array(B);
      const cat = new Int32Array(B);
      for (let i = 0; i < B; i++) {
        const p = this.perm[i];
        col[i] = fc.column[p];
        cat[i] = fc.category[p];
        this.realCond.set(fc.cond.subarray(p * condDim, (p + 1) * condDim), i * condDim);
      }
      this.sampler.realRows(col, cat, rng, this.rows);
    } else {
      this.sampler.uniformRows(rng, this.rows);
    }
    const W = this.rowWidth;
    const dim = layout.dim;
    const crit = this.criticHost;
    for (let i = 0; i < B; i++) {
      crit.set(this.encoded.subarray(this.rows[i] * dim, (this.rows[i] + 1) * dim), i * W);
      if (condDim > 0) {
        crit.set(this.realCond.subarray(i * condDim, (i + 1) * condDim), i * W + dim);
        crit.set(fc.cond.subarray(i * condDim, (i + 1) * condDim), (B + i) * W + dim);
      }
    }
    const host = this.randomKey === null;
    const c = this.inputs.critic;
    this.writeGeneratorInput(c.input, host ? hostDraws.normal(B * emb, rng) : null, fc.cond);
    if (host) {
      if (this.soft > 0) this.view(c.gumbel).set(hostDraws.gumbel(B * this.soft, rng));
      this.view(c.alpha).set(hostDraws.uniform(this.G, rng));
      c.masks.forEach((m) => this.view(m).set(hostDraws.dropout(m.length, DROPOUT_RATE, rng)));
      c.penaltyMasks.forEach((m) => this.view(m).set(hostDraws.dropout(m.length, DROPOUT_RATE, rng)));
    }

    const g = this.inputs.generator;
    if (condDim > 0) {
      this.sampler.sampleTrain(fc, rng);
      this.view(g.target).set(fc.target);
      this.view(g.spanMask).set(fc.mask);
      for (let i = 0; i < B; i++) this.generatorCriticHost.set(fc.cond.subarray(i * condDim, (i + 1) * condDim), i * W + dim);
    }
    this.writeGeneratorInput(g.input, host ? hostDraws.normal(B * emb, rng) : null, fc.cond);
    if (host) {
      if (this.soft > 0) this.view(g.gumbel).set(hostDraws.gumbel(B * this.soft, rng));
      g.masks.forEach((m) => this.view(m).set(hostDraws.dropout(m.length, DROPOUT_RATE, rng)));
    }
  }

  /** noise ++ conditional vector, row by row (without noise, the conditions only: the GPU writes the noise). */
  private writeGeneratorInput(t: Tensor, noise: Float32Array | null, cond: Float32Array): void {
    const emb = this.config.embedding_dim;
    const condDim = this.layout.condDim;
    const out = this.view(t);
    const w = emb + condDim;
    for (let i = 0; i < this.B; i++) {
      if (noise) out.set(noise.subarray(i * emb, (i + 1) * emb), i * w);
      if (condDim > 0) out.set(cond.subarray(i * condDim, (i + 1) * condDim), i * w + emb);
    }
  }

  /** One critic step and one generator step: the draws, a few buffer writes, one command buffer. */
  step(rng: NeuralRng): void {
    this.drawStep(rng);
    if (this.randomKey === null) this.rt.write(this.inputs.whole, this.inputs.host);
    else {
      // Only what the host made: the generator inputs' condition columns (the GPU then fills the noise columns) and
      // the conditioned spans.
      const g = this.inputs.generator;
      for (const t of [this.inputs.critic.input, g.input, ...(this.layout.condDim > 0 ? [g.target, g.spanMask] : [])]) this.rt.write(t, this.view(t));
    }
    this.rt.write(this.criticInput, this.criticHost);
    if (this.layout.condDim > 0) this.rt.write(this.generatorCriticInput, this.generatorCriticHost);
    // Both networks take one Adam step per training step, so one step count (and one set of corrections) serves both.
    const t = this.steps.d + 1;
    const { lr, beta1, beta2, eps } = CTGAN_ADAM;
    // slot: the step number, GAN_RANDOM's counter (no kernel of this graph uses a loss slot).
    const values: StepValues = { rows: this.B, slot: t, lr, beta1, beta2, eps, c1: 1 - beta1 ** t, c2: 1 - beta2 ** t };
    this.rt.run(this.program, values);
    this.steps = { g: t, d: t };
  }

  async epoch(rng: NeuralRng, checkCancel: () => void): Promise<CtganLosses> {
    for (let s = 0; s < this.stepsPerEpoch; s++) {
      try {
        checkCancel();
      } catch (err) {
        await this.rt.idle();
        throw err;
      }
      this.step(rng);
    }
    return this.readLosses();
  }

  /** The last step's [loss_g, loss_d, penalty] (waits for the GPU). */
  async readLosses(): Promise<CtganLosses> {
    const [lossG, lossD, penalty] = await this.rt.read(this.losses);
    return { loss_g: lossG, loss_d: lossD, penalty };
  }

  async readState(): Promise<{ tensors: Record<string, TensorData>; steps: CtganSteps }> {
    const tensors: Record<string, TensorData> = {};
    for (const [prefix, values] of [
      ['G/', await this.g.read()],
      ['D/', await this.d.read()],
      ['AG/', await this.g.readMoments()],
      ['AD/', await this.d.readMoments()],
    ] as const) {
      for (const [k, v] of Object.entries(values)) tensors[`${prefix}${k}`] = v;
    }
    return { tensors, steps: { ...this.steps } };
  }

  writeState(tensors: Record<string, TensorData>, steps: CtganSteps): void {
    if (steps.g !== steps.d) throw new Error(`the GPU CTGAN trainer keeps one Adam step count for both networks (got g ${steps.g}, d ${steps.d})`);
    const pick = (prefix: string) => Object.fromEntries(Object.entries(tensors).flatMap(([k, v]) => (k.startsWith(prefix) ? [[k.slice(prefix.length), v]] : [])));
    this.g.write(pick('G/'));
    this.d.write(pick('D/'));
    this.g.writeMoments(pick('AG/'));
    this.d.writeMoments(pick('AD/'));
    this.steps = { ...steps };
  }

  /** The generator's weights, as CtganTrainer.generatorWeights. */
  modelWeights(): Promise<Record<string, TensorData>> {
    return this.g.read();
  }

  /** The critic's weights (tests compare them with the CPU trainer's). */
  criticWeights(): Promise<Record<string, TensorData>> {
    return this.d.read();
  }

  /** Nothing beyond the runtime's buffers, which the caller destroys with the runtime. */
  dispose(): void {}
}

export const createGpuCtganTrainer: GpuCtganTrainerFactory = (rt, layout, encoded, nrows, config, rng, options) => new GpuCtgan(rt, layout, encoded, nrows, config, rng, options);

/** Why this configuration needs the CPU trainer on this device (a buffer past its binding limit), or null. */
export const ctganGpuUnsupported: GpuNeuralUnsupported<CtganConfig> = (config, layout, device) => {
  const B = config.batch_size;
  const rowWidth = layout.dim + layout.condDim;
  const genWidth = config.embedding_dim + layout.condDim + config.generator_dim.reduce((a, b) => a + b, 0);
  const widest = Math.max(...config.discriminator_dim, layout.dim);
  const floats = Math.max(2 * B * rowWidth, B * genWidth, rowWidth * config.pac * config.discriminator_dim[0], genWidth * widest, B * widest);
  const limit = device.limits.maxStorageBufferBindingSize;
  const bindings = device.limits.maxStorageBuffersPerShaderStage;
  if (bindings < MAX_STORAGE_BINDINGS) return `the device binds ${bindings} storage buffers per stage (${MAX_STORAGE_BINDINGS} needed)`;
  return floats * 4 > limit ? `a CTGAN buffer of ${floats * 4} bytes exceeds this GPU's storage binding limit (${limit} bytes)` : null;
};

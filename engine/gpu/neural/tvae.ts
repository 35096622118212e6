/// <reference types="@webgpu/types" />
/**
 * TVAE on the GPU: engine/synth/neural/tvae.ts's TvaeTrainer (the ctgan package's TVAE: 128-128 ReLU encoder, mean
 * and log-variance heads, 128-128 ReLU decoder, learned output scales clamped to [0.01, 1], loss factor 2, KL term,
 * Adam 1e-3 with L2 1e-5) as one static graph, one command buffer a step:
 *
 *   forward   x → enc0 → enc1 → (mu, logvar) → z = eps·e^(logvar/2) + mu → dec0 → dec1 → rec
 *   loss      reconstruction sum and its gradients (vae_reconstruction), + KL (vae_kl), into the loss slot
 *   backward  per layer Hᵀ·dZ, column sums, dZ·Wᵀ with ReLU's gradient fused; the heads' gradients (vae_latent_gradient)
 *   update    one Adam dispatch over every parameter (packed in one buffer), then the scales' clamp
 *
 * Randomness: the batch order (a shuffle per epoch) and each step's eps are drawn on the host from the fit's NeuralRng
 * exactly as the CPU trainer draws them (host mode only: eps is rows × embedding floats a step, small next to the
 * step's products, so an on-GPU generator would save little), and the batch's rows are gathered on the host; so a
 * seed gives the CPU's losses and weights within float rounding.
 */
import { TVAE_FIXED } from '../../synth/neural/config';
import { hostDraws, linearInit } from '../../synth/neural/host-random';
import type { NeuralRng } from '../../synth/neural/rng';
import type { Layout } from '../../synth/neural/transformer';
import type { TvaeConfig } from '../../synth/types';
import { CLAMP, SUM_ACTIVATION_GRADIENT, VAE_KL, VAE_LATENT_GRADIENT, VAE_RECONSTRUCTION, VAE_REPARAMETERISE } from '../kernels-vae';
import { GpuRuntime, Program, Tensor } from '../runtime';
import type { GpuNeuralOptions, GpuNeuralUnsupported, GpuTvaeTrainer, GpuTvaeTrainerFactory, TensorData, TvaeLosses } from './trainer';

/** Steps queued between waits for the GPU: bounds the queue and lets the event loop run (cancel, heartbeats). */
const STEPS_BETWEEN_WAITS = 16;

interface Param {
  name: string;
  shape: number[];
}

/** TvaeTrainer's parameters in its order (ParamSet order: the Adam moments' flat layout and the rng's draws). */
function tvaeParams(layout: Layout, config: TvaeConfig): Param[] {
  const out: Param[] = [];
  const linear = (name: string, fanIn: number, fanOut: number) => out.push({ name: `${name}.w`, shape: [fanIn, fanOut] }, { name: `${name}.b`, shape: [fanOut] });
  let width = layout.dim;
  TVAE_FIXED.compress_dims.forEach((o, l) => {
    linear(`enc${l}`, width, o);
    width = o;
  });
  linear('mu', width, config.embedding_dim);
  linear('logvar', width, config.embedding_dim);
  width = config.embedding_dim;
  TVAE_FIXED.decompress_dims.forEach((o, l) => {
    linear(`dec${l}`, width, o);
    width = o;
  });
  linear('decout', width, layout.dim);
  if (layout.nScalar > 0) out.push({ name: 'sigma', shape: [layout.nScalar] });
  return out;
}

const size = (shape: number[]) => shape.reduce((a, b) => a * b, 1);

export class GpuTvae implements GpuTvaeTrainer {
  private readonly params: Param[];
  private readonly weights: { whole: Tensor; parts: Tensor[] };
  private readonly m: { whole: Tensor; parts: Tensor[] };
  private readonly v: { whole: Tensor; parts: Tensor[] };
  private readonly program = new Program();
  private readonly x: Tensor;
  private readonly eps: Tensor;
  private readonly losses: Tensor;
  private readonly order: Int32Array;
  /** Rows a step holds: the batch size, or every row when there are fewer. */
  private readonly capacity: number;
  private readonly batchX: Float32Array;
  private steps = 0;

  constructor(
    private readonly rt: GpuRuntime,
    readonly layout: Layout,
    private readonly encoded: Float32Array,
    readonly nrows: number,
    readonly config: TvaeConfig,
    rng: NeuralRng,
    options: GpuNeuralOptions = {},
  ) {
    if (options.random === 'device') throw new Error('the GPU TVAE draws its random numbers on the host only');
    const { dim: D, nScalar: S } = layout;
    const E = config.embedding_dim;
    this.params = tvaeParams(layout, config);
    const lengths = this.params.map((p) => size(p.shape));
    this.weights = rt.packed(lengths, 'tvae params');
    const grads = rt.packed(lengths, 'tvae grads');
    this.m = rt.packed(lengths, 'tvae adam m');
    this.v = rt.packed(lengths, 'tvae adam v');
    // PyTorch's weight_decay applies to every parameter; the Adam kernel adds 2·l2·p where the mask is 1.
    const decay = rt.packed(lengths, 'tvae decay mask');
    decay.parts.forEach((t) => rt.write(t, new Float32Array(t.length).fill(1)));
    // Initial values drawn as TvaeTrainer's constructor draws them: each linear layer's weight then bias, in order.
    for (let i = 0; i < this.params.length; i++) {
      const p = this.params[i];
      if (p.name === 'sigma') rt.write(this.weights.parts[i], new Float32Array(S).fill(0.1));
      else if (p.name.endsWith('.w')) {
        const { w, b } = linearInit(p.shape[0], p.shape[1], rng);
        rt.write(this.weights.parts[i], w);
        rt.write(this.weights.parts[i + 1], b);
      }
    }
    const W = (name: string) => this.weights.parts[this.index(name)];
    const G = (name: string) => grads.parts[this.index(name)];

    const B = (this.capacity = Math.min(config.batch_size, nrows));
    const rows = { rows: B };
    this.batchX = new Float32Array(B * D);
    this.order = Int32Array.from({ length: nrows }, (_, i) => i);
    this.x = rt.tensor(B * D, 'tvae x');
    this.eps = rt.tensor(B * E, 'tvae eps');
    this.losses = rt.tensor(1, 'tvae loss');
    const p = this.program;
    const relu = 'relu' as const;

    // Forward. h[l]: the encoder's activations (h[0] = x), d[l]: the decoder's (d[0] = z).
    const enc = TVAE_FIXED.compress_dims;
    const dec = TVAE_FIXED.decompress_dims;
    const h: Tensor[] = [this.x];
    const hw = [D, ...enc];
    enc.forEach((o, l) => {
      h.push(rt.tensor(B * o, `tvae h${l + 1}`));
      rt.matmul(p, { a: h[l], b: W(`enc${l}.w`), c: h[l + 1], M: rows, N: o, K: hw[l], epilogue: 'bias_act', extra: W(`enc${l}.b`), activation: relu });
    });
    const top = h[enc.length];
    const topWidth = hw[enc.length];
    const mu = rt.tensor(B * E, 'tvae mu');
    const lv = rt.tensor(B * E, 'tvae logvar');
    rt.matmul(p, { a: top, b: W('mu.w'), c: mu, M: rows, N: E, K: topWidth, epilogue: 'bias_act', extra: W('mu.b'), activation: 'identity' });
    rt.matmul(p, { a: top, b: W('logvar.w'), c: lv, M: rows, N: E, K: topWidth, epilogue: 'bias_act', extra: W('logvar.b'), activation: 'identity' });
    const z = rt.tensor(B * E, 'tvae z');
    rt.custom(p, VAE_REPARAMETERISE, { a: rows, b: E }, [mu, lv, this.eps, z], rt.linearWorkgroups(B * E));
    const d: Tensor[] = [z];
    const dw = [E, ...dec];
    dec.forEach((o, l) => {
      d.push(rt.tensor(B * o, `tvae d${l + 1}`));
      rt.matmul(p, { a: d[l], b: W(`dec${l}.w`), c: d[l + 1], M: rows, N: o, K: dw[l], epilogue: 'bias_act', extra: W(`dec${l}.b`), activation: relu });
    });
    const rec = rt.tensor(B * D, 'tvae rec');
    const decTop = d[dec.length];
    const decTopWidth = dw[dec.length];
    rt.matmul(p, { a: decTop, b: W('decout.w'), c: rec, M: rows, N: D, K: decTopWidth, epilogue: 'bias_act', extra: W('decout.b'), activation: 'identity' });

    // Loss and its gradient with respect to rec (and sigma).
    const spanTable = new Float32Array(Math.max(2, layout.spans.length * 2));
    layout.spans.forEach((s, k) => spanTable.set([s.offset, s.width], 2 * k));
    const spans = rt.tensor(spanTable, 'tvae spans');
    const dRec = rt.tensor(B * D, 'tvae dRec');
    const sigma = S > 0 ? W('sigma') : rt.tensor(1, 'no sigma');
    const dSigma = S > 0 ? G('sigma') : rt.tensor(1, 'no sigma grad');
    rt.custom(p, VAE_RECONSTRUCTION, { a: rows, b: D, c: S, code: layout.spans.length, f0: TVAE_FIXED.loss_factor }, [rec, this.x, sigma, spans, dRec, dSigma, this.losses], [1, 1]);
    rt.custom(p, VAE_KL, { a: rows, b: E }, [mu, lv, this.losses], [1, 1]);

    // Backward through the decoder: dd[l] is the gradient at d[l]'s pre-activation (dd[0]: at z).
    let upper = dRec;
    let upperWidth = D;
    let upperName = 'decout';
    for (let l = dec.length; l >= 0; l--) {
      const below = d[l];
      const belowWidth = dw[l];
      rt.matmul(p, { a: below, b: upper, c: G(`${upperName}.w`), M: belowWidth, N: upperWidth, K: rows, transA: true });
      rt.columnSums(p, { x: upper, out: G(`${upperName}.b`), rows, N: upperWidth });
      const grad = rt.tensor(B * belowWidth, `tvae dd${l}`);
      if (l > 0) rt.matmul(p, { a: upper, b: W(`${upperName}.w`), c: grad, M: rows, N: belowWidth, K: upperWidth, transB: true, epilogue: 'act_grad', extra: below, activation: relu });
      else rt.matmul(p, { a: upper, b: W(`${upperName}.w`), c: grad, M: rows, N: belowWidth, K: upperWidth, transB: true });
      upper = grad;
      upperWidth = belowWidth;
      upperName = `dec${l - 1}`;
    }
    // The heads: their gradients from dz and the KL term, then both into the encoder's top layer.
    const dMu = rt.tensor(B * E, 'tvae dMu');
    const dLv = rt.tensor(B * E, 'tvae dLogvar');
    rt.custom(p, VAE_LATENT_GRADIENT, { a: rows, b: E }, [upper, mu, lv, this.eps, dMu, dLv], rt.linearWorkgroups(B * E));
    for (const [name, g] of [
      ['mu', dMu],
      ['logvar', dLv],
    ] as const) {
      rt.matmul(p, { a: top, b: g, c: G(`${name}.w`), M: topWidth, N: E, K: rows, transA: true });
      rt.columnSums(p, { x: g, out: G(`${name}.b`), rows, N: E });
    }
    const fromMu = rt.tensor(B * topWidth, 'tvae dTop from mu');
    const fromLv = rt.tensor(B * topWidth, 'tvae dTop from logvar');
    rt.matmul(p, { a: dMu, b: W('mu.w'), c: fromMu, M: rows, N: topWidth, K: E, transB: true });
    rt.matmul(p, { a: dLv, b: W('logvar.w'), c: fromLv, M: rows, N: topWidth, K: E, transB: true });
    upper = rt.tensor(B * topWidth, 'tvae dTop');
    rt.custom(p, SUM_ACTIVATION_GRADIENT, { a: rows, b: topWidth, code: 1 /* relu */ }, [fromMu, fromLv, top, upper], rt.linearWorkgroups(B * topWidth));
    // Backward through the encoder.
    for (let l = enc.length - 1; l >= 0; l--) {
      const below = h[l];
      rt.matmul(p, { a: below, b: upper, c: G(`enc${l}.w`), M: hw[l], N: hw[l + 1], K: rows, transA: true });
      rt.columnSums(p, { x: upper, out: G(`enc${l}.b`), rows, N: hw[l + 1] });
      if (l === 0) break;
      const grad = rt.tensor(B * hw[l], `tvae dh${l}`);
      rt.matmul(p, { a: upper, b: W(`enc${l}.w`), c: grad, M: rows, N: hw[l], K: hw[l + 1], transB: true, epilogue: 'act_grad', extra: below, activation: relu });
      upper = grad;
    }
    rt.adam(p, { params: this.weights.whole, grad: grads.whole, m: this.m.whole, v: this.v.whole, decay: decay.whole, l2: TVAE_FIXED.l2scale / 2 });
    if (S > 0) rt.custom(p, CLAMP, { a: S, f0: 0.01, f1: 1 }, [W('sigma')], rt.linearWorkgroups(S));
  }

  private index(name: string): number {
    const i = this.params.findIndex((p) => p.name === name);
    if (i < 0) throw new Error(`unknown TVAE parameter ${name}`);
    return i;
  }

  /** TvaeTrainer's: ceil(rows / batch_size). */
  get stepsPerEpoch(): number {
    return Math.ceil(this.nrows / this.config.batch_size);
  }

  async epoch(rng: NeuralRng, checkCancel: () => void): Promise<TvaeLosses> {
    rng.shuffle(this.order);
    const B = this.config.batch_size;
    let queued = 0;
    for (let s = 0; s < this.nrows; s += B) {
      checkCancel();
      this.submitStep(this.order.subarray(s, Math.min(this.nrows, s + B)), rng);
      if (++queued % STEPS_BETWEEN_WAITS === 0) await this.rt.idle();
    }
    return { loss: await this.lastLoss() };
  }

  /**
   * One training step on these rows (at most the batch size): gathers them, draws the step's noise from `rng`, submits
   * one command buffer. Does not wait for the GPU.
   */
  submitStep(rows: Int32Array, rng: NeuralRng): void {
    const m = rows.length;
    if (m < 1 || m > this.capacity) throw new Error(`a TVAE step takes 1 to ${this.capacity} rows, not ${m}`);
    const D = this.layout.dim;
    for (let i = 0; i < m; i++) this.batchX.set(this.encoded.subarray(rows[i] * D, (rows[i] + 1) * D), i * D);
    this.rt.write(this.x, this.batchX.subarray(0, m * D));
    this.rt.write(this.eps, hostDraws.normal(m * this.config.embedding_dim, rng));
    this.steps++;
    // Bias corrections in double precision, as the CPU Adam computes them.
    this.rt.run(this.program, { rows: m, slot: 0, lr: TVAE_FIXED.lr, beta1: 0.9, beta2: 0.999, eps: 1e-8, c1: 1 - 0.9 ** this.steps, c2: 1 - 0.999 ** this.steps });
  }

  /** The loss of the last step submitted (waits for it). */
  async lastLoss(): Promise<number> {
    return (await this.rt.read(this.losses))[0];
  }

  /** Parameters as `N/<name>`, the Adam moments as `A/m`, `A/v` (flat, parameter order), and the step count. */
  async readState(): Promise<{ tensors: Record<string, TensorData>; steps: number }> {
    const [w, m, v] = await Promise.all([this.rt.read(this.weights.whole), this.rt.read(this.m.whole), this.rt.read(this.v.whole)]);
    const tensors: Record<string, TensorData> = {};
    this.params.forEach((p, i) => (tensors[`N/${p.name}`] = { shape: p.shape.slice(), data: this.slice(w, i) }));
    tensors['A/m'] = this.flat(m);
    tensors['A/v'] = this.flat(v);
    return { tensors, steps: this.steps };
  }

  writeState(tensors: Record<string, TensorData>, steps: number): void {
    const total = this.params.reduce((a, p) => a + size(p.shape), 0);
    this.params.forEach((p) => {
      const t = tensors[`N/${p.name}`];
      if (!t || t.data.length !== size(p.shape)) throw new Error(`parameter ${p.name} is missing or has another shape`);
    });
    const m = tensors['A/m'];
    const v = tensors['A/v'];
    if (!m || !v || m.data.length !== total || v.data.length !== total) throw new Error('optimizer state is missing or has another shape');
    let offset = 0;
    this.params.forEach((p, i) => {
      const n = size(p.shape);
      this.rt.write(this.weights.parts[i], tensors[`N/${p.name}`].data);
      this.rt.write(this.m.parts[i], m.data.subarray(offset, offset + n));
      this.rt.write(this.v.parts[i], v.data.subarray(offset, offset + n));
      offset += n;
    });
    this.steps = steps;
  }

  /** TvaeTrainer.decoderWeights(): the decoder's weights and the output scales, in parameter order. */
  async modelWeights(): Promise<Record<string, TensorData>> {
    const w = await this.rt.read(this.weights.whole);
    const out: Record<string, TensorData> = {};
    this.params.forEach((p, i) => {
      if (p.name.startsWith('dec') || p.name === 'sigma') out[p.name] = { shape: p.shape.slice(), data: this.slice(w, i) };
    });
    return out;
  }

  /** Nothing beyond the runtime's buffers (the caller destroys the runtime). */
  dispose(): void {}

  private slice(whole: Float32Array, i: number): Float32Array {
    const t = this.weights.parts[i];
    return whole.slice(t.offset, t.offset + t.length);
  }

  /** A packed buffer's parts concatenated without their alignment gaps (the CPU Adam's flat moments). */
  private flat(whole: Float32Array): TensorData {
    const out = new Float32Array(this.params.reduce((a, p) => a + size(p.shape), 0));
    let offset = 0;
    this.params.forEach((_, i) => {
      const part = this.slice(whole, i);
      out.set(part, offset);
      offset += part.length;
    });
    return { shape: [out.length], data: out };
  }
}

/** The largest buffer the graph binds, in floats: a batch's widest activation, or the packed parameters. */
function largestBinding(layout: Layout, config: TvaeConfig): number {
  const E = config.embedding_dim;
  const H = Math.max(...TVAE_FIXED.compress_dims, ...TVAE_FIXED.decompress_dims);
  const params = tvaeParams(layout, config).reduce((a, p) => a + size(p.shape), 0);
  // Each parameter may be padded to the storage-offset alignment (at most 256 floats).
  return Math.max(config.batch_size * Math.max(layout.dim, E, H), params + 256 * tvaeParams(layout, config).length);
}

/** The most storage buffers one of the graph's kernels binds (vae_reconstruction). */
const STORAGE_BINDINGS = 7;

/** Why this configuration needs the CPU trainer on this device, or null. */
export const tvaeGpuUnsupported: GpuNeuralUnsupported<TvaeConfig> = (config, layout, device) => {
  const { maxStorageBuffersPerShaderStage: bindings, maxStorageBufferBindingSize: limit } = device.limits;
  if (bindings < STORAGE_BINDINGS) return `the device binds ${bindings} storage buffers per stage (${STORAGE_BINDINGS} needed)`;
  const bytes = 4 * largestBinding(layout, config);
  return bytes > limit ? `a TVAE buffer of ${bytes} bytes exceeds this GPU's storage binding limit (${limit} bytes)` : null;
};

/** The factory of trainer.ts's contract. */
export const createGpuTvaeTrainer: GpuTvaeTrainerFactory = (rt, layout, encoded, nrows, config, rng, options) => new GpuTvae(rt, layout, encoded, nrows, config, rng, options);

/**
 * CTGAN (Xu et al. 2019, "Modeling Tabular Data using Conditional GAN"), as the ctgan package trains it:
 *
 * - Generator: input noise (embedding_dim) ++ conditional vector, then per `generator_dim` width a residual layer
 *   h <- [relu(batchnorm(h W + b)), h] (batch statistics, as the package, which never switches to eval mode), then a
 *   linear layer to the row vector; tanh on the scalars and a Gumbel-softmax (tau 0.2) on every span.
 * - Discriminator (PacGAN): `pac` rows ++ their conditional vectors are concatenated into one input; per
 *   `discriminator_dim` width linear + LeakyReLU(0.2) + dropout(0.5), then linear to one score.
 * - WGAN-GP: the critic minimises mean D(fake) - mean D(real) + 10 * mean((||grad D(interp)||_2 - 1)^2) with the
 *   gradient norm taken over each pac group; the generator minimises -mean D(fake) plus the cross-entropy of its
 *   logits on the conditioned column. One critic step per generator step, max(1, rows / batch_size) steps per
 *   epoch. Adam(lr 2e-4, betas 0.5 / 0.9, weight decay 1e-6) for both.
 *
 * The gradient penalty needs a gradient of a gradient. TensorFlow.js records the inner gradient's ops on the outer
 * tape, so tf.grad inside tf.variableGrads works, provided every op on the critic's path has a differentiable
 * gradient: tf.leakyRelu's does not (it uses `greater`), so the penalty pass uses leakyRelu02 (same function).
 */
import * as tf from '@tensorflow/tfjs';
import type { CtganConfig } from '../types';
import { CondBatch, CondSampler } from './cond-sampler';
import { Adam, dense, leakyRelu02, ParamSet, TensorData } from './params';
import { bnRelu, fusedAvailable } from './fused';
import { dropoutMask, normalTensor, uniformTensor } from './noise';
import { NeuralRng } from './rng';
import { applyActivate, spanCrossEntropySum } from './span-ops';
import type { Layout } from './transformer';

export const CTGAN_ADAM = { lr: 2e-4, beta1: 0.5, beta2: 0.9, eps: 1e-8, weightDecay: 1e-6 };
export const GP_LAMBDA = 10;
const BN_EPS = 1e-5;

type Weights = (name: string) => tf.Tensor;

/** The generator's forward pass: raw outputs (logits for spans, pre-tanh scalars) for rows of noise ++ condition. */
export function generatorForward(w: Weights, layers: number, input: tf.Tensor2D): tf.Tensor2D {
  let h = input;
  const fused = fusedAvailable();
  for (let l = 0; l < layers; l++) {
    const z = dense(h, w(`g${l}.w`), w(`g${l}.b`));
    if (fused) {
      h = tf.concat([bnRelu(z, w(`g${l}.gamma`), w(`g${l}.beta`)), h], 1);
      continue;
    }
    // Batch normalisation with the batch's statistics, from plain ops: tf.batchNorm's gradient tiles its
    // parameters, which tfjs-backend-wasm does slowly.
    const centred = tf.sub(z, tf.mean(z, 0));
    const variance = tf.mean(tf.square(centred), 0);
    const normed = tf.mul(centred, tf.mul(tf.rsqrt(tf.add(variance, BN_EPS)), w(`g${l}.gamma`)));
    const r = tf.relu(tf.add(normed, w(`g${l}.beta`))) as tf.Tensor2D;
    h = tf.concat([r, h], 1);
  }
  return dense(h, w('gout.w'), w('gout.b'));
}

/**
 * The critic on packed rows [groups, pac * width]. `secondOrder` selects the LeakyReLU whose gradient is itself
 * differentiable (the gradient-penalty pass).
 */
export function discriminatorForward(w: Weights, layers: number, packed: tf.Tensor2D, rng: NeuralRng, secondOrder: boolean): tf.Tensor2D {
  let h = packed;
  for (let l = 0; l < layers; l++) {
    const z = dense(h, w(`d${l}.w`), w(`d${l}.b`));
    const a = secondOrder ? leakyRelu02(z) : tf.leakyRelu(z, 0.2);
    h = tf.mul(a, dropoutMask(a.shape, 0.5, rng)) as tf.Tensor2D;
  }
  return dense(h, w('dout.w'), w('dout.b'));
}

/** Per-epoch losses, as the ctgan package reports them (loss_d without the penalty). */
export interface CtganLosses {
  loss_g: number;
  loss_d: number;
  penalty: number;
}

/** CTGAN's networks, optimizers and training loop over an encoded table. */
export class CtganTrainer {
  readonly g = new ParamSet();
  readonly d = new ParamSet();
  private readonly optG: Adam;
  private readonly optD: Adam;
  private readonly data: tf.Tensor2D;
  readonly sampler: CondSampler;
  private readonly fakeCond: CondBatch;
  private readonly rows: Int32Array;
  private readonly perm: Int32Array;
  private readonly realCond: Float32Array;
  private readonly gLayers: number;
  private readonly dLayers: number;
  private readonly packedWidth: number;

  constructor(
    readonly layout: Layout,
    encoded: Float32Array,
    readonly nrows: number,
    readonly config: CtganConfig,
    rng: NeuralRng,
  ) {
    const { batch_size: B, pac, embedding_dim: emb } = config;
    if (B % pac !== 0) throw new Error(`pac (${pac}) must divide batch_size (${B})`);
    const condDim = layout.condDim;
    let width = emb + condDim;
    config.generator_dim.forEach((o, l) => {
      this.g.linear(`g${l}`, width, o, rng);
      this.g.add(`g${l}.gamma`, [o], new Float32Array(o).fill(1));
      this.g.add(`g${l}.beta`, [o], new Float32Array(o));
      width += o;
    });
    this.g.linear('gout', width, layout.dim, rng);
    this.packedWidth = (layout.dim + condDim) * pac;
    width = this.packedWidth;
    config.discriminator_dim.forEach((o, l) => {
      this.d.linear(`d${l}`, width, o, rng);
      width = o;
    });
    this.d.linear('dout', width, 1, rng);
    this.gLayers = config.generator_dim.length;
    this.dLayers = config.discriminator_dim.length;
    this.optG = new Adam(this.g, CTGAN_ADAM);
    this.optD = new Adam(this.d, CTGAN_ADAM);
    this.data = tf.tensor2d(encoded, [nrows, layout.dim]);
    this.sampler = CondSampler.fromEncoded(layout, encoded, nrows);
    this.fakeCond = this.sampler.allocate(B);
    this.rows = new Int32Array(B);
    this.perm = new Int32Array(B);
    this.realCond = new Float32Array(B * condDim);
  }

  /** Steps per epoch: max(1, rows / batch_size), as the package. */
  get stepsPerEpoch(): number {
    return Math.max(1, Math.floor(this.nrows / this.config.batch_size));
  }

  /** One epoch; `between` runs before every step (cooperative cancel). Returns the last step's losses. */
  epoch(rng: NeuralRng, between: () => void): CtganLosses {
    let last: tf.Scalar[] = [];
    for (let s = 0; s < this.stepsPerEpoch; s++) {
      between();
      last.forEach((t) => t.dispose());
      last = this.step(rng);
    }
    const [lossG, lossD, pen] = last.map((t) => t.dataSync()[0]);
    last.forEach((t) => t.dispose());
    return { loss_g: lossG, loss_d: lossD, penalty: pen };
  }

  /** One critic step and one generator step; returns [loss_g, loss_d, penalty] scalars (caller disposes). */
  step(rng: NeuralRng): tf.Scalar[] {
    const { batch_size: B, pac, embedding_dim: emb } = this.config;
    const condDim = this.layout.condDim;
    const groups = B / pac;
    const wD: Weights = (n) => this.d.get(n);
    const wG: Weights = (n) => this.g.get(n);
    // Critic inputs: conditions for the fakes, and real rows drawn for a permutation of the same conditions.
    if (condDim > 0) {
      this.sampler.sampleTrain(this.fakeCond, rng);
      for (let i = 0; i < B; i++) this.perm[i] = i;
      rng.shuffle(this.perm);
      const col = new Int32Array(B);
      const cat = new Int32Array(B);
      for (let i = 0; i < B; i++) {
        const p = this.perm[i];
        col[i] = this.fakeCond.column[p];
        cat[i] = this.fakeCond.category[p];
        this.realCond.set(this.fakeCond.cond.subarray(p * condDim, (p + 1) * condDim), i * condDim);
      }
      this.sampler.realRows(col, cat, rng, this.rows);
    } else {
      this.sampler.uniformRows(rng, this.rows);
    }
    const [lossD, penalty] = tf.tidy(() => {
      const c1 = condDim > 0 ? tf.tensor2d(this.fakeCond.cond, [B, condDim]) : null;
      const noise = normalTensor([B, emb], rng) as tf.Tensor2D;
      const fake = applyActivate(generatorForward(wG, this.gLayers, c1 ? tf.concat([noise, c1], 1) : noise), this.layout, rng);
      const real = tf.gather(this.data, tf.tensor1d(this.rows, 'int32')) as tf.Tensor2D;
      const fakeCat = c1 ? tf.concat([fake, c1], 1) : fake;
      const realCat = c1 ? tf.concat([real, tf.tensor2d(this.realCond, [B, condDim])], 1) : real;
      const realP = tf.reshape(realCat, [groups, this.packedWidth]) as tf.Tensor2D;
      const fakeP = tf.reshape(fakeCat, [groups, this.packedWidth]) as tf.Tensor2D;
      const alpha = uniformTensor([groups, 1], rng);
      const interp = tf.add(tf.mul(alpha, realP), tf.mul(tf.sub(1, alpha), fakeP)) as tf.Tensor2D;
      let lossDOut: tf.Scalar | null = null;
      let penOut: tf.Scalar | null = null;
      const { grads } = tf.variableGrads(() => {
        const y = discriminatorForward(wD, this.dLayers, tf.concat([realP, fakeP], 0), rng, false);
        const loss = tf.sub(tf.mean(tf.slice(y, [groups, 0], [groups, 1])), tf.mean(tf.slice(y, [0, 0], [groups, 1]))) as tf.Scalar;
        const pen = gradientPenalty(wD, this.dLayers, interp, rng);
        lossDOut = tf.keep(loss);
        penOut = tf.keep(pen);
        return tf.add(loss, pen) as tf.Scalar;
      }, this.d.vars);
      this.optD.apply(grads);
      return [lossDOut as unknown as tf.Scalar, penOut as unknown as tf.Scalar];
    });

    if (condDim > 0) this.sampler.sampleTrain(this.fakeCond, rng);
    const lossG = tf.tidy(() => {
      const c1 = condDim > 0 ? tf.tensor2d(this.fakeCond.cond, [B, condDim]) : null;
      const target = condDim > 0 ? tf.tensor2d(this.fakeCond.target, [B, this.layout.dim - this.layout.nScalar]) : null;
      const mask = condDim > 0 ? tf.tensor2d(this.fakeCond.mask, [B, this.layout.spans.length]) : null;
      const noise = normalTensor([B, emb], rng) as tf.Tensor2D;
      let out: tf.Scalar | null = null;
      const { grads } = tf.variableGrads(() => {
        const raw = generatorForward(wG, this.gLayers, c1 ? tf.concat([noise, c1], 1) : noise);
        const act = applyActivate(raw, this.layout, rng);
        const packed = tf.reshape(c1 ? tf.concat([act, c1], 1) : act, [groups, this.packedWidth]) as tf.Tensor2D;
        const y = discriminatorForward(wD, this.dLayers, packed, rng, false);
        let loss = tf.neg(tf.mean(y)) as tf.Scalar;
        if (target && mask) loss = tf.add(loss, tf.div(spanCrossEntropySum(raw, this.layout, target, mask), B));
        out = tf.keep(loss);
        return loss;
      }, this.g.vars);
      this.optG.apply(grads);
      return out as unknown as tf.Scalar;
    });
    return [lossG, lossD, penalty];
  }

  /** Weights and optimizer state, for a checkpoint. */
  readState(): { tensors: Record<string, TensorData>; steps: { g: number; d: number } } {
    const tensors: Record<string, TensorData> = {};
    for (const [k, v] of Object.entries(this.g.read())) tensors[`G/${k}`] = v;
    for (const [k, v] of Object.entries(this.d.read())) tensors[`D/${k}`] = v;
    for (const [k, v] of Object.entries(this.optG.read())) tensors[`AG/${k}`] = v;
    for (const [k, v] of Object.entries(this.optD.read())) tensors[`AD/${k}`] = v;
    return { tensors, steps: { g: this.optG.step, d: this.optD.step } };
  }

  writeState(tensors: Record<string, TensorData>, steps: { g: number; d: number }): void {
    const pick = (prefix: string) => Object.fromEntries(Object.entries(tensors).flatMap(([k, v]) => (k.startsWith(prefix) ? [[k.slice(prefix.length), v]] : [])));
    this.g.write(pick('G/'));
    this.d.write(pick('D/'));
    this.optG.write(pick('AG/'), steps.g);
    this.optD.write(pick('AD/'), steps.d);
  }

  /** The generator's weights: all that sampling needs. */
  generatorWeights(): Record<string, TensorData> {
    return this.g.read();
  }

  dispose(): void {
    this.g.dispose();
    this.d.dispose();
    this.optG.dispose();
    this.optD.dispose();
    this.data.dispose();
  }
}

/**
 * WGAN-GP's penalty: lambda * mean over pac groups of (||d D(x) / d x||_2 - 1)^2 at the interpolates. Built so that
 * its gradient with respect to the critic's weights exists (see the file comment).
 */
export function gradientPenalty(w: Weights, layers: number, interp: tf.Tensor2D, rng: NeuralRng): tf.Scalar {
  const g = tf.grad((x: tf.Tensor) => tf.sum(discriminatorForward(w, layers, x as tf.Tensor2D, rng, true)))(interp);
  // A tiny floor inside the root keeps its gradient finite if a gradient is exactly zero.
  const norm = tf.sqrt(tf.add(tf.sum(tf.square(g), 1), 1e-12));
  return tf.mul(tf.mean(tf.square(tf.sub(norm, 1))), GP_LAMBDA) as tf.Scalar;
}

/**
 * Generates `n` rows of activated outputs [n * dim] with a trained generator, `batch` rows per forward pass (the
 * batch normalisation uses each pass's statistics, as in training). `cond` fills each pass's conditional vectors.
 */
export function ctganGenerate(
  weights: Record<string, tf.Tensor>,
  layers: number,
  layout: Layout,
  config: Pick<CtganConfig, 'embedding_dim' | 'batch_size'>,
  n: number,
  rng: NeuralRng,
  cond: ((rows: number) => Float32Array) | null,
): Float32Array {
  const out = new Float32Array(n * layout.dim);
  const w: Weights = (name) => weights[name];
  const B = config.batch_size;
  for (let s = 0; s < n; s += B) {
    const c = cond ? cond(B) : null;
    const rows = Math.min(B, n - s);
    const act = tf.tidy(() => {
      const noise = normalTensor([B, config.embedding_dim], rng) as tf.Tensor2D;
      const input = c ? tf.concat([noise, tf.tensor2d(c, [B, layout.condDim])], 1) : noise;
      return applyActivate(generatorForward(w, layers, input), layout, rng);
    });
    const data = act.dataSync() as Float32Array;
    out.set(data.subarray(0, rows * layout.dim), s * layout.dim);
    act.dispose();
  }
  return out;
}

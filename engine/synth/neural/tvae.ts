/**
 * TVAE (Xu et al. 2019), as the ctgan package trains it, on CTGAN's data transformer:
 *
 * - Encoder: linear + ReLU for 128 and 128 units, then two linear heads for the mean and log-variance of an
 *   `embedding_dim` Gaussian; decoder: linear + ReLU 128, 128, then linear to the row vector, plus a learned output
 *   scale sigma per scalar (starting at 0.1, clamped to [0.01, 1] after each step).
 * - Loss per batch: 2 * [sum over scalars of (x - tanh(x^))^2 / (2 sigma^2) + rows * log sigma, plus the summed
 *   cross-entropy of every span] / rows, plus the KL divergence to N(0, I) / rows.
 * - Adam(lr 1e-3, weight decay 1e-5); every epoch visits each row once, in shuffled batches of `batch_size`.
 * - Sampling decodes N(0, I) noise, applies tanh, and adds N(0, sigma) noise to each scalar before the inverse
 *   transform.
 */
import * as tf from '@tensorflow/tfjs';
import type { TvaeConfig } from '../types';
import { TVAE_FIXED } from './config';
import { Adam, dense, ParamSet, TensorData } from './params';
import { normalTensor } from './noise';
import { NeuralRng } from './rng';
import { spanCrossEntropySum } from './span-ops';
import type { Layout } from './transformer';

type Weights = (name: string) => tf.Tensor;

/** The decoder's raw output [rows, dim] for embeddings. */
export function decoderForward(w: Weights, embedding: tf.Tensor2D): tf.Tensor2D {
  let h = embedding;
  for (let l = 0; l < TVAE_FIXED.decompress_dims.length; l++) h = tf.relu(dense(h, w(`dec${l}.w`), w(`dec${l}.b`)));
  return dense(h, w('decout.w'), w('decout.b'));
}

export class TvaeTrainer {
  readonly net = new ParamSet();
  private readonly opt: Adam;
  private readonly data: tf.Tensor2D;
  private readonly order: Int32Array;
  private readonly sigma: tf.Variable | null;

  constructor(
    readonly layout: Layout,
    encoded: Float32Array,
    readonly nrows: number,
    readonly config: TvaeConfig,
    rng: NeuralRng,
  ) {
    let width = layout.dim;
    TVAE_FIXED.compress_dims.forEach((o, l) => {
      this.net.linear(`enc${l}`, width, o, rng);
      width = o;
    });
    this.net.linear('mu', width, config.embedding_dim, rng);
    this.net.linear('logvar', width, config.embedding_dim, rng);
    width = config.embedding_dim;
    TVAE_FIXED.decompress_dims.forEach((o, l) => {
      this.net.linear(`dec${l}`, width, o, rng);
      width = o;
    });
    this.net.linear('decout', width, layout.dim, rng);
    this.sigma = layout.nScalar > 0 ? this.net.add('sigma', [layout.nScalar], new Float32Array(layout.nScalar).fill(0.1)) : null;
    this.opt = new Adam(this.net, { lr: TVAE_FIXED.lr, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: TVAE_FIXED.l2scale });
    this.data = tf.tensor2d(encoded, [nrows, layout.dim]);
    this.order = Int32Array.from({ length: nrows }, (_, i) => i);
  }

  get stepsPerEpoch(): number {
    return Math.ceil(this.nrows / this.config.batch_size);
  }

  /** One epoch over the shuffled rows; `between` runs before every batch. Returns the last batch's loss. */
  epoch(rng: NeuralRng, between: () => void): { loss: number } {
    rng.shuffle(this.order);
    let last: tf.Scalar | null = null;
    for (let s = 0; s < this.nrows; s += this.config.batch_size) {
      between();
      last?.dispose();
      last = this.step(this.order.subarray(s, Math.min(this.nrows, s + this.config.batch_size)), rng);
    }
    const loss = last ? last.dataSync()[0] : NaN;
    last?.dispose();
    return { loss };
  }

  private step(rows: Int32Array, rng: NeuralRng): tf.Scalar {
    const m = rows.length;
    const { nScalar, dim } = this.layout;
    const w: Weights = (n) => this.net.get(n);
    const loss = tf.tidy(() => {
      const real = tf.gather(this.data, tf.tensor1d(rows, 'int32')) as tf.Tensor2D;
      let out: tf.Scalar | null = null;
      const { grads } = tf.variableGrads(() => {
        let h = real;
        for (let l = 0; l < TVAE_FIXED.compress_dims.length; l++) h = tf.relu(dense(h, w(`enc${l}.w`), w(`enc${l}.b`)));
        const mu = dense(h, w('mu.w'), w('mu.b'));
        const logvar = dense(h, w('logvar.w'), w('logvar.b'));
        const eps = normalTensor(mu.shape, rng);
        const rec = decoderForward(w, tf.add(tf.mul(eps, tf.exp(tf.mul(logvar, 0.5))), mu) as tf.Tensor2D);
        let recon: tf.Scalar = tf.scalar(0);
        if (this.sigma && nScalar > 0) {
          const diff = tf.sub(tf.slice(real, [0, 0], [m, nScalar]), tf.tanh(tf.slice(rec, [0, 0], [m, nScalar])));
          recon = tf.add(tf.sum(tf.div(tf.square(diff), tf.mul(tf.square(this.sigma), 2))), tf.mul(tf.sum(tf.log(this.sigma)), m));
        }
        if (dim > nScalar) recon = tf.add(recon, spanCrossEntropySum(rec, this.layout, tf.slice(real, [0, nScalar], [m, dim - nScalar]), null));
        const kld = tf.mul(tf.sum(tf.sub(tf.sub(tf.add(logvar, 1), tf.square(mu)), tf.exp(logvar))), -0.5);
        const total = tf.add(tf.div(tf.mul(recon, TVAE_FIXED.loss_factor), m), tf.div(kld, m)) as tf.Scalar;
        out = tf.keep(total);
        return total;
      }, this.net.vars);
      this.opt.apply(grads);
      if (this.sigma) this.sigma.assign(tf.clipByValue(this.sigma, 0.01, 1));
      return out as unknown as tf.Scalar;
    });
    return loss;
  }

  readState(): { tensors: Record<string, TensorData>; steps: number } {
    const tensors: Record<string, TensorData> = {};
    for (const [k, v] of Object.entries(this.net.read())) tensors[`N/${k}`] = v;
    for (const [k, v] of Object.entries(this.opt.read())) tensors[`A/${k}`] = v;
    return { tensors, steps: this.opt.step };
  }

  writeState(tensors: Record<string, TensorData>, steps: number): void {
    const pick = (prefix: string) => Object.fromEntries(Object.entries(tensors).flatMap(([k, v]) => (k.startsWith(prefix) ? [[k.slice(prefix.length), v]] : [])));
    this.net.write(pick('N/'));
    this.opt.write(pick('A/'), steps);
  }

  /** The decoder's weights and the output scales: all that sampling needs. */
  decoderWeights(): Record<string, TensorData> {
    const all = this.net.read();
    return Object.fromEntries(Object.entries(all).filter(([k]) => k.startsWith('dec') || k === 'sigma'));
  }

  dispose(): void {
    this.net.dispose();
    this.opt.dispose();
    this.data.dispose();
  }
}

/** Generates `n` decoded-ready rows [n * dim]: tanh of the decoder's output for N(0, I) embeddings. */
export function tvaeGenerate(weights: Record<string, tf.Tensor>, layout: Layout, config: Pick<TvaeConfig, 'embedding_dim' | 'batch_size'>, n: number, rng: NeuralRng): Float32Array {
  const out = new Float32Array(n * layout.dim);
  const B = config.batch_size;
  for (let s = 0; s < n; s += B) {
    const rows = Math.min(B, n - s);
    const t = tf.tidy(() => tf.tanh(decoderForward((name) => weights[name], normalTensor([rows, config.embedding_dim], rng) as tf.Tensor2D)));
    out.set(t.dataSync() as Float32Array, s * layout.dim);
    t.dispose();
  }
  return out;
}

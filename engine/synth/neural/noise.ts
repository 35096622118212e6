/**
 * Random tensors drawn from the model's own stream (./rng.ts) in plain JavaScript and uploaded once: tf.randomNormal
 * and tf.dropout draw through seedrandom number by number, slower than the matrix products they feed, and a
 * dropout mask built here is one multiply instead of five kernels.
 */
import * as tf from '@tensorflow/tfjs';
import { NeuralRng } from './rng';

/** Standard normal values (Marsaglia's polar method: no trigonometry, both values of each pair used). */
export function normalTensor(shape: number[], rng: NeuralRng): tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += 2) {
    let u: number;
    let v: number;
    let s: number;
    do {
      u = 2 * rng.next() - 1;
      v = 2 * rng.next() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const f = Math.sqrt((-2 * Math.log(s)) / s);
    out[i] = u * f;
    if (i + 1 < n) out[i + 1] = v * f;
  }
  return tf.tensor(out, shape);
}

/** Uniform values in [0, 1). */
export function uniformTensor(shape: number[], rng: NeuralRng): tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.next();
  return tf.tensor(out, shape);
}

/** Gumbel(0, 1) values, -log(-log U) with U kept off 0 and 1. */
export function gumbelTensor(shape: number[], rng: NeuralRng): tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = -Math.log(-Math.log(1e-10 + rng.next() * (1 - 1e-7 - 1e-10)));
  return tf.tensor(out, shape);
}

/** An inverted-dropout mask: 0 with probability `rate`, else 1 / (1 - rate). */
export function dropoutMask(shape: number[], rate: number, rng: NeuralRng): tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  const out = new Float32Array(n);
  const keep = 1 / (1 - rate);
  // Without a branch: at rate 0.5 one on the draw mispredicts half the time and costs more than the draw.
  for (let i = 0; i < n; i++) out[i] = +(rng.next() >= rate) * keep;
  return tf.tensor(out, shape);
}

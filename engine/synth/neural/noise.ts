/**
 * Random tensors drawn from the model's own stream (./rng.ts) in plain JavaScript and uploaded once: tf.randomNormal
 * and tf.dropout draw through seedrandom number by number, slower than the matrix products they feed, and a
 * dropout mask built here is one multiply instead of five kernels. The draws themselves are ./host-random.ts's.
 */
import * as tf from '@tensorflow/tfjs';
import { hostDraws } from './host-random';
import { NeuralRng } from './rng';

export { hostDraws };

/** Elements of a shape. */
function sizeOf(shape: number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/** Standard normal values (Marsaglia's polar method: no trigonometry, both values of each pair used). */
export function normalTensor(shape: number[], rng: NeuralRng): tf.Tensor {
  return tf.tensor(hostDraws.normal(sizeOf(shape), rng), shape);
}

/** Uniform values in [0, 1). */
export function uniformTensor(shape: number[], rng: NeuralRng): tf.Tensor {
  return tf.tensor(hostDraws.uniform(sizeOf(shape), rng), shape);
}

/** Gumbel(0, 1) values, -log(-log U) with U kept off 0 and 1. */
export function gumbelTensor(shape: number[], rng: NeuralRng): tf.Tensor {
  return tf.tensor(hostDraws.gumbel(sizeOf(shape), rng), shape);
}

/** An inverted-dropout mask: 0 with probability `rate`, else 1 / (1 - rate). */
export function dropoutMask(shape: number[], rate: number, rng: NeuralRng): tf.Tensor {
  return tf.tensor(hostDraws.dropout(sizeOf(shape), rate, rng), shape);
}

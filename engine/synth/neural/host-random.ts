/**
 * The neural models' random draws as plain arrays, from the model's stream (./rng.ts): what ./noise.ts turns into
 * tensors and ./params.ts into initial weights, and what the GPU trainers (engine/gpu/neural) write into their step
 * buffers, so both engines consume the stream identically. Free of TensorFlow.js, so a GPU trainer does not load it.
 */
import type { NeuralRng } from './rng';

/** Standard normal values (Marsaglia's polar method: no trigonometry, both values of each pair used). */
function normalValues(n: number, rng: NeuralRng): Float32Array {
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
  return out;
}

/** Uniform values in [0, 1). */
function uniformValues(n: number, rng: NeuralRng): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.next();
  return out;
}

/** Gumbel(0, 1) values, -log(-log U) with U kept off 0 and 1. */
function gumbelValues(n: number, rng: NeuralRng): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = -Math.log(-Math.log(1e-10 + rng.next() * (1 - 1e-7 - 1e-10)));
  return out;
}

/** An inverted-dropout mask: 0 with probability `rate`, else 1 / (1 - rate). */
function dropoutValues(n: number, rate: number, rng: NeuralRng): Float32Array {
  const out = new Float32Array(n);
  const keep = 1 / (1 - rate);
  // Without a branch: at rate 0.5 one on the draw mispredicts half the time and costs more than the draw.
  for (let i = 0; i < n; i++) out[i] = +(rng.next() >= rate) * keep;
  return out;
}

/** n values of each kind, drawn in order from `rng`. */
export const hostDraws = { normal: normalValues, uniform: uniformValues, gumbel: gumbelValues, dropout: dropoutValues };

/**
 * A linear layer's initial weight [fanIn, fanOut] (row-major) and bias, PyTorch's default for nn.Linear (uniform in
 * ±1/sqrt(fanIn)), drawn weight first.
 */
export function linearInit(fanIn: number, fanOut: number, rng: NeuralRng): { w: Float32Array; b: Float32Array } {
  const bound = 1 / Math.sqrt(fanIn);
  const w = new Float32Array(fanIn * fanOut);
  for (let i = 0; i < w.length; i++) w[i] = (rng.next() * 2 - 1) * bound;
  const b = new Float32Array(fanOut);
  for (let i = 0; i < b.length; i++) b[i] = (rng.next() * 2 - 1) * bound;
  return { w, b };
}

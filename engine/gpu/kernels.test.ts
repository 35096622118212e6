/**
 * Each kernel, forward and gradient, against a plain JS reference (Adam against TF.js's optimizer, the CPU engine's),
 * on shapes that are not multiples of the 16×16 tile. Runs on Mesa's software renderer where there is no GPU; small
 * shapes keep it quick there.
 */
import * as tf from '@tensorflow/tfjs';
import { acquireTestGpu } from './test-device';
import type { AcquiredGpu } from './test-device';
import { GpuRuntime, Program, StepValues } from './runtime';
import { ActivationKind, LEAKY_SLOPE } from './kernels';

const ACTIVATIONS: ActivationKind[] = ['identity', 'relu', 'leaky_relu', 'tanh', 'sigmoid'];
const act = (a: ActivationKind, z: number): number =>
  a === 'relu' ? Math.max(0, z) : a === 'leaky_relu' ? (z > 0 ? z : LEAKY_SLOPE * z) : a === 'tanh' ? Math.tanh(z) : a === 'sigmoid' ? 1 / (1 + Math.exp(-z)) : z;
const slope = (a: ActivationKind, h: number): number =>
  a === 'relu' ? (h > 0 ? 1 : 0) : a === 'leaky_relu' ? (h > 0 ? 1 : LEAKY_SLOPE) : a === 'tanh' ? 1 - h * h : a === 'sigmoid' ? h * (1 - h) : 1;

function random(n: number, seed: number): Float32Array {
  let s = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s / 2 ** 32) * 2 - 1;
  });
}

/** C = op(A)·op(B) in float64; A is M×K (K×M when transposed), B is K×N (N×K when transposed). */
function matmulRef(a: Float32Array, b: Float32Array, M: number, N: number, K: number, transA: boolean, transB: boolean): Float64Array {
  const c = new Float64Array(M * N);
  for (let i = 0; i < M; i++)
    for (let j = 0; j < N; j++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += (transA ? a[k * M + i] : a[i * K + k]) * (transB ? b[j * K + k] : b[k * N + j]);
      c[i * N + j] = s;
    }
  return c;
}

function expectClose(got: Float32Array, want: ArrayLike<number>, tol = 1e-5): void {
  expect(got.length).toBe(want.length);
  let worst = 0;
  for (let i = 0; i < got.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]) / Math.max(1, Math.abs(want[i])));
  expect(worst).toBeLessThan(tol);
}

const STEP: StepValues = { rows: 0, slot: 0, lr: 0, beta1: 0.9, beta2: 0.999, eps: 1e-7, c1: 1, c2: 1 };

describe('GPU kernels', () => {
  let gpu: AcquiredGpu;
  let rt: GpuRuntime;
  beforeAll(async () => {
    gpu = await acquireTestGpu();
    rt = new GpuRuntime(gpu.device);
  });
  afterAll(async () => {
    await rt?.destroy();
    await gpu?.destroy();
  });

  it.each([
    [false, false],
    [true, false],
    [false, true],
    [true, true],
  ])('matmul transA=%s transB=%s on 37×23×19', async (transA, transB) => {
    const [M, N, K] = [37, 23, 19];
    const a = random(M * K, 1);
    const b = random(K * N, 2);
    const A = rt.tensor(a);
    const B = rt.tensor(b);
    const C = rt.tensor(M * N);
    const p = new Program();
    rt.matmul(p, { a: A, b: B, c: C, M, N, K, transA, transB });
    rt.run(p, { ...STEP, rows: M });
    expectClose(await rt.read(C), matmulRef(a, b, M, N, K, transA, transB));
  });

  it('matmul reads a row-count dimension from the step (a short batch in a recorded program)', async () => {
    const [cap, rows, N, K] = [40, 33, 17, 21];
    const a = random(cap * K, 3);
    const b = random(K * N, 4);
    const C = rt.tensor(new Float32Array(cap * N).fill(7));
    const p = new Program();
    rt.matmul(p, { a: rt.tensor(a), b: rt.tensor(b), c: C, M: { rows: cap }, N, K });
    rt.run(p, { ...STEP, rows });
    const got = await rt.read(C);
    expectClose(got.slice(0, rows * N), matmulRef(a, b, rows, N, K, false, false));
    expect(Array.from(got.slice(rows * N)).every((v) => v === 7)).toBe(true);
    // Aᵀ·B with the rows as the shared dimension: a weight gradient over a short batch.
    const dW = rt.tensor(K * N);
    const q = new Program();
    const dz = random(cap * N, 5);
    rt.matmul(q, { a: rt.tensor(a), b: rt.tensor(dz), c: dW, M: K, N, K: { rows: cap }, transA: true });
    rt.run(q, { ...STEP, rows });
    expectClose(await rt.read(dW), matmulRef(a.slice(0, rows * K), dz.slice(0, rows * N), K, N, rows, true, false));
  });

  it.each(ACTIVATIONS)('fused bias + %s, forward and gradient', async (activation) => {
    const [M, N, K] = [19, 33, 18];
    const x = random(M * K, 6);
    const w = random(K * N, 7);
    const bias = random(N, 8);
    const z = matmulRef(x, w, M, N, K, false, false);
    const h = Float64Array.from(z, (v, i) => act(activation, v + bias[i % N]));
    const H = rt.tensor(M * N);
    const Hsep = rt.tensor(M * N);
    const Z = rt.tensor(M * N);
    const p = new Program();
    rt.matmul(p, { a: rt.tensor(x), b: rt.tensor(w), c: H, M, N, K, epilogue: 'bias_act', extra: rt.tensor(bias), activation });
    rt.matmul(p, { a: rt.tensor(x), b: rt.tensor(w), c: Z, M, N, K });
    rt.biasActivation(p, { x: Z, bias: rt.tensor(bias), y: Hsep, rows: M, N, activation });
    rt.run(p, { ...STEP, rows: M });
    const hGpu = await rt.read(H);
    expectClose(hGpu, h);
    expectClose(await rt.read(Hsep), h);

    // Gradient: dZ = (dY·Wᵀ) ⊙ act'(H), fused into the A·Bᵀ product and as its own pass.
    const dy = random(M * K, 9);
    const dh = matmulRef(dy, w, M, N, K, false, true);
    const want = Float64Array.from(dh, (v, i) => v * slope(activation, hGpu[i]));
    const dZ = rt.tensor(M * N);
    const dH = rt.tensor(M * N);
    const dZsep = rt.tensor(M * N);
    const q = new Program();
    rt.matmul(q, { a: rt.tensor(dy), b: rt.tensor(w), c: dZ, M, N, K, transB: true, epilogue: 'act_grad', extra: H, activation });
    rt.matmul(q, { a: rt.tensor(dy), b: rt.tensor(w), c: dH, M, N, K, transB: true });
    rt.activationGradient(q, { dh: dH, h: H, dz: dZsep, rows: M, N, activation });
    rt.run(q, { ...STEP, rows: M });
    expectClose(await rt.read(dZ), want);
    expectClose(await rt.read(dZsep), want);
  });

  it('column sums (bias gradients) over 45 rows × 21 columns', async () => {
    const [R, N] = [45, 21];
    const x = random(R * N, 10);
    const out = rt.tensor(N);
    const p = new Program();
    rt.columnSums(p, { x: rt.tensor(x), out, rows: { rows: 50 }, N });
    rt.run(p, { ...STEP, rows: R });
    const want = Array.from({ length: N }, (_, j) => {
      let s = 0;
      for (let i = 0; i < R; i++) s += x[i * N + j];
      return s;
    });
    expectClose(await rt.read(out), want);
  });

  it.each(['mse', 'bce_logits', 'softmax_ce'] as const)('%s loss and gradient against TF.js', async (loss) => {
    const [R, K] = [300, loss === 'softmax_ce' ? 3 : 2];
    const z = random(R * K, 11).map((v) => v * 4);
    const y =
      loss === 'mse'
        ? random(R * K, 12)
        : loss === 'bce_logits'
          ? random(R * K, 12).map((v) => (v > 0 ? 1 : 0))
          : Float32Array.from({ length: R * K }, (_, i) => (i % K === Math.floor(i / K) % K ? 1 : 0));
    const lossOf = (zt: tf.Tensor2D, yt: tf.Tensor2D): tf.Scalar =>
      loss === 'mse' ? tf.losses.meanSquaredError(yt, zt) : loss === 'bce_logits' ? tf.losses.sigmoidCrossEntropy(yt, zt) : tf.losses.softmaxCrossEntropy(yt, zt);
    const yt = tf.tensor2d(y, [R, K]);
    const zv = tf.tensor2d(z, [R, K]);
    const g = tf.grad((zt: tf.Tensor) => lossOf(zt as tf.Tensor2D, yt))(zv);
    const wantLoss = lossOf(zv, yt).dataSync()[0];
    const wantGrad = g.dataSync();
    const grad = rt.tensor(R * K);
    const losses = rt.tensor(4);
    const p = new Program();
    rt.loss(p, { z: rt.tensor(z), y: rt.tensor(y), grad, losses, rows: { rows: R }, K, loss });
    rt.run(p, { ...STEP, rows: R, slot: 2 });
    expect((await rt.read(losses))[2]).toBeCloseTo(wantLoss, 5);
    expectClose(await rt.read(grad), wantGrad);
    // Evaluation adds the sum into losses[0], twice here.
    const acc = rt.tensor(1);
    const e = new Program();
    rt.loss(e, { z: rt.tensor(z), y: rt.tensor(y), grad, losses: acc, rows: R, K, loss, evaluate: true });
    rt.run(e, { ...STEP, rows: R });
    rt.run(e, { ...STEP, rows: R });
    const count = loss === 'softmax_ce' ? R : R * K;
    expect((await rt.read(acc))[0] / (2 * count)).toBeCloseTo(wantLoss, 5);
  });

  it('Adam matches TF.js for three steps, with the L2 penalty on weights only', async () => {
    const n = 301;
    const w0 = random(n, 13);
    const decay = Float32Array.from({ length: n }, (_, i) => (i < 280 ? 1 : 0));
    const grads = [random(n, 14), random(n, 15), random(n, 16)];
    const lr = 0.01;
    const l2 = 0.05;
    // TF.js: the penalty's gradient joins the loss's; Adam with its defaults (ε = 1e-7 on float32 backends).
    const wt = tf.variable(tf.tensor1d(w0));
    const opt = tf.train.adam(lr);
    for (const g of grads) {
      const step = tf.tidy(() => tf.add(tf.tensor1d(g), tf.mul(tf.mul(2 * l2, wt), tf.tensor1d(decay))));
      opt.applyGradients([{ name: wt.name, tensor: step }]);
      step.dispose();
    }
    const P = rt.tensor(w0);
    const G = rt.tensor(n);
    const p = new Program();
    rt.adam(p, { params: P, grad: G, m: rt.tensor(n), v: rt.tensor(n), decay: rt.tensor(decay), l2 });
    let a1 = 1;
    let a2 = 1;
    for (const g of grads) {
      a1 = Math.fround(a1 * 0.9);
      a2 = Math.fround(a2 * 0.999);
      rt.write(G, g);
      rt.run(p, { ...STEP, lr, c1: 1 - a1, c2: 1 - a2 });
    }
    expectClose(await rt.read(P), wt.dataSync(), 2e-6);
  });
});

import * as tf from '@tensorflow/tfjs';
import { initDeepLearningBackend } from '../../automl';
import { activate, bnRelu, fusedAvailable } from './fused';
import { matMul, matMulW, useOrtProducts } from './kernels';
import { OrtProducts } from './ort-products';
import { NeuralRng } from './rng';

function randn(shape: number[], rng: NeuralRng): tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  return tf.tensor(
    Float32Array.from({ length: n }, () => rng.normal()),
    shape,
  );
}

function maxDiff(a: tf.Tensor, b: tf.Tensor): number {
  return tf.tidy(() => tf.max(tf.abs(tf.sub(a, b))).dataSync()[0]);
}

describe('neural kernels (wasm)', () => {
  beforeAll(async () => {
    await initDeepLearningBackend();
  });

  it('runs on the wasm backend, where the fused kernels are used', () => {
    expect(tf.getBackend()).toBe('wasm');
    expect(fusedAvailable()).toBe(true);
  });

  it.each([
    ['the backend', false],
    ['ONNX Runtime', true],
  ])('matMul / matMulW on %s give tf.matMul products and gradients, second-order ones included (gradient penalty)', (_name, onOrt) => {
    const products = onOrt ? OrtProducts.create(2) : null;
    if (onOrt) expect(products).not.toBeNull();
    useOrtProducts(products);
    try {
      penaltyGradientsMatch();
    } finally {
      useOrtProducts(null);
    }
  });

  it('ONNX Runtime products match tf.matMul on shapes of a CTGAN step, a single row and a single column', () => {
    const products = OrtProducts.create(2)!;
    const rng = new NeuralRng(11);
    useOrtProducts(products);
    try {
      for (const [m, k, n] of [
        [500, 300, 256],
        [50, 2560, 1],
        [1, 7, 3],
      ]) {
        const a = randn([m, k], rng) as tf.Tensor2D;
        const b = randn([k, n], rng) as tf.Tensor2D;
        expect(maxDiff(matMul(a, b), tf.matMul(a, b))).toBeLessThan(1e-3);
      }
    } finally {
      useOrtProducts(null);
    }
  });

  function penaltyGradientsMatch(): void {
    const rng = new NeuralRng(7);
    const x = randn([6, 5], rng);
    const w = tf.variable(randn([5, 4], rng));
    const v = tf.variable(randn([4, 3], rng));
    // A critic-like function of x, its gradient norm penalty, differentiated with respect to the weights.
    const critic = (mm: (a: tf.Tensor2D, b: tf.Tensor) => tf.Tensor2D, input: tf.Tensor) => tf.sum(tf.tanh(mm(tf.tanh(mm(input as tf.Tensor2D, w)) as tf.Tensor2D, v)));
    const penalty = (mm: (a: tf.Tensor2D, b: tf.Tensor) => tf.Tensor2D) => () => {
      const g = tf.grad((input: tf.Tensor) => critic(mm, input))(x);
      return tf.sum(tf.square(g)) as tf.Scalar;
    };
    const reference = (a: tf.Tensor2D, b: tf.Tensor) => tf.matMul(a, b as tf.Tensor2D) as tf.Tensor2D;
    const ours = (a: tf.Tensor2D, b: tf.Tensor) => matMulW(a, b);
    const plain = (a: tf.Tensor2D, b: tf.Tensor) => matMul(a, b as tf.Tensor2D);
    const want = tf.variableGrads(penalty(reference), [w, v]);
    for (const mm of [ours, plain]) {
      // Twice, so the second pass uses the cached transposes.
      for (let pass = 0; pass < 2; pass++) {
        const got = tf.variableGrads(penalty(mm), [w, v]);
        expect(Math.abs(got.value.dataSync()[0] - want.value.dataSync()[0])).toBeLessThan(1e-4);
        expect(maxDiff(got.grads[w.name], want.grads[w.name])).toBeLessThan(1e-4);
        expect(maxDiff(got.grads[v.name], want.grads[v.name])).toBeLessThan(1e-4);
      }
    }
    // A new value of the weight invalidates its cached transpose.
    w.assign(tf.mul(w, 2));
    const want2 = tf.variableGrads(penalty(reference), [w, v]);
    const got2 = tf.variableGrads(penalty(ours), [w, v]);
    expect(maxDiff(got2.grads[w.name], want2.grads[w.name])).toBeLessThan(1e-3);
  }

  it('slices and splits (wasm replacements) return the parts of rank 1 to 3 tensors', () => {
    const x = tf.tensor(
      Float32Array.from({ length: 24 }, (_, i) => i),
      [2, 3, 4],
    );
    expect(Array.from(tf.slice(x, [1, 1, 1], [1, 2, 2]).dataSync())).toEqual([17, 18, 21, 22]);
    expect(Array.from(tf.slice(tf.reshape(x, [6, 4]), [2, 1], [2, 3]).dataSync())).toEqual([9, 10, 11, 13, 14, 15]);
    expect(Array.from(tf.slice(tf.reshape(x, [24]), [5], [3]).dataSync())).toEqual([5, 6, 7]);
    const [a, b] = tf.split(tf.reshape(x, [6, 4]), [1, 3], 1);
    expect(Array.from(a.dataSync())).toEqual([0, 4, 8, 12, 16, 20]);
    expect(b.shape).toEqual([6, 3]);
    expect(Array.from(b.dataSync()).slice(0, 3)).toEqual([1, 2, 3]);
  });

  it('bnRelu matches batch normalisation + ReLU from plain ops, values and gradients', () => {
    const rng = new NeuralRng(3);
    const z = randn([20, 6], rng);
    const gamma = tf.variable(tf.add(randn([6], rng), 1));
    const beta = tf.variable(randn([6], rng));
    const dy = randn([20, 6], rng);
    const composite = (zz: tf.Tensor) => {
      const c = tf.sub(zz, tf.mean(zz, 0));
      const variance = tf.mean(tf.square(c), 0);
      return tf.relu(tf.add(tf.mul(c, tf.mul(tf.rsqrt(tf.add(variance, 1e-5)), gamma)), beta));
    };
    expect(maxDiff(bnRelu(z as tf.Tensor2D, gamma, beta), composite(z))).toBeLessThan(1e-5);
    const loss = (f: (zz: tf.Tensor) => tf.Tensor) => (zz: tf.Tensor) => tf.sum(tf.mul(f(zz), dy)) as tf.Scalar;
    const ref = tf.variableGrads(() => loss(composite)(z), [gamma, beta]);
    const got = tf.variableGrads(() => loss((zz) => bnRelu(zz as tf.Tensor2D, gamma, beta))(z), [gamma, beta]);
    expect(maxDiff(got.grads[gamma.name], ref.grads[gamma.name])).toBeLessThan(1e-4);
    expect(maxDiff(got.grads[beta.name], ref.grads[beta.name])).toBeLessThan(1e-4);
    const dzRef = tf.grad(loss(composite))(z);
    const dzGot = tf.grad(loss((zz) => bnRelu(zz as tf.Tensor2D, gamma, beta)))(z);
    expect(maxDiff(dzGot, dzRef)).toBeLessThan(1e-4);
  });

  it('activate is tanh on the scalars and a (Gumbel-)softmax per span, with the right gradient', () => {
    const rng = new NeuralRng(5);
    // 2 scalars, then spans of widths 1, 3, 3 at offsets 2, 3, 6.
    const spans = [
      { offset: 2, width: 1 },
      { offset: 3, width: 3 },
      { offset: 6, width: 3 },
    ];
    const logits = randn([4, 9], rng);
    const gumbel = randn([4, 7], rng);
    const dy = randn([4, 9], rng);
    const tau = 0.2;
    const composite = (l: tf.Tensor) => {
      const soft = tf.mul(tf.add(tf.slice(l, [0, 2], [4, 7]), gumbel), 1 / tau);
      return tf.concat([tf.tanh(tf.slice(l, [0, 0], [4, 2])), tf.onesLike(tf.slice(soft, [0, 0], [4, 1])), tf.softmax(tf.slice(soft, [0, 1], [4, 3])), tf.softmax(tf.slice(soft, [0, 4], [4, 3]))], 1);
    };
    const fused = (l: tf.Tensor) => activate(l as tf.Tensor2D, gumbel as tf.Tensor2D, 2, spans, tau);
    expect(maxDiff(fused(logits), composite(logits))).toBeLessThan(1e-5);
    const grad = (f: (l: tf.Tensor) => tf.Tensor) => tf.grad((l: tf.Tensor) => tf.sum(tf.mul(f(l), dy)))(logits);
    expect(maxDiff(grad(fused), grad(composite))).toBeLessThan(1e-3);
    // Without noise: a plain softmax (no temperature).
    const plain = activate(logits as tf.Tensor2D, null, 2, spans, tau);
    expect(maxDiff(tf.slice(plain, [0, 3], [4, 3]), tf.softmax(tf.slice(logits, [0, 3], [4, 3])))).toBeLessThan(1e-6);
  });
});

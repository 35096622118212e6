/**
 * A few MLP training steps on the GPU engine and on the CPU engine (TF.js, the DeepLearning trainer's ops: matMul +
 * bias, activation, TF's losses, tf.train.adam) from the same Glorot initialisation give the same losses and weights
 * within float tolerance. Small shapes: on CI this runs on Mesa's software renderer.
 */
import * as tf from '@tensorflow/tfjs';
import { Rng } from '../automl/random';
import { acquireTestGpu } from './test-device';
import type { AcquiredGpu } from './test-device';
import { GpuRuntime } from './runtime';
import { GpuMlp, MlpParameters, MlpSpec } from './mlp';

tf.enableProdMode();

/** The CPU engine's initialisation (engine/automl/deeplearning/train.ts): Glorot uniform from the seed, zero biases. */
function glorot(sizes: number[], seed: number): MlpParameters {
  const rng = new Rng(seed);
  const weights: Float32Array[] = [];
  const biases: Float32Array[] = [];
  for (let l = 0; l + 1 < sizes.length; l++) {
    const limit = Math.sqrt(6 / (sizes[l] + sizes[l + 1]));
    weights.push(Float32Array.from({ length: sizes[l] * sizes[l + 1] }, () => (rng.next() * 2 - 1) * limit));
    biases.push(new Float32Array(sizes[l + 1]));
  }
  return { weights, biases };
}

function data(rows: number, inputs: number, outputs: number, kind: MlpSpec['loss'], seed: number): { x: Float32Array; y: Float32Array } {
  const rng = new Rng(seed);
  const x = Float32Array.from({ length: rows * inputs }, () => rng.next() * 2 - 1);
  const y = new Float32Array(rows * outputs);
  for (let r = 0; r < rows; r++) {
    const s = x[r * inputs] + 0.5 * x[r * inputs + 1] - x[r * inputs + 2] * x[r * inputs + 3];
    if (kind === 'mse') y[r] = s;
    else if (kind === 'bce_logits') y[r] = s > 0 ? 1 : 0;
    else y[r * outputs + (s > 0.3 ? 0 : s > -0.3 ? 1 : 2)] = 1;
  }
  return { x, y };
}

/** TF.js steps as the CPU trainer takes them; returns each step's loss and the final weights. */
function cpuSteps(spec: MlpSpec, init: MlpParameters, lr: number, batches: { x: Float32Array; y: Float32Array; rows: number }[]) {
  const { sizes } = spec;
  const K = sizes[sizes.length - 1];
  const Ws = init.weights.map((w, l) => tf.variable(tf.tensor2d(w, [sizes[l], sizes[l + 1]])));
  const bs = init.biases.map((b) => tf.variable(tf.tensor1d(b)));
  const act = (z: tf.Tensor2D): tf.Tensor2D => (spec.activation === 'tanh' ? tf.tanh(z) : spec.activation === 'relu' ? tf.relu(z) : tf.leakyRelu(z, 0.2));
  const forward = (x: tf.Tensor2D): tf.Tensor2D => {
    let h = x;
    Ws.forEach((w, l) => {
      const z = tf.add(tf.matMul(h, w), bs[l]) as tf.Tensor2D;
      h = l === Ws.length - 1 ? z : act(z);
    });
    return h;
  };
  const lossOf = (z: tf.Tensor2D, y: tf.Tensor2D): tf.Scalar =>
    spec.loss === 'bce_logits' ? tf.losses.sigmoidCrossEntropy(y, z) : spec.loss === 'softmax_ce' ? tf.losses.softmaxCrossEntropy(y, z) : tf.losses.meanSquaredError(y, z);
  const opt = tf.train.adam(lr);
  const losses = batches.map(({ x, y, rows }) =>
    tf.tidy(() => {
      const xt = tf.tensor2d(x.subarray(0, rows * sizes[0]), [rows, sizes[0]]);
      const yt = tf.tensor2d(y.subarray(0, rows * K), [rows, K]);
      const penalty = (): tf.Scalar => (spec.l2 ? (tf.mul(spec.l2, tf.addN(Ws.map((w) => tf.sum(tf.square(w))))) as tf.Scalar) : tf.scalar(0));
      let loss = 0;
      opt.minimize(() => {
        const l = lossOf(forward(xt), yt);
        loss = l.dataSync()[0];
        return tf.add(l, penalty()) as tf.Scalar;
      });
      return loss;
    }),
  );
  return {
    losses,
    weights: Ws.map((w) => w.dataSync() as Float32Array),
    evalLoss: (x: Float32Array, y: Float32Array, n: number) => tf.tidy(() => lossOf(forward(tf.tensor2d(x, [n, sizes[0]])), tf.tensor2d(y, [n, K])).dataSync()[0]),
  };
}

describe('GPU MLP against the CPU engine', () => {
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
    ['relu', 'bce_logits', [13, 20, 17, 1], 0],
    ['tanh', 'mse', [9, 24, 1], 0.01],
    ['leaky_relu', 'softmax_ce', [11, 18, 3], 0],
  ] as const)('%s with %s: the same losses step by step, a short last batch included', async (activation, loss, sizes, l2) => {
    const spec: MlpSpec = { sizes: [...sizes], activation, loss, l2 };
    const K = sizes[sizes.length - 1];
    const init = glorot(spec.sizes, 7);
    const B = 37;
    const batches = Array.from({ length: 6 }, (_, i) => ({ ...data(B, sizes[0], K, loss, 100 + i), rows: i === 5 ? 21 : B }));
    const cpu = cpuSteps(spec, init, 0.01, batches);

    const mlp = new GpuMlp(rt, spec, init, { lr: 0.01 }, { batch: B, evalRows: 64, lossEvery: 4 });
    const gpuLosses: number[] = [];
    for (const [i, b] of batches.entries()) {
      mlp.step(b.x, b.y, b.rows);
      if (i % 4 === 3) gpuLosses.push(...(await mlp.takeLosses()));
    }
    gpuLosses.push(...(await mlp.takeLosses()));
    expect(gpuLosses).toHaveLength(6);
    gpuLosses.forEach((l, i) => expect(Math.abs(l - cpu.losses[i])).toBeLessThan(1e-5 * Math.max(1, Math.abs(cpu.losses[i]))));
    // The losses move: the steps really trained.
    expect(gpuLosses[4]).not.toBeCloseTo(gpuLosses[0], 3);

    const after = await mlp.parameters();
    after.weights.forEach((w, l) => {
      let worst = 0;
      w.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - cpu.weights[l][i]))));
      expect(worst).toBeLessThan(1e-5);
    });
    const held = data(150, sizes[0], K, loss, 999);
    expect(await mlp.evaluate(held.x, held.y)).toBeCloseTo(cpu.evalLoss(held.x, held.y, 150), 5);
  });
});

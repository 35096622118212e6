/**
 * trainDeepLearning: an MLP trained with TensorFlow.js (H2O DeepLearning parameter names).
 *
 * Inputs are the shared design with every categorical level (../encoding/design.ts); regression
 * targets are standardized for training and the output layer is rescaled afterwards, so the stored
 * network outputs the margin directly. Mini-batch Adam (`adaptive_rate`, else plain SGD at `rate`),
 * inverted dropout on inputs and (for the ...WithDropout activations) hidden layers, L1/L2 on the
 * weights. Early stopping: after each epoch the validation loss (or the training loss when there
 * are no validation rows) is checked with H2O's rule (`stopping_rounds`, relative
 * `stopping_tolerance`) and the best epoch's weights are kept.
 *
 * Determinism: initial weights (Glorot uniform), row shuffling and dropout masks all derive from
 * `seed`, and training runs on one thread, so a seed gives the same model on the same backend
 * ('cpu' and 'wasm' kernels differ in float rounding, so a model can differ across backends).
 *
 * Training is synchronous on an initialized backend; call initDeepLearningBackend() once (it
 * tries the wasm backend, falling back to 'cpu'); without it the 'cpu' backend is used.
 */
import * as tf from '@tensorflow/tfjs';
import { allCores, prepareWasmThreads } from './wasm-threads';
import type { TrainingData } from '../training';
import { DeepLearningJSON, DeepLearningModel, isTanh } from './model';
import { DeepLearningParams, deepLearningModel, deepLearningShouldStop, gatherBatch, prepareDeepLearning } from './setup';
import { trainingPulse } from '../pulse';

// Production mode only silences tfjs' console warnings. The one they print here is the cpu backend's advice, at its
// first write, to install tfjs-node, which the service already prefers when installed (loadNativeBackend).
tf.enableProdMode();

export { DL_DEFAULTS } from './setup';
export type { DeepLearningParams } from './setup';

let backendReady = false;

/**
 * Native TensorFlow bindings, when installed on the machine (GPU workers install
 * `@tensorflow/tfjs-node-gpu`; neither ships with the project because their install downloads
 * libtensorflow). Requiring one registers its 'tensorflow' backend. True when one loads, and
 * `initDeepLearningBackend` will then use it.
 */
export function loadNativeBackend(): boolean {
  for (const pkg of ['@tensorflow/tfjs-node-gpu', '@tensorflow/tfjs-node']) {
    try {
      require.resolve(pkg);
    } catch {
      continue;
    }
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional, machine-specific
      require(pkg);
      return true;
    } catch {
      // Present but unloadable (no CUDA, ABI mismatch): the portable backends follow.
    }
  }
  return false;
}

/**
 * Selects the fastest backend that starts: native TensorFlow (GPU or CPU) when installed,
 * else wasm, else 'cpu'. Resolves to the backend name. `threads` (default 1; 0 = every core)
 * is the wasm backend's thread pool, for the long fits that own a worker thread (synthgen);
 * the pool is made once per thread, so only the first call's count counts.
 */
export async function initDeepLearningBackend(options: { threads?: number } = {}): Promise<string> {
  if (loadNativeBackend()) {
    try {
      if (await tf.setBackend('tensorflow')) {
        await tf.ready();
        backendReady = true;
        return 'tensorflow';
      }
    } catch {
      // fall through to wasm
    }
  }
  const threads = options.threads === 0 ? allCores() : (options.threads ?? 1);
  let restore = () => undefined as void;
  try {
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    const dist = require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm').replace(/tfjs-backend-wasm\.wasm$/, '');
    wasm.setWasmPaths(dist);
    if (threads > 1 && tf.getBackend() !== 'wasm') restore = prepareWasmThreads(wasm, threads);
    if (await tf.setBackend('wasm')) {
      await tf.ready();
      backendReady = true;
      return 'wasm';
    }
  } catch {
    // fall through to cpu
  } finally {
    restore();
  }
  await tf.setBackend('cpu');
  backendReady = true;
  return 'cpu';
}

function ensureBackend(): void {
  if (backendReady && tf.getBackend()) return;
  // setBackend('cpu') initializes synchronously (its promise only reports the result).
  void tf.setBackend('cpu');
  backendReady = true;
}

/** Trains an MLP on data.rows; validRows drive early stopping. */
export function trainDeepLearning(data: TrainingData, params: DeepLearningParams = {}): DeepLearningModel {
  ensureBackend();
  const setup = prepareDeepLearning(data, params);
  const { p, width, K, Xtr, Ytr, Xva, Yva, n, sizes, hiddenDrop, B, rng } = setup;
  const kind = data.target.kind;
  const tanh = isTanh(p.activation);
  const Ws: tf.Variable[] = [];
  const bs: tf.Variable[] = [];
  for (let l = 0; l + 1 < sizes.length; l++) {
    Ws.push(tf.variable(tf.tensor2d(setup.initialWeights[l], [sizes[l], sizes[l + 1]])));
    bs.push(tf.variable(tf.zeros([sizes[l + 1]])));
  }
  const { input_dropout_ratio: inputDrop, l1, l2 } = p;
  const forward = (xb: tf.Tensor2D, train: boolean, seed: number): tf.Tensor2D => {
    let h: tf.Tensor2D = train && inputDrop > 0 ? (tf.dropout(xb, inputDrop, undefined, seed) as tf.Tensor2D) : xb;
    for (let l = 0; l < Ws.length; l++) {
      const z = tf.add(tf.matMul(h, Ws[l]), bs[l]) as tf.Tensor2D;
      if (l === Ws.length - 1) return z;
      h = tanh ? tf.tanh(z) : tf.relu(z);
      if (train && hiddenDrop[l] > 0) h = tf.dropout(h, hiddenDrop[l], undefined, seed + l + 1) as tf.Tensor2D;
    }
    return h;
  };
  const lossOf = (logits: tf.Tensor2D, yb: tf.Tensor2D): tf.Scalar => {
    if (kind === 'binary') return tf.losses.sigmoidCrossEntropy(yb, logits);
    if (kind === 'multiclass') return tf.losses.softmaxCrossEntropy(yb, logits);
    return tf.losses.meanSquaredError(yb, logits);
  };
  const penalty = (): tf.Scalar => {
    let s: tf.Scalar = tf.scalar(0);
    for (const w of Ws) {
      if (l1 > 0) s = tf.add(s, tf.mul(l1, tf.sum(tf.abs(w))));
      if (l2 > 0) s = tf.add(s, tf.mul(l2, tf.sum(tf.square(w))));
    }
    return s;
  };
  const optimizer = p.adaptive_rate ? tf.train.adam(p.rate) : tf.train.sgd(p.rate);
  const order = Uint32Array.from({ length: n }, (_, i) => i);
  const evalLoss = (X: Float32Array, Y: Float32Array, m: number): number => tf.tidy(() => lossOf(forward(tf.tensor2d(X, [m, width]), false, 0), tf.tensor2d(Y, [m, K])).dataSync()[0]);
  const history: number[] = [];
  let best = Infinity;
  let bestEpoch = 0;
  let bestWeights = Ws.map((w) => w.dataSync().slice());
  let bestBias = bs.map((b) => b.dataSync().slice());
  const events: DeepLearningJSON['scoring_history'] = [];
  for (let epoch = 0; epoch < p.epochs; epoch++) {
    rng.shuffle(order);
    for (let s = 0; s < n; s += B) {
      trainingPulse();
      const m = Math.min(B, n - s);
      const { xb, yb } = gatherBatch(setup, order, s, m);
      const seed = Math.floor(rng.next() * 2 ** 31);
      tf.tidy(() => {
        const xt = tf.tensor2d(xb, [m, width]);
        const yt = tf.tensor2d(yb, [m, K]);
        optimizer.minimize(() => tf.add(lossOf(forward(xt, true, seed), yt), penalty()) as tf.Scalar);
      });
    }
    const trainLoss = evalLoss(Xtr, Ytr, n);
    const metric = Xva && Yva ? evalLoss(Xva, Yva, setup.validCount) : trainLoss;
    events.push({ number_of_trees: epoch + 1, training: { loss: trainLoss }, ...(Xva ? { validation: { loss: metric } } : {}) });
    history.push(metric);
    if (metric < best) {
      best = metric;
      bestEpoch = epoch + 1;
      bestWeights = Ws.map((w) => w.dataSync().slice());
      bestBias = bs.map((b) => b.dataSync().slice());
    }
    if (deepLearningShouldStop(history, p)) break;
  }
  optimizer.dispose();
  Ws.forEach((w) => w.dispose());
  bs.forEach((b) => b.dispose());
  return deepLearningModel(setup, { weights: bestWeights, biases: bestBias, epoch: bestEpoch, loss: best }, events, tf.getBackend());
}

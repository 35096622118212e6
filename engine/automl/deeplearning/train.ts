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
import { toFeatureMatrix } from '../model';
import { Rng } from '../random';
import { TrainingData, allRows, featureSpecs } from '../training';
import { encodeMatrix, fitDesign } from '../encoding/design';
import { Activation, DeepLearningJSON, DeepLearningModel, isTanh } from './model';
import { trainingPulse } from '../pulse';

// Production mode only silences tfjs' console warnings. The one they print here is the cpu backend's advice, at its
// first write, to install tfjs-node, which the service already prefers when installed (loadNativeBackend).
tf.enableProdMode();

export interface DeepLearningParams {
  hidden?: number[];
  epochs?: number;
  activation?: Activation;
  input_dropout_ratio?: number;
  /** One per hidden layer; used by the ...WithDropout activations (default 0.5 each, as H2O). */
  hidden_dropout_ratios?: number[];
  l1?: number;
  l2?: number;
  adaptive_rate?: boolean;
  /** Learning rate (Adam's when adaptive_rate, SGD's otherwise). */
  rate?: number;
  /** Rows per Adam step, capped so that an epoch has at least ~100 steps (small data gets small batches). */
  mini_batch_size?: number;
  stopping_rounds?: number;
  stopping_tolerance?: number;
  max_categorical_levels?: number;
  seed?: number;
}

/** H2O's defaults, except mini-batch Adam (H2O steps per row). */
export const DL_DEFAULTS = {
  hidden: [200, 200],
  epochs: 10,
  activation: 'Rectifier',
  input_dropout_ratio: 0,
  l1: 0,
  l2: 0,
  adaptive_rate: true,
  rate: 0.001,
  mini_batch_size: 32,
  stopping_rounds: 5,
  stopping_tolerance: 0,
  max_categorical_levels: 100,
  seed: 42,
} as const;

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
  const p = { ...DL_DEFAULTS, ...params };
  const kind = data.target.kind;
  const specs = featureSpecs(data.features);
  const x = toFeatureMatrix(specs, data.features);
  const rows = data.rows ?? allRows(data.features.nrows);
  const design = fitDesign(specs, x, rows, { standardize: true, allLevels: true, maxLevels: p.max_categorical_levels });
  const width = design.width;
  const K = kind === 'multiclass' ? data.target.classes.length : 1;
  const yRaw = data.target.y;
  let yMean = 0;
  let ySd = 1;
  if (kind === 'regression') {
    for (const r of rows) yMean += yRaw[r];
    yMean /= rows.length || 1;
    let ss = 0;
    for (const r of rows) ss += (yRaw[r] - yMean) ** 2;
    ySd = Math.sqrt(ss / Math.max(1, rows.length - 1)) || 1;
  }
  const targets = (rs: Uint32Array): Float32Array => {
    const t = new Float32Array(rs.length * K);
    rs.forEach((r, i) => {
      if (kind === 'multiclass') t[i * K + yRaw[r]] = 1;
      else t[i] = kind === 'regression' ? (yRaw[r] - yMean) / ySd : yRaw[r];
    });
    return t;
  };
  const Xtr = Float32Array.from(encodeMatrix(design, x, rows));
  const Ytr = targets(rows);
  const valid = data.validRows && data.validRows.length ? data.validRows : null;
  const Xva = valid ? Float32Array.from(encodeMatrix(design, x, valid)) : null;
  const Yva = valid ? targets(valid) : null;

  const rng = new Rng(p.seed);
  const sizes = [width, ...p.hidden, K];
  const tanh = isTanh(p.activation);
  const withDropout = p.activation.endsWith('WithDropout');
  const hiddenDrop = p.hidden.map((_, i) => (withDropout ? (p.hidden_dropout_ratios?.[i] ?? 0.5) : 0));
  const Ws: tf.Variable[] = [];
  const bs: tf.Variable[] = [];
  for (let l = 0; l + 1 < sizes.length; l++) {
    const limit = Math.sqrt(6 / (sizes[l] + sizes[l + 1]));
    const w = Float32Array.from({ length: sizes[l] * sizes[l + 1] }, () => (rng.next() * 2 - 1) * limit);
    Ws.push(tf.variable(tf.tensor2d(w, [sizes[l], sizes[l + 1]])));
    bs.push(tf.variable(tf.zeros([sizes[l + 1]])));
  }
  const forward = (xb: tf.Tensor2D, train: boolean, seed: number): tf.Tensor2D => {
    let h: tf.Tensor2D = train && p.input_dropout_ratio > 0 ? (tf.dropout(xb, p.input_dropout_ratio, undefined, seed) as tf.Tensor2D) : xb;
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
      if (p.l1 > 0) s = tf.add(s, tf.mul(p.l1, tf.sum(tf.abs(w))));
      if (p.l2 > 0) s = tf.add(s, tf.mul(p.l2, tf.sum(tf.square(w))));
    }
    return s;
  };
  const optimizer = p.adaptive_rate ? tf.train.adam(p.rate) : tf.train.sgd(p.rate);
  const n = rows.length;
  const order = Uint32Array.from({ length: n }, (_, i) => i);
  const evalLoss = (X: Float32Array, Y: Float32Array, m: number): number => tf.tidy(() => lossOf(forward(tf.tensor2d(X, [m, width]), false, 0), tf.tensor2d(Y, [m, K])).dataSync()[0]);
  const history: number[] = [];
  let best = Infinity;
  let bestEpoch = 0;
  let bestWeights = Ws.map((w) => w.dataSync().slice());
  let bestBias = bs.map((b) => b.dataSync().slice());
  const events: DeepLearningJSON['scoring_history'] = [];
  const B = Math.max(1, Math.min(p.mini_batch_size, Math.max(16, Math.floor(n / 100))));
  for (let epoch = 0; epoch < p.epochs; epoch++) {
    rng.shuffle(order);
    for (let s = 0; s < n; s += B) {
      trainingPulse();
      const m = Math.min(B, n - s);
      const xb = new Float32Array(m * width);
      const yb = new Float32Array(m * K);
      for (let i = 0; i < m; i++) {
        const r = order[s + i];
        xb.set(Xtr.subarray(r * width, (r + 1) * width), i * width);
        yb.set(Ytr.subarray(r * K, (r + 1) * K), i * K);
      }
      const seed = Math.floor(rng.next() * 2 ** 31);
      tf.tidy(() => {
        const xt = tf.tensor2d(xb, [m, width]);
        const yt = tf.tensor2d(yb, [m, K]);
        optimizer.minimize(() => tf.add(lossOf(forward(xt, true, seed), yt), penalty()) as tf.Scalar);
      });
    }
    const trainLoss = evalLoss(Xtr, Ytr, n);
    const metric = Xva && Yva && valid ? evalLoss(Xva, Yva, valid.length) : trainLoss;
    events.push({ number_of_trees: epoch + 1, training: { loss: trainLoss }, ...(Xva ? { validation: { loss: metric } } : {}) });
    history.push(metric);
    if (metric < best) {
      best = metric;
      bestEpoch = epoch + 1;
      bestWeights = Ws.map((w) => w.dataSync().slice());
      bestBias = bs.map((b) => b.dataSync().slice());
    }
    if (p.stopping_rounds > 0 && history.length > p.stopping_rounds) {
      const prevBest = Math.min(...history.slice(0, history.length - p.stopping_rounds));
      const recent = Math.min(...history.slice(history.length - p.stopping_rounds));
      if (recent >= prevBest * (1 - p.stopping_tolerance)) break;
    }
  }
  optimizer.dispose();
  Ws.forEach((w) => w.dispose());
  bs.forEach((b) => b.dispose());

  const layers = bestWeights.map((w, l) => ({ weights: Array.from(w), bias: Array.from(bestBias[l]), inputs: sizes[l], outputs: sizes[l + 1] }));
  if (kind === 'regression') {
    // Fold the target standardization into the output layer: margin = yMean + ySd * out.
    const last = layers[layers.length - 1];
    last.weights = last.weights.map((v) => Math.fround(v * ySd));
    last.bias = last.bias.map((v) => Math.fround(v * ySd + yMean));
  }
  const json: DeepLearningJSON = {
    format_version: 1,
    algo: 'DeepLearning',
    kind,
    classes: data.target.classes.slice(),
    features: specs,
    design,
    activation: p.activation,
    layers,
    link: kind === 'binary' ? 'logistic' : kind === 'multiclass' ? 'softmax' : 'identity',
    params: { ...p },
    scoring_history: events,
    info: { epochs_trained: events.length, mini_batch_size: B, best_epoch: bestEpoch, best_loss: best, backend: tf.getBackend() },
  };
  return new DeepLearningModel(json);
}

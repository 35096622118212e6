/**
 * What a DeepLearning fit shares whichever engine takes its steps (TF.js in ./train.ts, WebGPU in engine/gpu): the
 * design, the encoded (standardized) rows and targets, the layer sizes, the mini-batch size, the Glorot
 * initialisation drawn from the seed's generator (which then shuffles each epoch and seeds each batch), H2O's
 * early-stopping rule and the assembly of the fitted model.
 */
import { toFeatureMatrix } from '../model';
import { Rng } from '../random';
import { TrainingData, allRows, featureSpecs } from '../training';
import { DesignJSON, encodeMatrix, fitDesign } from '../encoding/design';
import type { FeatureSpec } from '../model';
import { Activation, DeepLearningJSON, DeepLearningModel } from './model';

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

/** The parameters with H2O's defaults filled in. */
export type ResolvedDeepLearningParams = Required<Omit<DeepLearningParams, 'hidden_dropout_ratios'>> & Pick<DeepLearningParams, 'hidden_dropout_ratios'>;

export interface DeepLearningSetup {
  p: ResolvedDeepLearningParams;
  data: TrainingData;
  specs: FeatureSpec[];
  design: DesignJSON;
  width: number;
  /** Outputs: the classes of a multiclass target, else 1. */
  K: number;
  yMean: number;
  ySd: number;
  /** Training rows, encoded (n × width) and their targets (n × K). */
  Xtr: Float32Array;
  Ytr: Float32Array;
  n: number;
  /** Validation rows (validCount × width), or null. */
  Xva: Float32Array | null;
  Yva: Float32Array | null;
  validCount: number;
  /** [width, ...hidden, K]. */
  sizes: number[];
  /** Per hidden layer, its dropout ratio (0 without the ...WithDropout activations). */
  hiddenDrop: number[];
  /** Rows per step. */
  B: number;
  /** The seed's generator, past the initialisation: shuffles each epoch, then one draw per batch. */
  rng: Rng;
  /** Glorot uniform, per layer row-major inputs × outputs; the biases start at zero. */
  initialWeights: Float32Array[];
}

export function prepareDeepLearning(data: TrainingData, params: DeepLearningParams = {}): DeepLearningSetup {
  const p = { ...DL_DEFAULTS, hidden: [...DL_DEFAULTS.hidden], ...params } as ResolvedDeepLearningParams;
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
  const withDropout = p.activation.endsWith('WithDropout');
  const hiddenDrop = p.hidden.map((_, i) => (withDropout ? (p.hidden_dropout_ratios?.[i] ?? 0.5) : 0));
  const initialWeights: Float32Array[] = [];
  for (let l = 0; l + 1 < sizes.length; l++) {
    const limit = Math.sqrt(6 / (sizes[l] + sizes[l + 1]));
    initialWeights.push(Float32Array.from({ length: sizes[l] * sizes[l + 1] }, () => (rng.next() * 2 - 1) * limit));
  }
  const n = rows.length;
  const B = Math.max(1, Math.min(p.mini_batch_size, Math.max(16, Math.floor(n / 100))));
  return { p, data, specs, design, width, K, yMean, ySd, Xtr, Ytr, n, Xva, Yva, validCount: valid?.length ?? 0, sizes, hiddenDrop, B, rng, initialWeights };
}

/** Copies the shuffled rows s..s+m of the training set into one batch (m × width, m × K). */
export function gatherBatch(setup: DeepLearningSetup, order: Uint32Array, s: number, m: number): { xb: Float32Array; yb: Float32Array } {
  const { width, K, Xtr, Ytr } = setup;
  const xb = new Float32Array(m * width);
  const yb = new Float32Array(m * K);
  for (let i = 0; i < m; i++) {
    const r = order[s + i];
    xb.set(Xtr.subarray(r * width, (r + 1) * width), i * width);
    yb.set(Ytr.subarray(r * K, (r + 1) * K), i * K);
  }
  return { xb, yb };
}

/** H2O's early-stopping rule on the per-epoch metric history (relative `stopping_tolerance` over `stopping_rounds`). */
export function deepLearningShouldStop(history: number[], p: ResolvedDeepLearningParams): boolean {
  const rounds = p.stopping_rounds;
  if (!(rounds > 0 && history.length > rounds)) return false;
  const prevBest = Math.min(...history.slice(0, history.length - rounds));
  const recent = Math.min(...history.slice(history.length - rounds));
  return recent >= prevBest * (1 - p.stopping_tolerance);
}

export interface BestEpoch {
  weights: ArrayLike<number>[];
  biases: ArrayLike<number>[];
  epoch: number;
  loss: number;
}

/** The fitted model from the best epoch's weights, the regression target's scaling folded into the output layer. */
export function deepLearningModel(s: DeepLearningSetup, best: BestEpoch, events: DeepLearningJSON['scoring_history'], backend: string): DeepLearningModel {
  const { p, sizes, data } = s;
  const kind = data.target.kind;
  const layers = best.weights.map((w, l) => ({ weights: Array.from(w), bias: Array.from(best.biases[l]), inputs: sizes[l], outputs: sizes[l + 1] }));
  if (kind === 'regression') {
    // margin = yMean + ySd * out.
    const last = layers[layers.length - 1];
    last.weights = last.weights.map((v) => Math.fround(v * s.ySd));
    last.bias = last.bias.map((v) => Math.fround(v * s.ySd + s.yMean));
  }
  const json: DeepLearningJSON = {
    format_version: 1,
    algo: 'DeepLearning',
    kind,
    classes: data.target.classes.slice(),
    features: s.specs,
    design: s.design,
    activation: p.activation,
    layers,
    link: kind === 'binary' ? 'logistic' : kind === 'multiclass' ? 'softmax' : 'identity',
    params: { ...p },
    scoring_history: events,
    info: { epochs_trained: events.length, mini_batch_size: s.B, best_epoch: best.epoch, best_loss: best.loss, backend },
  };
  return new DeepLearningModel(json);
}

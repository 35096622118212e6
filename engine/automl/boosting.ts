/**
 * Gradient boosting loop shared by gbm.ts (H2O semantics) and xgboost.ts (XGBoost semantics).
 */
import { Distribution } from './distributions';
import { ScoringEvent, TreeEnsembleModel, Algo } from './model';
import { Rng, sampleWithoutReplacement } from './random';
import { binFrame } from './binning';
import { MetricOptions, TrainingData, resolveThreads, ValidationMargins, bestIndex, eventMetrics, h2oShouldStop, resolveData, resolveStoppingMetric } from './training';
import { Tree, TreeLearner, TreeParams, leafOfBinnedRow, sampleFeatures } from './tree';

export interface BoostingConfig {
  algo: Algo;
  ntrees: number;
  learningRate: number;
  /** Row sampling rate per iteration (without replacement). */
  sampleRate: number;
  /** Column sampling rate per tree. */
  colsampleByTree: number;
  tree: TreeParams;
  seed: number;
  distribution: Distribution;
  /** Overrides the distribution's initial margins. */
  baseScore?: number[];
  /**
   * H2O GBM: grow each tree on the gradients with unit hessians (a squared-error regression tree
   * on the pseudo-residuals) and then set each leaf to the Newton step with the true hessians.
   */
  splitOnUnitHessian: boolean;
  /** Multiplier of the Newton leaf refit ((K-1)/K for H2O multinomial). */
  newtonScale: number;
  /** Clamp of |leaf value| before the learning rate (0 = none). */
  leafClip: number;
  stopping: { rounds: number; metric: string; tolerance: number; mode: 'h2o' | 'xgboost' };
  /** Score every this many trees (and always after the last). */
  scoreInterval: number;
  metricOptions: MetricOptions;
  params: Record<string, unknown>;
  /** Threads for histogram building (<= 0: all cores). */
  nthreads?: number;
}

/** Trains a boosted ensemble. */
export function trainBoosting(d: TrainingData, cfg: BoostingConfig): TreeEnsembleModel {
  const binned = d.binned ?? binFrame(d.features);
  d = { ...d, binned };
  const learner = new TreeLearner(binned, cfg.tree, resolveThreads(cfg.nthreads));
  try {
    return boost(d, cfg, learner);
  } finally {
    learner.dispose();
  }
}

function boost(d: TrainingData, cfg: BoostingConfig, learner: TreeLearner): TreeEnsembleModel {
  const { binned, rows, specs, K } = resolveData(d);
  const y = d.target.y;
  const kind = d.target.kind;
  const dist = cfg.distribution;
  const nAll = binned.nrows;
  const rng = new Rng(cfg.seed);
  const base = cfg.baseScore ?? dist.init(y, rows, K);
  const margins = new Float64Array(nAll * K);
  for (const r of rows) for (let k = 0; k < K; k++) margins[r * K + k] = base[k];
  const g = new Float64Array(nAll);
  const h = new Float64Array(nAll);
  const ones = new Float64Array(nAll).fill(1);
  const inSample = new Uint8Array(nAll);
  const allFeatures = Int32Array.from(specs.map((_, j) => j));
  const trees: Tree[][] = Array.from({ length: K }, () => []);
  const valid = d.validation || d.validRows ? new ValidationMargins(d, specs, K, base, binned) : null;
  const history: ScoringEvent[] = [];
  const stopMetric = resolveStoppingMetric(cfg.stopping.metric, kind);
  const stopSeries: number[] = [];
  const trainY = Float64Array.from(rows, (r) => y[r]);
  const trainMargins = new Float64Array(rows.length * K);
  const info: Record<string, unknown> = { distribution: dist.name };
  let bestIter = -1;

  for (let iter = 0; iter < cfg.ntrees; iter++) {
    const sample = cfg.sampleRate < 1 ? pick(rows, Math.max(1, Math.round(cfg.sampleRate * rows.length)), rng) : rows;
    if (sample !== rows) {
      inSample.fill(0);
      for (const r of sample) inSample[r] = 1;
    }
    dist.prepare(y, margins, sample, K);
    const treeFeatures = sampleFeatures(allFeatures, cfg.colsampleByTree, 0, rng);
    for (let k = 0; k < K; k++) {
      dist.grad(y, margins, sample, K, k, g, h);
      const grown = learner.grow(sample, g, cfg.splitOnUnitHessian ? ones : h, treeFeatures, rng, cfg.learningRate);
      const { tree, leaves, index } = grown;
      const refit = dist.refit !== null || cfg.splitOnUnitHessian;
      for (let q = 0; q < leaves.length; q += 3) {
        const node = leaves[q];
        const start = leaves[q + 1];
        const end = leaves[q + 2];
        if (refit) {
          let v: number;
          if (dist.refit) v = dist.refit(y, margins, index, start, end);
          else {
            let G = 0;
            let H = 0;
            for (let i = start; i < end; i++) {
              G += g[index[i]];
              H += h[index[i]];
            }
            v = H > 0 ? (-G / H) * cfg.newtonScale : 0;
          }
          if (cfg.leafClip > 0) v = Math.max(-cfg.leafClip, Math.min(cfg.leafClip, v));
          tree.value[node] = Math.fround(v * cfg.learningRate);
        }
        const val = tree.value[node];
        for (let i = start; i < end; i++) margins[index[i] * K + k] += val;
      }
      if (sample !== rows) {
        for (const r of rows) if (!inSample[r]) margins[r * K + k] += tree.value[leafOfBinnedRow(tree, grown.masks, binned, r)];
      }
      trees[k].push(tree);
      valid?.add(tree, grown.masks, k, 1);
    }
    const last = iter === cfg.ntrees - 1;
    if (!last && (iter + 1) % cfg.scoreInterval !== 0) continue;
    for (let i = 0; i < rows.length; i++) for (let k = 0; k < K; k++) trainMargins[i * K + k] = margins[rows[i] * K + k];
    const event: ScoringEvent = { number_of_trees: iter + 1, training: eventMetrics(kind, trainY, trainMargins, dist.link, K, cfg.metricOptions) };
    if (valid) event.validation = eventMetrics(kind, valid.y, valid.margins, dist.link, K, cfg.metricOptions);
    history.push(event);
    if (cfg.stopping.rounds > 0) {
      const source = event.validation ?? event.training;
      const v = source[stopMetric];
      if (v === undefined) throw new Error(`unknown stopping metric ${cfg.stopping.metric} for ${kind}`);
      stopSeries.push(v);
      if (cfg.stopping.mode === 'h2o') {
        if (h2oShouldStop(stopSeries, stopMetric, cfg.stopping.rounds, cfg.stopping.tolerance)) {
          info.stopped_early_at = iter + 1;
          break;
        }
      } else {
        bestIter = bestIndex(stopSeries, stopMetric);
        if (stopSeries.length - 1 - bestIter >= cfg.stopping.rounds) {
          info.stopped_early_at = iter + 1;
          break;
        }
      }
    }
  }
  if (cfg.stopping.mode === 'xgboost' && bestIter >= 0) {
    // XGBoost keeps the best iteration's model when early stopping is on.
    info.best_iteration = bestIter;
    for (const ts of trees) ts.length = Math.min(ts.length, bestIter + 1);
  }
  const link = dist.link;
  return new TreeEnsembleModel(cfg.algo, kind, specs, d.target.classes, link, base, 'sum', trees, cfg.params, history, info);
}

function pick(rows: Uint32Array, k: number, rng: Rng): Uint32Array {
  const pos = sampleWithoutReplacement(rows.length, k, rng);
  const out = new Uint32Array(pos.length);
  for (let i = 0; i < pos.length; i++) out[i] = rows[pos[i]];
  return out;
}

import { Rng } from '../random';
import type { AlgoId, AutoMLConfig, Kind } from './config';

/** One model to train: its algorithm, its parameters and a leaderboard name. */
export interface ModelSpec {
  name: string;
  algo: Exclude<AlgoId, 'StackedEnsemble'>;
  params: Record<string, unknown>;
  /** `default` models come first (H2O's fixed plan); `grid` are random-search draws. */
  origin: 'default' | 'grid';
}

/** Tree families capped at this many trees, with early stopping on the fold's validation rows. */
const MAX_TREES = 300;

/**
 * H2O AutoML scores its tree models every 5 trees, so `stopping_rounds` 3 means no gain over
 * 15 trees. Scoring every tree (our default below 100k rows) made the patience 3 trees: on
 * small data the noisy validation curve of a fold then stops it at its first plateau, and the
 * final model inherits too few trees.
 */
const SCORE_TREE_INTERVAL = 5;

/**
 * The training order: strong defaults of each family first (after H2O AutoML's plan: XGBoost,
 * GLM, GBM, DRF, DeepLearning, XRT, then more GBM/XGBoost defaults; DeepLearning uses a small
 * [32, 32] network and batches of up to 256 rows at Adam rate 0.003 for speed), then
 * random grid draws within the model budget. Deterministic for a seed.
 */
export function planModels(config: AutoMLConfig, kind: Kind): ModelSpec[] {
  const excluded = new Set(config.exclude_algos);
  const stop = { stopping_rounds: config.stopping_rounds, stopping_tolerance: config.stopping_tolerance, score_tree_interval: SCORE_TREE_INTERVAL, seed: config.seed };
  // XGBoost scores every tree (as XGBoost itself does) and counts early_stopping_rounds in trees:
  // the same 15-tree patience.
  const xstop = { early_stopping_rounds: config.stopping_rounds * SCORE_TREE_INTERVAL, seed: config.seed };
  const dist = kind === 'regression' && config.distribution ? { distribution: config.distribution } : {};
  const defaults: ModelSpec[] = [
    { name: 'XGBoost_1', algo: 'XGBoost', origin: 'default', params: { ntrees: MAX_TREES, max_depth: 10, min_child_weight: 5, eta: 0.1, subsample: 0.6, colsample_bytree: 0.8, ...xstop } },
    { name: 'GLM_1', algo: 'GLM', origin: 'default', params: { alpha: 0.5, nlambdas: 30, seed: config.seed } },
    {
      name: 'GBM_1',
      algo: 'GBM',
      origin: 'default',
      params: { ntrees: MAX_TREES, max_depth: 6, min_rows: 1, sample_rate: 0.8, col_sample_rate: 0.8, col_sample_rate_per_tree: 0.8, learn_rate: 0.1, ...dist, ...stop },
    },
    { name: 'DRF_1', algo: 'DRF', origin: 'default', params: { ntrees: 50, ...stop } },
    {
      name: 'DeepLearning_1',
      algo: 'DeepLearning',
      origin: 'default',
      params: {
        hidden: [32, 32],
        epochs: 30,
        activation: 'Rectifier',
        mini_batch_size: 256,
        rate: 0.003,
        stopping_rounds: config.stopping_rounds,
        stopping_tolerance: config.stopping_tolerance,
        seed: config.seed,
      },
    },
    { name: 'XRT_1', algo: 'DRF', origin: 'default', params: { ntrees: 50, histogram_type: 'Random', ...stop } },
    {
      name: 'GBM_2',
      algo: 'GBM',
      origin: 'default',
      params: { ntrees: MAX_TREES, max_depth: 7, min_rows: 10, sample_rate: 0.8, col_sample_rate: 0.8, col_sample_rate_per_tree: 0.8, learn_rate: 0.1, ...dist, ...stop },
    },
    { name: 'XGBoost_2', algo: 'XGBoost', origin: 'default', params: { ntrees: MAX_TREES, max_depth: 20, min_child_weight: 10, eta: 0.1, subsample: 0.6, colsample_bytree: 0.8, ...xstop } },
    {
      name: 'GBM_3',
      algo: 'GBM',
      origin: 'default',
      params: { ntrees: MAX_TREES, max_depth: 8, min_rows: 10, sample_rate: 0.8, col_sample_rate: 0.8, col_sample_rate_per_tree: 0.8, learn_rate: 0.1, ...dist, ...stop },
    },
    { name: 'XGBoost_3', algo: 'XGBoost', origin: 'default', params: { ntrees: MAX_TREES, max_depth: 5, min_child_weight: 3, eta: 0.1, subsample: 0.8, colsample_bytree: 0.8, ...xstop } },
    {
      name: 'GBM_4',
      algo: 'GBM',
      origin: 'default',
      params: { ntrees: MAX_TREES, max_depth: 10, min_rows: 10, sample_rate: 0.8, col_sample_rate: 0.8, col_sample_rate_per_tree: 0.8, learn_rate: 0.1, ...dist, ...stop },
    },
    {
      name: 'GBM_5',
      algo: 'GBM',
      origin: 'default',
      params: { ntrees: MAX_TREES, max_depth: 15, min_rows: 100, sample_rate: 0.8, col_sample_rate: 0.8, col_sample_rate_per_tree: 0.8, learn_rate: 0.1, ...dist, ...stop },
    },
  ].filter((s) => !excluded.has(s.algo as AlgoId)) as ModelSpec[];

  const plan = defaults.slice(0, config.max_models);
  const rng = new Rng(config.seed ^ 0x5eed);
  const gridAlgos = (['GBM', 'XGBoost'] as const).filter((a) => !excluded.has(a));
  const counters: Record<string, number> = { GBM: 0, XGBoost: 0 };
  const pick = <T>(xs: readonly T[]): T => xs[rng.int(xs.length)];
  while (plan.length < config.max_models && gridAlgos.length) {
    const algo = gridAlgos[plan.length % gridAlgos.length];
    counters[algo] += 1;
    const name = `${algo}_grid_1_model_${counters[algo]}`;
    if (algo === 'GBM') {
      plan.push({
        name,
        algo,
        origin: 'grid',
        params: {
          ntrees: MAX_TREES,
          max_depth: pick([3, 4, 5, 6, 7, 8, 9, 10, 12, 15]),
          min_rows: pick([1, 5, 10, 15, 30, 100]),
          sample_rate: pick([0.5, 0.6, 0.7, 0.8, 0.9, 1]),
          col_sample_rate: pick([0.4, 0.7, 1]),
          col_sample_rate_per_tree: pick([0.4, 0.7, 1]),
          learn_rate: pick([0.05, 0.08, 0.1]),
          ...dist,
          ...stop,
        },
      });
    } else {
      plan.push({
        name,
        algo,
        origin: 'grid',
        params: {
          ntrees: MAX_TREES,
          max_depth: pick([3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20]),
          min_child_weight: pick([1, 3, 5, 10, 15, 20]),
          eta: pick([0.05, 0.1, 0.2]),
          subsample: pick([0.6, 0.8, 1]),
          colsample_bytree: pick([0.6, 0.8, 1]),
          lambda: pick([0.001, 0.01, 0.1, 1, 10, 100]),
          alpha: pick([0.001, 0.01, 0.1, 0.5, 1]),
          ...xstop,
        },
      });
    }
  }
  return plan;
}

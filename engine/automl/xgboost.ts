/**
 * XGBoost-style boosting: XGBoost parameter names and defaults, second-order (Newton) split gain
 * and leaf weights with lambda/alpha/gamma/max_delta_step, hist tree method.
 */
import { trainBoosting } from './boosting';
import { DistributionName, makeDistribution } from './distributions';
import { metricDistribution } from './gbm';
import { TreeEnsembleModel } from './model';
import { TrainingData } from './training';
import { DEFAULT_TREE_PARAMS } from './trees';

export type XGBObjective =
  'binary:logistic' | 'multi:softprob' | 'multi:softmax' | 'reg:squarederror' | 'reg:absoluteerror' | 'reg:quantileerror' | 'reg:pseudohubererror' | 'count:poisson' | 'reg:gamma' | 'reg:tweedie';

export interface XGBoostParams {
  n_estimators?: number;
  /** Alias of n_estimators (H2O XGBoost name). */
  ntrees?: number;
  max_depth?: number;
  eta?: number;
  /** Alias of eta. */
  learn_rate?: number;
  lambda?: number;
  alpha?: number;
  gamma?: number;
  min_child_weight?: number;
  max_delta_step?: number;
  subsample?: number;
  colsample_bytree?: number;
  colsample_bylevel?: number;
  colsample_bynode?: number;
  grow_policy?: 'depthwise' | 'lossguide';
  max_leaves?: number;
  objective?: XGBObjective;
  tweedie_variance_power?: number;
  quantile_alpha?: number;
  base_score?: number;
  early_stopping_rounds?: number;
  eval_metric?: string;
  /**
   * Score every this many trees. Default: every tree when there is validation data or early
   * stopping (like XGBoost's evals), otherwise only the final model (scoring costs a sort per event).
   */
  score_tree_interval?: number;
  seed?: number;
  /** Threads for histogram building (XGBoost nthread); -1 = all cores. */
  nthread?: number;
}

const OBJECTIVE_TO_DIST: Record<XGBObjective, DistributionName> = {
  'binary:logistic': 'bernoulli',
  'multi:softprob': 'multinomial',
  'multi:softmax': 'multinomial',
  'reg:squarederror': 'gaussian',
  'reg:absoluteerror': 'laplace',
  'reg:quantileerror': 'quantile',
  'reg:pseudohubererror': 'huber',
  'count:poisson': 'poisson',
  'reg:gamma': 'gamma',
  'reg:tweedie': 'tweedie',
};

/** Trains XGBoost-style boosted trees. */
export function trainXGBoost(data: TrainingData, params: XGBoostParams = {}): TreeEnsembleModel {
  const kind = data.target.kind;
  const objective: XGBObjective = params.objective ?? (kind === 'binary' ? 'binary:logistic' : kind === 'multiclass' ? 'multi:softprob' : 'reg:squarederror');
  const distName = OBJECTIVE_TO_DIST[objective];
  if ((kind === 'binary') !== (distName === 'bernoulli') || (kind === 'multiclass') !== (distName === 'multinomial')) {
    throw new Error(`objective ${objective} does not fit a ${kind} problem`);
  }
  const p = {
    n_estimators: params.n_estimators ?? params.ntrees ?? 100,
    max_depth: params.max_depth ?? 6,
    eta: params.eta ?? params.learn_rate ?? 0.3,
    lambda: params.lambda ?? 1,
    alpha: params.alpha ?? 0,
    gamma: params.gamma ?? 0,
    min_child_weight: params.min_child_weight ?? 1,
    // XGBoost defaults max_delta_step to 0.7 for count:poisson to keep exp() stable.
    max_delta_step: params.max_delta_step ?? (objective === 'count:poisson' ? 0.7 : 0),
    subsample: params.subsample ?? 1,
    colsample_bytree: params.colsample_bytree ?? 1,
    colsample_bylevel: params.colsample_bylevel ?? 1,
    colsample_bynode: params.colsample_bynode ?? 1,
    grow_policy: params.grow_policy ?? 'depthwise',
    max_leaves: params.max_leaves ?? 0,
    objective,
    tweedie_variance_power: params.tweedie_variance_power ?? 1.5,
    quantile_alpha: params.quantile_alpha ?? 0.5,
    early_stopping_rounds: params.early_stopping_rounds ?? 0,
    eval_metric: params.eval_metric ?? 'AUTO',
    seed: params.seed ?? 0,
    nthread: params.nthread ?? -1,
    score_tree_interval: params.score_tree_interval ?? (data.validation || data.validRows || (params.early_stopping_rounds ?? 0) > 0 ? 1 : Math.max(1, params.n_estimators ?? params.ntrees ?? 100)),
  };
  const K = kind === 'multiclass' ? data.target.classes.length : 1;
  const dist = makeDistribution(distName, {
    tweediePower: p.tweedie_variance_power,
    quantileAlpha: p.quantile_alpha,
    hessianScale: distName === 'multinomial' ? 2 : 1,
  });
  let baseScore: number[] | undefined;
  if (params.base_score !== undefined) {
    const b = params.base_score;
    baseScore = new Array<number>(K).fill(distName === 'bernoulli' ? Math.log(b / (1 - b)) : dist.link === 'log' ? Math.log(b) : b);
  } else if (distName === 'multinomial') {
    baseScore = new Array<number>(K).fill(0);
  }
  return trainBoosting(data, {
    algo: 'XGBoost',
    ntrees: p.n_estimators,
    learningRate: p.eta,
    sampleRate: p.subsample,
    colsampleByTree: p.colsample_bytree,
    tree: {
      ...DEFAULT_TREE_PARAMS,
      // lossguide with max_depth 0 means unlimited depth, as in XGBoost.
      maxDepth: p.max_depth,
      maxLeaves: p.max_leaves,
      growPolicy: p.grow_policy,
      // XGBoost has no row-count limit; hessian sums stand in for counts (only positivity matters).
      minRows: 0,
      countsFromHessian: true,
      minChildWeight: p.min_child_weight,
      lambda: p.lambda,
      alpha: p.alpha,
      gamma: p.gamma,
      maxDeltaStep: p.max_delta_step,
      colsampleByLevel: p.colsample_bylevel,
      colsampleByNode: p.colsample_bynode,
    },
    seed: p.seed,
    distribution: dist,
    baseScore,
    // Absolute and quantile losses refit leaves to residual quantiles, as XGBoost >= 1.7/2.0 does.
    splitOnUnitHessian: false,
    newtonScale: 1,
    leafClip: 0,
    stopping: { rounds: p.early_stopping_rounds, metric: p.eval_metric, tolerance: 0, mode: 'xgboost' },
    scoreInterval: p.score_tree_interval,
    metricOptions: { distribution: metricDistribution(distName), tweediePower: p.tweedie_variance_power, quantileAlpha: p.quantile_alpha },
    params: p,
    nthreads: p.nthread,
  });
}

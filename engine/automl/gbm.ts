/**
 * H2O-style GBM: H2O parameter names and defaults. Trees are squared-error regression trees on
 * the pseudo-residuals (unit hessians), leaves refit with a Newton step (or the residual
 * median/quantile for laplace/quantile), as H2O does.
 */
import { trainBoosting } from './boosting';
import { DistributionName, makeDistribution } from './distributions';
import { DevianceKind } from './metrics';
import { TreeEnsembleModel } from './model';
import { scoreTreeInterval, TrainingData } from './training';
import { DEFAULT_TREE_PARAMS } from './trees';

export interface GBMParams {
  ntrees?: number;
  max_depth?: number;
  learn_rate?: number;
  sample_rate?: number;
  /** Column sampling rate per split (H2O col_sample_rate). */
  col_sample_rate?: number;
  col_sample_rate_per_tree?: number;
  /** Column sampling rate per depth level (H2O col_sample_rate_change_per_level is approximated by this). */
  col_sample_rate_per_level?: number;
  min_rows?: number;
  /** Accepted for compatibility; binning uses the shared bins (up to 255) computed once per frame. */
  nbins?: number;
  min_split_improvement?: number;
  /** 'AUTO' picks bernoulli / multinomial / gaussian from the problem kind. */
  distribution?: 'AUTO' | DistributionName;
  tweedie_power?: number;
  quantile_alpha?: number;
  huber_alpha?: number;
  stopping_rounds?: number;
  stopping_metric?: string;
  stopping_tolerance?: number;
  /** Score every so many trees; 0 (the default) = auto, see scoreTreeInterval. */
  score_tree_interval?: number;
  seed?: number;
  /** Threads for histogram building; -1 = all cores. */
  nthreads?: number;
}

export const GBM_DEFAULTS: Required<GBMParams> = {
  ntrees: 50,
  max_depth: 5,
  learn_rate: 0.1,
  sample_rate: 1,
  col_sample_rate: 1,
  col_sample_rate_per_tree: 1,
  col_sample_rate_per_level: 1,
  min_rows: 10,
  nbins: 20,
  min_split_improvement: 1e-5,
  distribution: 'AUTO',
  tweedie_power: 1.5,
  quantile_alpha: 0.5,
  huber_alpha: 0.9,
  stopping_rounds: 0,
  stopping_metric: 'AUTO',
  stopping_tolerance: 0.001,
  score_tree_interval: 0,
  seed: 42,
  nthreads: -1,
};

/** Trains an H2O-style GBM. */
export function trainGBM(data: TrainingData, params: GBMParams = {}): TreeEnsembleModel {
  const p: Required<GBMParams> = { ...GBM_DEFAULTS, ...params };
  const kind = data.target.kind;
  const distName: DistributionName = p.distribution === 'AUTO' ? (kind === 'binary' ? 'bernoulli' : kind === 'multiclass' ? 'multinomial' : 'gaussian') : p.distribution;
  if ((kind === 'binary') !== (distName === 'bernoulli') || (kind === 'multiclass') !== (distName === 'multinomial')) {
    throw new Error(`distribution ${distName} does not fit a ${kind} problem`);
  }
  const dist = makeDistribution(distName, { tweediePower: p.tweedie_power, quantileAlpha: p.quantile_alpha, huberAlpha: p.huber_alpha });
  const K = kind === 'multiclass' ? data.target.classes.length : 1;
  return trainBoosting(data, {
    algo: 'GBM',
    ntrees: p.ntrees,
    learningRate: p.learn_rate,
    sampleRate: p.sample_rate,
    colsampleByTree: p.col_sample_rate_per_tree,
    tree: {
      ...DEFAULT_TREE_PARAMS,
      maxDepth: p.max_depth,
      minRows: p.min_rows,
      minChildWeight: 0,
      // Trees are grown with unit hessians, so hessian sums are exact row counts.
      countsFromHessian: true,
      lambda: 0,
      gamma: p.min_split_improvement,
      colsampleByLevel: p.col_sample_rate_per_level,
      colsampleByNode: p.col_sample_rate,
    },
    seed: p.seed,
    distribution: dist,
    splitOnUnitHessian: true,
    newtonScale: distName === 'multinomial' ? (K - 1) / K : 1,
    // H2O bounds leaf values of the logistic losses so separable data cannot blow up the margins.
    leafClip: distName === 'bernoulli' || distName === 'multinomial' ? 19 : 0,
    stopping: { rounds: p.stopping_rounds, metric: p.stopping_metric, tolerance: p.stopping_tolerance, mode: 'h2o' },
    scoreInterval: scoreTreeInterval(p.score_tree_interval, data.rows?.length ?? data.features.nrows),
    metricOptions: { distribution: metricDistribution(distName), tweediePower: p.tweedie_power, quantileAlpha: p.quantile_alpha },
    params: { ...p, distribution: distName },
    nthreads: p.nthreads,
  });
}

/** Deviance used for regression metrics under a distribution. */
export function metricDistribution(d: DistributionName): DevianceKind | undefined {
  return d === 'bernoulli' || d === 'multinomial' ? undefined : d;
}

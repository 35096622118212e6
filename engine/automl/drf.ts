/**
 * H2O-style distributed random forest (and extremely randomized trees with histogram_type
 * 'Random'): each tree is a squared-error regression tree on the target (one tree per class on
 * the one-hot target for multiclass), grown on a sample of sample_rate (0.632) of the rows drawn
 * without replacement, with mtries features tried at each split. Predictions average the trees;
 * training metrics are out-of-bag, as H2O reports them.
 */
import { binFrame } from './binning';
import { ScoringEvent, TreeEnsembleModel } from './model';
import { Rng, sampleWithoutReplacement } from './random';
import { TrainingData, ValidationMargins, resolveThreads, eventMetrics, h2oShouldStop, resolveData, resolveStoppingMetric, scoreTreeInterval } from './training';
import { DEFAULT_TREE_PARAMS, Tree, TreeLearner, leafOfBinnedRow, sampleFeatures } from './trees';
import { trainingPulse } from './pulse';

export interface DRFParams {
  ntrees?: number;
  max_depth?: number;
  min_rows?: number;
  sample_rate?: number;
  /** -1: sqrt(p) for classification, p/3 for regression; -2: all features. */
  mtries?: number;
  col_sample_rate_per_tree?: number;
  /** 'Random' builds extremely randomized trees (one random threshold per feature and split). */
  histogram_type?: 'AUTO' | 'QuantilesGlobal' | 'Random';
  min_split_improvement?: number;
  stopping_rounds?: number;
  stopping_metric?: string;
  stopping_tolerance?: number;
  /** Score every so many trees; 0 (the default) = auto, see scoreTreeInterval. */
  score_tree_interval?: number;
  seed?: number;
  /** Threads for histogram building; -1 = all cores. */
  nthreads?: number;
}

export const DRF_DEFAULTS: Required<DRFParams> = {
  ntrees: 50,
  max_depth: 20,
  min_rows: 1,
  sample_rate: 0.632,
  mtries: -1,
  col_sample_rate_per_tree: 1,
  histogram_type: 'AUTO',
  min_split_improvement: 1e-5,
  stopping_rounds: 0,
  stopping_metric: 'AUTO',
  stopping_tolerance: 0.001,
  score_tree_interval: 0,
  seed: 42,
  nthreads: -1,
};

/** Trains a random forest (or XRT with histogram_type 'Random'). */
export function trainDRF(data: TrainingData, params: DRFParams = {}): TreeEnsembleModel {
  const p: Required<DRFParams> = { ...DRF_DEFAULTS, ...params };
  const binned = data.binned ?? binFrame(data.features);
  data = { ...data, binned };
  const kind = data.target.kind;
  const nf = data.features.columns.length;
  const mtries = p.mtries === -2 ? nf : p.mtries > 0 ? Math.min(nf, p.mtries) : Math.max(1, Math.floor(kind === 'regression' ? nf / 3 : Math.sqrt(nf)));
  const learner = new TreeLearner(
    binned,
    {
      ...DEFAULT_TREE_PARAMS,
      maxDepth: p.max_depth,
      minRows: p.min_rows,
      minChildWeight: 0,
      // Unit hessians: hessian sums are exact row counts.
      countsFromHessian: true,
      lambda: 0,
      gamma: p.min_split_improvement,
      mtries,
      randomSplits: p.histogram_type === 'Random',
    },
    resolveThreads(p.nthreads),
  );
  try {
    return grow(data, p, learner, mtries);
  } finally {
    learner.dispose();
  }
}

function grow(data: TrainingData, p: Required<DRFParams>, learner: TreeLearner, mtries: number): TreeEnsembleModel {
  const { binned, rows, specs, K } = resolveData(data);
  const scoreInterval = scoreTreeInterval(p.score_tree_interval, rows.length);
  const kind = data.target.kind;
  const y = data.target.y;
  const rng = new Rng(p.seed);
  const nAll = binned.nrows;
  const g = new Float64Array(nAll);
  const h = new Float64Array(nAll).fill(1);
  const inBag = new Uint8Array(nAll);
  const oobSum = new Float64Array(nAll * K);
  const oobCount = new Float64Array(nAll);
  const trees: Tree[][] = Array.from({ length: K }, () => []);
  const allFeatures = Int32Array.from(specs.map((_, j) => j));
  const base = new Array<number>(K).fill(0);
  const valid = data.validation || data.validRows ? new ValidationMargins(data, specs, K, base, binned) : null;
  const history: ScoringEvent[] = [];
  const info: Record<string, unknown> = { mtries };
  const stopMetric = resolveStoppingMetric(p.stopping_metric, kind);
  const stopSeries: number[] = [];
  const sampleSize = Math.max(1, Math.round(p.sample_rate * rows.length));

  for (let iter = 0; iter < p.ntrees; iter++) {
    trainingPulse();
    const pos = sampleWithoutReplacement(rows.length, sampleSize, rng);
    const sample = new Uint32Array(pos.length);
    for (let i = 0; i < pos.length; i++) sample[i] = rows[pos[i]];
    inBag.fill(0);
    for (const r of sample) inBag[r] = 1;
    const treeFeatures = sampleFeatures(allFeatures, p.col_sample_rate_per_tree, 0, rng);
    for (let k = 0; k < K; k++) {
      // Squared error on the (one-hot) target: leaf weight -G/H is the mean target of the leaf.
      for (const r of sample) g[r] = kind === 'multiclass' ? -(y[r] === k ? 1 : 0) : -y[r];
      const grown = learner.grow(sample, g, h, treeFeatures, rng, 1);
      trees[k].push(grown.tree);
      for (const r of rows) if (!inBag[r]) oobSum[r * K + k] += grown.tree.value[leafOfBinnedRow(grown.tree, grown.routes, binned, r)];
      valid?.add(grown.tree, grown.routes, k, 1);
    }
    for (const r of rows) if (!inBag[r]) oobCount[r]++;
    const last = iter === p.ntrees - 1;
    if (!last && (iter + 1) % scoreInterval !== 0) continue;
    // Out-of-bag metrics over rows that were out of bag at least once.
    const oobRows = Array.from(rows).filter((r) => oobCount[r] > 0);
    const event: ScoringEvent = { number_of_trees: iter + 1, training: {} };
    if (oobRows.length > 0) {
      const oy = Float64Array.from(oobRows, (r) => y[r]);
      const om = new Float64Array(oobRows.length * K);
      oobRows.forEach((r, i) => {
        for (let k = 0; k < K; k++) om[i * K + k] = oobSum[r * K + k] / oobCount[r];
      });
      event.training = eventMetrics(kind, oy, om, 'average', K);
    }
    if (valid)
      event.validation = eventMetrics(
        kind,
        valid.y,
        valid.margins.map((v) => v / (iter + 1)),
        'average',
        K,
      );
    history.push(event);
    if (p.stopping_rounds > 0) {
      const v = (event.validation ?? event.training)[stopMetric];
      if (v === undefined) throw new Error(`unknown stopping metric ${p.stopping_metric} for ${kind}`);
      stopSeries.push(v);
      if (h2oShouldStop(stopSeries, stopMetric, p.stopping_rounds, p.stopping_tolerance)) {
        info.stopped_early_at = iter + 1;
        break;
      }
    }
  }
  const lastEvent = history[history.length - 1];
  if (lastEvent) info.oob_metrics = lastEvent.training;
  return new TreeEnsembleModel('DRF', kind, specs, data.target.classes, 'average', base, 'average', trees, { ...p, mtries }, history, info);
}

/**
 * Gradient boosting loop shared by gbm.ts (H2O semantics) and xgboost.ts (XGBoost semantics).
 */
import { Distribution } from './distributions';
import { ScoringEvent, TreeEnsembleModel, Algo } from './model';
import { Rng, sampleWithoutReplacement } from './random';
import { binFrame } from './binning';
import { MetricOptions, TrainingData, resolveThreads, ValidationMargins, bestIndex, eventMetrics, h2oShouldStop, resolveData, resolveStoppingMetric } from './training';
import {
  JOB_GRADIENTS,
  JOB_MARGINS,
  PAIRS_HESSIAN,
  PAIRS_NONE,
  PAIRS_UNIT,
  PartRunner,
  Tree,
  TreeLearner,
  TreeParams,
  addLeafValuesPart,
  gradientsPart,
  leafOfBinnedRow,
  partRange,
  sampleFeatures,
} from './trees';
import { trainingPulse } from './pulse';

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
  const threads = resolveThreads(cfg.nthreads);
  const binned = d.binned ?? binFrame(d.features, { threads });
  d = { ...d, binned };
  const learner = new TreeLearner(binned, cfg.tree, threads);
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
  const par = RowJobs.create(learner.jobs, nAll, K, rows.length);
  const margins = par ? par.margins : new Float64Array(nAll * K);
  for (const r of rows) for (let k = 0; k < K; k++) margins[r * K + k] = base[k];
  const g = par ? par.g : new Float64Array(nAll);
  const h = par ? par.h : new Float64Array(nAll);
  const kernel = K === 1 ? dist.rowKernel : undefined;
  if (par && kernel) par.shareTarget(y);
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
    trainingPulse();
    const sample = cfg.sampleRate < 1 ? pick(rows, Math.max(1, Math.round(cfg.sampleRate * rows.length)), rng) : rows;
    if (sample !== rows) {
      inSample.fill(0);
      for (const r of sample) inSample[r] = 1;
    }
    dist.prepare(y, margins, sample, K);
    const treeFeatures = sampleFeatures(allFeatures, cfg.colsampleByTree, 0, rng);
    for (let k = 0; k < K; k++) {
      const treeHess = cfg.splitOnUnitHessian ? ones : h;
      // The pairs the histograms read are written in the same pass.
      if (par && kernel) par.gradients(kernel.kind, kernel.hs, sample, treeHess);
      else dist.grad(y, margins, sample, K, k, g, h);
      const grown = learner.grow(sample, g, treeHess, treeFeatures, rng, cfg.learningRate);
      const { tree, leaves, index } = grown;
      if (dist.refit !== null || cfg.splitOnUnitHessian) {
        for (let q = 0; q < leaves.length; q += 3) {
          const node = leaves[q];
          const start = leaves[q + 1];
          const end = leaves[q + 2];
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
      }
      // After all refits: a refit reads only its own leaf's margins, so the order is unchanged.
      if (par) par.addLeafValues(tree, leaves, index, k);
      else {
        for (let q = 0; q < leaves.length; q += 3) {
          const val = tree.value[leaves[q]];
          for (let i = leaves[q + 1]; i < leaves[q + 2]; i++) margins[index[i] * K + k] += val;
        }
      }
      if (sample !== rows) {
        for (const r of rows) if (!inSample[r]) margins[r * K + k] += tree.value[leafOfBinnedRow(tree, grown.routes, binned, r)];
      }
      trees[k].push(tree);
      valid?.add(tree, grown.routes, k, 1);
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
        // XGBoost counts early_stopping_rounds in boosting rounds, whatever the scoring interval.
        if (iter + 1 - history[bestIter].number_of_trees >= cfg.stopping.rounds) {
          info.stopped_early_at = iter + 1;
          break;
        }
      }
    }
  }
  if (cfg.stopping.mode === 'xgboost' && bestIter >= 0) {
    // XGBoost keeps the best iteration's model when early stopping is on (bestIter indexes the
    // scoring events, which come every scoreInterval trees).
    const keep = history[bestIter].number_of_trees;
    info.best_iteration = keep - 1;
    for (const ts of trees) ts.length = Math.min(ts.length, keep);
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

/** Below this many training rows, gradients and margin updates stay on the calling thread. */
export const PARALLEL_ROWS_MIN = 50000;

/**
 * Gradients and margin updates on the learner's helper threads as well: the per-row arrays live in
 * SharedArrayBuffers the helpers see, and each thread handles a range of rows. Every row is
 * computed exactly as in the serial loops, so models do not depend on the thread count.
 */
class RowJobs {
  private readonly parts: number;
  private sample: Uint32Array | null = null;
  private sampleBuf: Uint32Array;
  private leafBuf: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private readonly gradArgs: Float64Array;
  private y: Float64Array = new Float64Array(0);

  private constructor(
    private readonly jobs: PartRunner,
    readonly margins: Float64Array,
    readonly g: Float64Array,
    readonly h: Float64Array,
    private readonly K: number,
  ) {
    this.parts = 2 * jobs.threads;
    this.sampleBuf = new Uint32Array(new SharedArrayBuffer(Math.max(8, 4 * g.length)), 0, g.length);
    this.gradArgs = new Float64Array(new SharedArrayBuffer(8));
    for (const [name, arr] of [
      ['margins', margins],
      ['g', g],
      ['h', h],
      ['sample', this.sampleBuf],
      ['gradArgs', this.gradArgs],
    ] as const)
      jobs.attach(name, arr);
  }

  /** Row jobs for a training of nAll rows (training on `n` of them), or null where they would not pay. */
  static create(jobs: PartRunner, nAll: number, K: number, n: number): RowJobs | null {
    if (jobs.threads < 2 || n < PARALLEL_ROWS_MIN) return null;
    const f64 = (len: number): Float64Array => new Float64Array(new SharedArrayBuffer(Math.max(8, 8 * len)), 0, len);
    return new RowJobs(jobs, f64(nAll * K), f64(nAll), f64(nAll), K);
  }

  /** Makes the target visible to the helpers (a shared copy unless it is shared already). */
  shareTarget(y: Float64Array): void {
    let shared = y;
    if (!(y.buffer instanceof SharedArrayBuffer)) {
      shared = new Float64Array(new SharedArrayBuffer(Math.max(8, 8 * y.length)), 0, y.length);
      shared.set(y);
    }
    this.y = shared;
    this.jobs.attach('y', shared);
  }

  /**
   * g and h of the sampled rows with gradient kernel `kind` (trees/row-jobs.ts GRAD_*), and in the same
   * pass the learner's interleaved gradient pairs (PartRunner.gradientPairs, where it has them) of g
   * and `treeHess`, the hessians the tree grows on: h itself, or all ones (H2O GBM).
   */
  gradients(kind: number, hs: number, sample: Uint32Array, treeHess: Float64Array): void {
    if (sample !== this.sample) {
      this.sampleBuf.set(sample);
      this.sample = sample;
    }
    this.gradArgs[0] = hs;
    const n = sample.length;
    const { parts, y, margins, g, h } = this;
    const rows = this.sampleBuf;
    const gh = this.jobs.gradientPairs;
    const pairs = !gh ? PAIRS_NONE : treeHess === h ? PAIRS_HESSIAN : PAIRS_UNIT;
    this.jobs.runParts(JOB_GRADIENTS, parts, [n, kind, pairs], (c) => {
      const [a, b] = partRange(n, parts, c);
      gradientsPart(kind, y, margins, rows, a, b, g, h, hs, gh, pairs);
    });
    if (gh) this.jobs.pairsFilled(g, treeHess);
  }

  /**
   * margins[r * K + k] += value of r's leaf, for the rows of every leaf of the grown tree; `index`
   * is the learner's row index (shared with the helpers as 'index'), which the leaf ranges refer to.
   */
  addLeafValues(tree: Tree, leaves: Int32Array, index: Uint32Array, k: number): void {
    const nleaves = leaves.length / 3;
    if (this.leafBuf.length < 3 * nleaves) {
      this.leafBuf = new Float64Array(new SharedArrayBuffer(8 * 3 * Math.max(64, nleaves)));
      this.jobs.attach('leaves', this.leafBuf);
    }
    const lb = this.leafBuf;
    let n = 0;
    for (let q = 0; q < nleaves; q++) {
      lb[3 * q] = leaves[3 * q + 1];
      lb[3 * q + 1] = leaves[3 * q + 2];
      lb[3 * q + 2] = tree.value[leaves[3 * q]];
      n = Math.max(n, leaves[3 * q + 2]);
    }
    const { parts, margins, K } = this;
    this.jobs.runParts(JOB_MARGINS, parts, [n, nleaves, K, k], (c) => {
      const [a, b] = partRange(n, parts, c);
      addLeafValuesPart(margins, index, lb, nleaves, K, k, a, b);
    });
  }
}

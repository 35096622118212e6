import { selectRows } from '../frame';
import { DRF_DEFAULTS, trainDRF } from '../drf';
import { GBM_DEFAULTS, trainGBM } from '../gbm';
import { Frame } from '../frame';
import { Prediction, RowObject, ScoringEvent, TreeEnsembleModel, VariableImportance } from '../model';
import { TrainingData } from '../training';
import { trainXGBoost } from '../xgboost';
import { GLM_DEFAULTS, trainGLM } from '../glm/train';
import { DL_DEFAULTS, trainDeepLearning } from '../deeplearning/train';
import type { DeepLearningJSON } from '../deeplearning/model';
import type { AnyModelJSON } from '../registry';
import type { ModelSpec } from './plan';
import { ModelMetrics, scoreMetrics } from './model-metrics';
import type { PreparedExperiment } from './prepare';
import type { RocCurve } from '../metrics';
import type { BinaryCurves } from '../curves';

/** A model budget ran out before the model finished; the driver moves on. */
export class ModelBudgetExceeded extends Error {
  readonly name = 'ModelBudgetExceeded';
}

export interface CandidateResult {
  spec: ModelSpec;
  /** Serialized final model; `modelFromJSON` (../registry) scores any algorithm. */
  model: AnyModelJSON;
  metrics: ModelMetrics;
  /** Out-of-fold (or validation) scores, row-major n x K for classification, n for regression. */
  holdout: { rows: Uint32Array; scores: Float64Array };
  roc: RocCurve | null;
  /** Binary only: PR curve and threshold table on the holdout rows (see ../curves.ts). */
  curves: BinaryCurves | null;
  varimp: VariableImportance[];
  parameters: Record<string, { default: unknown; actual: unknown }>;
  scoringHistory: ScoringEvent[];
  trainingTimeMs: number;
  predictTimePerRowMs: number;
  events: string[];
}

export interface CandidateOptions {
  /** Wall-clock deadline (ms since epoch) for this model; checked between folds. */
  deadlineMs?: number;
  onProgress?: (fraction: number, message: string) => void;
}

/** What the driver needs of a trained model of any algorithm. */
export interface CandidateModel {
  predict(input: Frame | RowObject[]): Prediction;
  varimp(): VariableImportance[];
  toJSON(): AnyModelJSON;
}

/**
 * How an algorithm trains, what its fold models settle on (trees after early stopping, GLM's
 * selected lambda, DeepLearning's best epoch) and the final model's parameters from that.
 */
interface Trainer {
  train(d: TrainingData, params: Record<string, unknown>): Trained;
  settled(m: Trained): number;
  /**
   * Boosting only: the fold model's holdout loss after each scored number of rounds, and the
   * model cut to its first `rounds` rounds. With these the folds share one number of rounds,
   * chosen on their summed holdout loss (see commonRounds).
   */
  rounds?: { curve(m: Trained): Map<number, number>; truncate(m: Trained, rounds: number): Trained };
  /** Final-model parameters from the fold models' settled values (no early stopping). */
  finalParams(params: Record<string, unknown>, settled: number[]): Record<string, unknown>;
  describe(m: Trained): string;
}

type Trained = CandidateModel;

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);

function treeTrainer(fit: (d: TrainingData, p: Record<string, unknown>) => TreeEnsembleModel, xgb: boolean, boosting: boolean): Trainer {
  const trees = (m: Trained): number => (m as TreeEnsembleModel).trees[0]?.length ?? 0;
  return {
    train: fit,
    settled: trees,
    ...(boosting ? { rounds: { curve: holdoutLossCurve, truncate: (m: Trained, rounds: number) => firstTrees(m as TreeEnsembleModel, rounds) } } : {}),
    finalParams: (params, settled) => {
      const p: Record<string, unknown> = { ...params, stopping_rounds: 0, early_stopping_rounds: 0, ntrees: Math.max(1, Math.round(mean(settled))) };
      if (!xgb) delete p.early_stopping_rounds;
      return p;
    },
    describe: (m) => `${trees(m)} trees`,
  };
}

const TRAINERS: Record<ModelSpec['algo'], Trainer> = {
  GBM: treeTrainer((d, p) => trainGBM(d, p), false, true),
  XGBoost: treeTrainer((d, p) => trainXGBoost(d, p), true, true),
  // A forest's trees are not a capacity to tune: more never hurt in expectation.
  DRF: treeTrainer((d, p) => trainDRF(d, p), false, false),
  GLM: {
    train: (d, p) => trainGLM(d, p),
    settled: (m) => (m.toJSON() as { lambda: number }).lambda,
    // The geometric mean of the folds' lambdas: they spread over orders of magnitude.
    finalParams: (params, settled) => ({ ...params, lambda: Math.exp(mean(settled.map((l) => Math.log(Math.max(l, 1e-12))))) }),
    describe: (m) => `lambda ${(m.toJSON() as { lambda: number }).lambda.toPrecision(4)}`,
  },
  DeepLearning: {
    train: (d, p) => trainDeepLearning(d, p),
    settled: (m) => Number((m.toJSON() as DeepLearningJSON).info.best_epoch),
    finalParams: (params, settled) => ({ ...params, stopping_rounds: 0, epochs: Math.max(1, Math.round(mean(settled))) }),
    describe: (m) => `best epoch ${String((m.toJSON() as DeepLearningJSON).info.best_epoch)}`,
  },
};

/** Mean holdout loss (deviance, or log loss) by number of trees, for counts the model still has. */
function holdoutLossCurve(m: Trained): Map<number, number> {
  const curve = new Map<number, number>();
  const t = m as TreeEnsembleModel;
  for (const e of t.scoringHistory) {
    const v = e.validation;
    const loss = v ? (v.deviance ?? v.logloss) : undefined;
    if (loss !== undefined && e.number_of_trees <= (t.trees[0]?.length ?? 0)) curve.set(e.number_of_trees, loss);
  }
  return curve;
}

function firstTrees(m: TreeEnsembleModel, rounds: number): TreeEnsembleModel {
  return new TreeEnsembleModel(
    m.algo,
    m.kind,
    m.features,
    m.classes,
    m.link,
    m.baseScore,
    m.aggregation,
    m.trees.map((ts) => ts.slice(0, rounds)),
    m.params,
    m.scoringHistory,
    m.info,
  );
}

/**
 * The number of rounds every fold model is cut to: the least holdout loss, summed over the folds'
 * rows (curves: mean loss by count, with the fold's row count), over the counts
 * scored in every fold (as xgb.cv / lgb.cv choose it). Each fold still stops on its own holdout,
 * which only bounds how far its curve runs; its holdout scores then come from a count chosen on
 * all folds together rather than from the best point of its own holdout curve, which made
 * out-of-fold scores optimistic on small data (and misled leader choice and the metalearner).
 * Null when no count was scored in every fold.
 */
export function commonRounds(curves: { loss: Map<number, number>; rows: number }[]): number | null {
  let best: { rounds: number; loss: number } | null = null;
  for (const [rounds] of curves[0]?.loss ?? []) {
    if (!curves.every((c) => c.loss.has(rounds))) continue;
    const loss = curves.reduce((s, c) => s + (c.loss.get(rounds) as number) * c.rows, 0);
    if (!best || loss < best.loss) best = { rounds, loss };
  }
  return best?.rounds ?? null;
}

const DEFAULTS: Record<string, Record<string, unknown>> = { GBM: GBM_DEFAULTS, DRF: DRF_DEFAULTS, GLM: { ...GLM_DEFAULTS }, DeepLearning: { ...DL_DEFAULTS } };

/**
 * Trains one candidate: k fold models give the out-of-fold scores the leaderboard ranks
 * (and stacked ensembles learn from); the final model is trained on every row with what the
 * folds settled on (boosting: the round count the folds share, see commonRounds; otherwise the
 * mean of the folds' values, as H2O does with early stopping under CV).
 */
export function trainCandidate(pe: PreparedExperiment, spec: ModelSpec, opts: CandidateOptions = {}): CandidateResult {
  const trainer = trainerOf(spec);
  const run = candidateRun(pe, spec, trainer, opts);
  for (let next = run.next(); ;) {
    if (next.done) return next.value;
    next = run.next(trainer.train(next.value.data, next.value.params));
  }
}

/** A model a candidate run asks for: trained on `data` with `params`. */
export interface CandidateTrainRequest {
  data: TrainingData;
  params: Record<string, unknown>;
}

/**
 * trainCandidate with the models trained by `train` (e.g. on a GPU, asynchronously) instead of the algorithm's CPU
 * trainer: the same folds, scores, final model and result. `train` must make the model the CPU trainer would.
 */
export async function trainCandidateWith(
  pe: PreparedExperiment,
  spec: ModelSpec,
  train: (request: CandidateTrainRequest) => Promise<CandidateModel>,
  opts: CandidateOptions = {},
): Promise<CandidateResult> {
  const run = candidateRun(pe, spec, trainerOf(spec), opts);
  for (let next = run.next(); ;) {
    if (next.done) return next.value;
    next = run.next(await train(next.value));
  }
}

function trainerOf(spec: ModelSpec): Trainer {
  const trainer = TRAINERS[spec.algo];
  if (!trainer) throw new Error(`${spec.algo} is not available in this engine build`);
  return trainer;
}

/**
 * The candidate's steps, as a generator that yields each model it needs trained (fold models, then the final one) and
 * receives it back: one body for the synchronous trainCandidate and the asynchronous trainCandidateWith.
 */
function* candidateRun(pe: PreparedExperiment, spec: ModelSpec, trainer: Trainer, opts: CandidateOptions): Generator<CandidateTrainRequest, CandidateResult, Trained> {
  // GLM picks its family from the experiment's distribution, as the tree learners do.
  const specParams: Record<string, unknown> = spec.algo === 'GLM' && pe.config.distribution ? { distribution: pe.config.distribution, ...spec.params } : spec.params;
  const { data, binned } = pe;
  const n = data.target.y.length;
  const K = data.kind === 'multiclass' ? data.target.classes.length : data.kind === 'binary' ? 2 : 1;
  const events: string[] = [];
  const started = Date.now();
  let predictMs = 0;
  let predictedRows = 0;
  const checkBudget = () => {
    if (opts.deadlineMs !== undefined && Date.now() > opts.deadlineMs) throw new ModelBudgetExceeded(`${spec.name}: time budget exhausted`);
  };
  const scoreRows = (m: Trained, rows: Uint32Array): Float64Array => {
    const t0 = Date.now();
    const p = m.predict(selectRows(data.features, rows));
    predictMs += Date.now() - t0;
    predictedRows += rows.length;
    return data.kind === 'regression' ? (p.value as Float64Array) : (p.probabilities as Float64Array);
  };

  let holdoutRows: Uint32Array;
  let holdoutScores: Float64Array;
  let settled: number[];
  let split: string;
  if (pe.folds) {
    split = 'cross_validation';
    holdoutRows = Uint32Array.from({ length: n }, (_, i) => i);
    holdoutScores = new Float64Array(n * K);
    settled = [];
    const foldModels: { m: Trained; validRows: Uint32Array }[] = [];
    for (let f = 0; f < pe.nfolds; f++) {
      checkBudget();
      const valid: number[] = [];
      const train: number[] = [];
      for (let i = 0; i < n; i++) (pe.folds[i] === f ? valid : train).push(i);
      const validRows = Uint32Array.from(valid);
      const m = yield { data: { features: data.features, target: data.target, binned, rows: Uint32Array.from(train), validRows }, params: { ...specParams } };
      settled.push(trainer.settled(m));
      foldModels.push({ m, validRows });
      events.push(`${spec.name} fold ${f + 1}/${pe.nfolds}: ${trainer.describe(m)}`);
      opts.onProgress?.((f + 1) / (pe.nfolds + 1), `fold ${f + 1}/${pe.nfolds}`);
    }
    const rounds = trainer.rounds ? commonRounds(foldModels.map(({ m, validRows }) => ({ loss: trainer.rounds!.curve(m), rows: validRows.length }))) : null;
    if (rounds !== null) {
      settled = [rounds];
      events.push(`${spec.name}: folds cut to ${rounds} rounds (least summed holdout loss)`);
    }
    for (const { m, validRows } of foldModels) {
      const s = scoreRows(rounds !== null ? trainer.rounds!.truncate(m, rounds) : m, validRows);
      for (let i = 0; i < validRows.length; i++) for (let k = 0; k < K; k++) holdoutScores[validRows[i] * K + k] = s[i * K + k];
    }
  } else {
    split = 'validation';
    holdoutRows = pe.validRows as Uint32Array;
    const m = yield { data: { features: data.features, target: data.target, binned, rows: pe.trainRows, validRows: holdoutRows }, params: { ...specParams } };
    settled = [trainer.settled(m)];
    holdoutScores = scoreRows(m, holdoutRows);
  }
  checkBudget();
  // The final model: what the folds settled on, no early stopping (nothing held out to stop on).
  const finalParams = trainer.finalParams(specParams, settled);
  const final = yield { data: { features: data.features, target: data.target, binned, rows: pe.folds ? undefined : pe.trainRows }, params: finalParams };
  opts.onProgress?.(1, 'final model');
  events.push(`${spec.name} final model: ${trainer.describe(final)}`);

  const yHold = Float64Array.from(holdoutRows, (r) => data.target.y[r]);
  const scored = scoreMetrics(data.kind, yHold, holdoutScores, data.target.classes, split, pe.config);
  const varimp = final.varimp();
  scored.metrics.variable_importance = varimp.map((v) => ({ variable: v.variable, percentage: v.percentage }));
  const defaults = DEFAULTS[spec.algo] ?? {};
  const parameters: CandidateResult['parameters'] = {};
  for (const [k, v] of Object.entries({ ...defaults, ...finalParams })) parameters[k] = { default: defaults[k] ?? null, actual: v };
  const json = final.toJSON();
  return {
    spec,
    model: json,
    metrics: scored.metrics,
    holdout: { rows: holdoutRows, scores: holdoutScores },
    roc: scored.roc,
    curves: scored.curves,
    varimp,
    parameters,
    scoringHistory: 'scoring_history' in json ? json.scoring_history : [],
    trainingTimeMs: Date.now() - started,
    predictTimePerRowMs: predictedRows ? predictMs / predictedRows : 0,
    events,
  };
}

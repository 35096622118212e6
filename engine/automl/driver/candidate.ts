import { selectRows } from '../frame';
import { DRF_DEFAULTS, trainDRF } from '../drf';
import { GBM_DEFAULTS, trainGBM } from '../gbm';
import { ModelJSON, TreeEnsembleModel, VariableImportance } from '../model';
import { TrainingData } from '../training';
import { trainXGBoost } from '../xgboost';
import type { ModelSpec } from './plan';
import { ModelMetrics, scoreMetrics } from './model-metrics';
import type { PreparedExperiment } from './prepare';
import type { RocCurve } from '../metrics';

/** A model budget ran out before the model finished; the driver moves on. */
export class ModelBudgetExceeded extends Error {
  readonly name = 'ModelBudgetExceeded';
}

export interface CandidateResult {
  spec: ModelSpec;
  model: ModelJSON;
  metrics: ModelMetrics;
  /** Out-of-fold (or validation) scores, row-major n x K for classification, n for regression. */
  holdout: { rows: Uint32Array; scores: Float64Array };
  roc: RocCurve | null;
  varimp: VariableImportance[];
  parameters: Record<string, { default: unknown; actual: unknown }>;
  scoringHistory: ModelJSON['scoring_history'];
  trainingTimeMs: number;
  predictTimePerRowMs: number;
  events: string[];
}

export interface CandidateOptions {
  /** Wall-clock deadline (ms since epoch) for this model; checked between folds. */
  deadlineMs?: number;
  onProgress?: (fraction: number, message: string) => void;
}

type Trainer = (d: TrainingData, params: Record<string, unknown>) => TreeEnsembleModel;

const TRAINERS: Record<ModelSpec['algo'], Trainer | undefined> = {
  GBM: (d, p) => trainGBM(d, p),
  XGBoost: (d, p) => trainXGBoost(d, p),
  DRF: (d, p) => trainDRF(d, p),
  GLM: undefined,
  DeepLearning: undefined,
};

const DEFAULTS: Record<string, Record<string, unknown>> = { GBM: GBM_DEFAULTS, DRF: DRF_DEFAULTS };

function treesPerOutput(m: TreeEnsembleModel): number {
  return m.trees[0]?.length ?? 0;
}

/**
 * Trains one candidate: k fold models give the out-of-fold scores the leaderboard ranks
 * (and stacked ensembles learn from); the final model is trained on every row with the
 * number of trees the folds settled on, as H2O does with early stopping under CV.
 */
export function trainCandidate(pe: PreparedExperiment, spec: ModelSpec, opts: CandidateOptions = {}): CandidateResult {
  const trainer = TRAINERS[spec.algo];
  if (!trainer) throw new Error(`${spec.algo} is not available in this engine build`);
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
  const scoreRows = (m: TreeEnsembleModel, rows: Uint32Array): Float64Array => {
    const t0 = Date.now();
    const p = m.predict(selectRows(data.features, rows));
    predictMs += Date.now() - t0;
    predictedRows += rows.length;
    return data.kind === 'regression' ? (p.value as Float64Array) : (p.probabilities as Float64Array);
  };

  let holdoutRows: Uint32Array;
  let holdoutScores: Float64Array;
  let finalTrees: number | undefined;
  let split: string;
  if (pe.folds) {
    split = 'cross_validation';
    holdoutRows = Uint32Array.from({ length: n }, (_, i) => i);
    holdoutScores = new Float64Array(n * K);
    const trees: number[] = [];
    for (let f = 0; f < pe.nfolds; f++) {
      checkBudget();
      const valid: number[] = [];
      const train: number[] = [];
      for (let i = 0; i < n; i++) (pe.folds[i] === f ? valid : train).push(i);
      const validRows = Uint32Array.from(valid);
      const m = trainer({ features: data.features, target: data.target, binned, rows: Uint32Array.from(train), validRows }, { ...spec.params });
      trees.push(treesPerOutput(m));
      const s = scoreRows(m, validRows);
      for (let i = 0; i < validRows.length; i++) for (let k = 0; k < K; k++) holdoutScores[validRows[i] * K + k] = s[i * K + k];
      events.push(`${spec.name} fold ${f + 1}/${pe.nfolds}: ${trees[f]} trees`);
      opts.onProgress?.((f + 1) / (pe.nfolds + 1), `fold ${f + 1}/${pe.nfolds}`);
    }
    finalTrees = Math.max(1, Math.round(trees.reduce((a, b) => a + b, 0) / trees.length));
  } else {
    split = 'validation';
    holdoutRows = pe.validRows as Uint32Array;
    const m = trainer({ features: data.features, target: data.target, binned, rows: pe.trainRows, validRows: holdoutRows }, { ...spec.params });
    finalTrees = treesPerOutput(m);
    holdoutScores = scoreRows(m, holdoutRows);
  }
  checkBudget();
  // The final model: the settled tree count, no early stopping (nothing held out to stop on).
  const finalParams: Record<string, unknown> = { ...spec.params, stopping_rounds: 0, early_stopping_rounds: 0, ntrees: finalTrees };
  if (spec.algo !== 'XGBoost') delete finalParams.early_stopping_rounds;
  const final = trainer({ features: data.features, target: data.target, binned, rows: pe.folds ? undefined : pe.trainRows }, finalParams);
  opts.onProgress?.(1, 'final model');
  events.push(`${spec.name} final model: ${treesPerOutput(final)} trees`);

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
    varimp,
    parameters,
    scoringHistory: json.scoring_history,
    trainingTimeMs: Date.now() - started,
    predictTimePerRowMs: predictedRows ? predictMs / predictedRows : 0,
    events,
  };
}

/**
 * A stacked ensemble: base models whose predictions (level-one data) feed a non-negative GLM
 * metalearner. Level-one columns: P(class 1) per base model for binary problems, every class
 * probability per base model for multiclass, the prediction for regression (H2O's layout).
 */
import { Frame, ProblemKind, makeFrame } from '../frame';
import { FeatureSpec, Prediction, RowObject, VariableImportance } from '../model';
import { GLMJSON, GLMModel, importanceTable } from '../glm/model';
import type { ScoringModel } from '../scoring-model';
import { JsonBackedModel } from '../json-model';

export interface StackedEnsembleJSON {
  format_version: 1;
  algo: 'StackedEnsemble';
  kind: ProblemKind;
  classes: string[];
  /** Union of the base models' features (first occurrence order). */
  features: FeatureSpec[];
  /** 'AllModels' or 'BestOfFamily'. */
  ensemble: string;
  /** Base model JSONs (any algorithm the registry knows), keyed by leaderboard name. */
  base_models: { name: string; model: unknown }[];
  metalearner: GLMJSON;
  info: Record<string, unknown>;
}

/** Level-one column names for base models `names` (see the file comment). */
export function levelOneNames(names: string[], kind: ProblemKind, classes: string[]): string[] {
  if (kind === 'multiclass') return names.flatMap((n) => classes.map((c) => `${n}/${c}`));
  return names.slice();
}

/**
 * Level-one frame from per-base scores (row-major n x K probabilities for classifiers, n values
 * for regression), in base order.
 */
export function levelOneFrame(scores: Float64Array[], names: string[], kind: ProblemKind, classes: string[], n: number): Frame {
  const cols: Float64Array[] = [];
  const K = classes.length;
  for (const s of scores) {
    if (kind === 'regression') cols.push(s.slice(0, n));
    else if (kind === 'binary') cols.push(Float64Array.from({ length: n }, (_, i) => s[i * 2 + 1]));
    else for (let k = 0; k < K; k++) cols.push(Float64Array.from({ length: n }, (_, i) => s[i * K + k]));
  }
  return makeFrame(
    levelOneNames(names, kind, classes),
    cols.map((values) => ({ kind: 'numeric', values })),
  );
}

/** Scores of a prediction in level-one layout. */
export function predictionScores(p: Prediction): Float64Array {
  return (p.probabilities ?? p.value) as Float64Array;
}

export class StackedEnsembleModel extends JsonBackedModel<StackedEnsembleJSON> {
  readonly metalearner: GLMModel;

  constructor(
    json: StackedEnsembleJSON,
    readonly bases: ScoringModel[],
  ) {
    super(json);
    this.metalearner = GLMModel.fromJSON(json.metalearner);
  }

  get algo(): 'StackedEnsemble' {
    return 'StackedEnsemble';
  }

  levelOne(input: Frame | RowObject[]): Frame {
    const n = Array.isArray(input) ? input.length : input.nrows;
    const scores = this.bases.map((b) => predictionScores(b.predict(input)));
    return levelOneFrame(
      scores,
      this.json.base_models.map((b) => b.name),
      this.kind,
      this.classes,
      n,
    );
  }

  predict(input: Frame | RowObject[]): Prediction {
    return this.metalearner.predict(this.levelOne(input));
  }

  /** Metalearner importance per base model (sum over its level-one columns). */
  varimp(): VariableImportance[] {
    const names = this.json.base_models.map((b) => b.name);
    const byColumn = new Map(this.metalearner.varimp().map((v) => [v.variable, v.relative_importance]));
    const cols = levelOneNames(names, this.kind, this.classes);
    const per = names.map((n) => cols.filter((c) => c === n || c.startsWith(`${n}/`)).reduce((s, c) => s + (byColumn.get(c) ?? 0), 0));
    return importanceTable(names, per);
  }

  toJSON(): StackedEnsembleJSON {
    return this.json;
  }
}

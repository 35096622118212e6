/**
 * Trains a stacked ensemble from base models' out-of-fold (or validation) scores.
 *
 * The metalearner is a GLM with non-negative coefficients (projected coordinate descent), a tiny
 * ridge (lambda 1e-4, alpha 0) for conditioning of near-collinear base predictions, logistic for
 * binary (on the bases' P(class 1)), multinomial for multiclass (on every class probability of
 * every base) and gaussian for regression. Only holdout scores are used: a base model never scores
 * rows it was trained on.
 *
 * The ensemble's own holdout scores come from cross-validating the metalearner over the same
 * folds (with a validation split instead of folds: 5 seeded folds over the validation rows), so its
 * leaderboard metric is not computed on rows its metalearner was fitted to.
 */
import { ProblemKind, selectRows } from '../frame';
import { FeatureSpec } from '../model';
import { Rng } from '../random';
import type { Target } from '../frame';
import { GLMModel } from '../glm/model';
import { trainGLM } from '../glm/train';
import { StackedEnsembleJSON, levelOneFrame, predictionScores } from './model';

export interface EnsembleBase {
  name: string;
  /** Base model JSON (any algorithm the registry knows). */
  model: unknown;
  /** Holdout rows and their scores (n x K probabilities, or n values), as CandidateResult.holdout. */
  holdout: { rows: Uint32Array; scores: Float64Array };
}

export interface EnsembleInput {
  bases: EnsembleBase[];
  /** Encoded target of every row of the experiment. */
  target: Target;
  kind: ProblemKind;
  features: FeatureSpec[];
  /** Fold per row (cross-validation) or null (validation split). */
  folds: Int32Array | null;
  ensemble: string;
  seed: number;
}

export const METALEARNER_PARAMS = { lambda: 1e-4, alpha: 0, non_negative: true, standardize: true } as const;

/** The ensemble JSON (metalearner on every holdout row) and its cross-validated holdout scores. */
export function trainStackedEnsemble(input: EnsembleInput): { json: StackedEnsembleJSON; holdout: { rows: Uint32Array; scores: Float64Array } } {
  const { bases, kind, target } = input;
  if (!bases.length) throw new Error('a stacked ensemble needs at least one base model');
  const rows = bases[0].holdout.rows;
  for (const b of bases) if (b.holdout.rows.length !== rows.length || b.holdout.rows.some((r, i) => r !== rows[i])) throw new Error(`base ${b.name} was scored on different rows`);
  const n = rows.length;
  const classes = target.classes;
  const K = kind === 'regression' ? 1 : classes.length;
  const names = bases.map((b) => b.name);
  const level = levelOneFrame(bases.map((b) => b.holdout.scores), names, kind, classes, n);
  const y = Float64Array.from(rows, (r) => target.y[r]);
  const metaTarget: Target = { name: target.name, kind, y, classes };
  const fit = (train?: Uint32Array): GLMModel => trainGLM({ features: level, target: metaTarget, rows: train }, { ...METALEARNER_PARAMS });

  // Metalearner folds: the experiment's folds of the holdout rows, else 5 seeded folds.
  const folds = new Int32Array(n);
  let nf: number;
  if (input.folds) {
    rows.forEach((r, i) => (folds[i] = (input.folds as Int32Array)[r]));
    nf = Math.max(...folds) + 1;
  } else {
    nf = Math.min(5, n);
    const rng = new Rng(input.seed ^ 0x57ac);
    const order = rng.shuffle(Uint32Array.from({ length: n }, (_, i) => i));
    order.forEach((i, q) => (folds[i] = q % nf));
  }
  const scores = new Float64Array(n * K);
  for (let f = 0; f < nf; f++) {
    const train: number[] = [];
    const test: number[] = [];
    for (let i = 0; i < n; i++) (folds[i] === f ? test : train).push(i);
    if (!test.length) continue;
    const m = fit(Uint32Array.from(train));
    const s = predictionScores(m.predict(selectRows(level, test)));
    test.forEach((i, q) => {
      for (let k = 0; k < K; k++) scores[i * K + k] = s[q * K + k];
    });
  }
  const meta = fit();
  const json: StackedEnsembleJSON = {
    format_version: 1,
    algo: 'StackedEnsemble',
    kind,
    classes: classes.slice(),
    features: input.features.map((f) => ({ ...f, levels: f.levels.slice() })),
    ensemble: input.ensemble,
    base_models: bases.map((b) => ({ name: b.name, model: b.model })),
    metalearner: meta.toJSON(),
    info: { metalearner: 'GLM', metalearner_params: METALEARNER_PARAMS, metalearner_folds: nf },
  };
  return { json, holdout: { rows, scores } };
}

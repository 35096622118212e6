/**
 * Trains a stacked ensemble from base models' out-of-fold (or validation) scores.
 *
 * The metalearner is a GLM with non-negative coefficients (projected coordinate descent) and a
 * ridge penalty (alpha 0), logistic for binary (on the bases' P(class 1)), multinomial for
 * multiclass (on every class probability of every base) and gaussian for regression. Only holdout
 * scores are used: a base model never scores rows it was trained on.
 *
 * The ridge lambda is chosen by cross-validating the metalearner (smallest first, while the
 * deadline allows) over the experiment's folds (with
 * a validation split instead of folds: 5 seeded folds over the validation rows), the smallest
 * (1e-4, only for conditioning) unless a larger one has a lower holdout deviance. With many
 * near-collinear bases and few rows (a multinomial metalearner has classes x bases columns) the
 * unpenalized fit chases noise in the holdout scores and turns overconfident; the standardized
 * columns make one grid fit every target scale. The ensemble's own holdout scores are that
 * cross-validation's at the chosen lambda, so its leaderboard metric is not computed on rows its
 * metalearner was fitted to (one of a handful of lambdas was picked on them).
 */
import { Frame, ProblemKind, selectRows } from '../frame';
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
  /** Wall-clock deadline (ms since epoch): no further ridge strength is tried after it (the first always is). */
  deadlineMs?: number;
}

export const METALEARNER_PARAMS = { alpha: 0, non_negative: true, standardize: true } as const;

/** Ridge strengths tried for the metalearner, smallest first (see the file comment). */
export const METALEARNER_LAMBDAS = [1e-4, 1e-3, 1e-2, 1e-1, 1] as const;

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
  const level = levelOneFrame(
    bases.map((b) => b.holdout.scores),
    names,
    kind,
    classes,
    n,
  );
  const y = Float64Array.from(rows, (r) => target.y[r]);
  const metaTarget: Target = { name: target.name, kind, y, classes };
  const fit = (lambda: number, train?: Uint32Array): GLMModel => trainGLM({ features: level, target: metaTarget, rows: train }, { ...METALEARNER_PARAMS, lambda });

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
  let best: { lambda: number; scores: Float64Array; deviance: number } | null = null;
  for (const lambda of METALEARNER_LAMBDAS) {
    if (best && input.deadlineMs !== undefined && Date.now() > input.deadlineMs) break;
    const scores = crossValidatedScores((train) => fit(lambda, train), level, folds, nf, K);
    const deviance = holdoutDeviance(kind, y, scores, K);
    if (!best || deviance < best.deviance) best = { lambda, scores, deviance };
  }
  const { lambda, scores } = best!;
  const meta = fit(lambda);
  const json: StackedEnsembleJSON = {
    format_version: 1,
    algo: 'StackedEnsemble',
    kind,
    classes: classes.slice(),
    features: input.features.map((f) => ({ ...f, levels: f.levels.slice() })),
    ensemble: input.ensemble,
    base_models: bases.map((b) => ({ name: b.name, model: b.model })),
    metalearner: meta.toJSON(),
    info: { metalearner: 'GLM', metalearner_params: { ...METALEARNER_PARAMS, lambda }, metalearner_folds: nf },
  };
  return { json, holdout: { rows, scores } };
}

/** Holdout scores (n x K) of metalearners fitted on every fold but the scored one. */
function crossValidatedScores(fit: (train: Uint32Array) => GLMModel, level: Frame, folds: Int32Array, nf: number, K: number): Float64Array {
  const n = folds.length;
  const scores = new Float64Array(n * K);
  for (let f = 0; f < nf; f++) {
    const train: number[] = [];
    const test: number[] = [];
    for (let i = 0; i < n; i++) (folds[i] === f ? test : train).push(i);
    if (!test.length) continue;
    const s = predictionScores(fit(Uint32Array.from(train)).predict(selectRows(level, test)));
    test.forEach((i, q) => {
      for (let k = 0; k < K; k++) scores[i * K + k] = s[q * K + k];
    });
  }
  return scores;
}

/** The metalearner's loss on holdout scores: squared error, or log loss of the true class. */
function holdoutDeviance(kind: ProblemKind, y: Float64Array, scores: Float64Array, K: number): number {
  const eps = 1e-15;
  let d = 0;
  for (let i = 0; i < y.length; i++) {
    if (kind === 'regression') d += (scores[i] - y[i]) ** 2;
    else d -= Math.log(Math.min(1 - eps, Math.max(eps, scores[i * K + y[i]])));
  }
  return d;
}

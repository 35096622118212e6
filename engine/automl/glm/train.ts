/**
 * trainGLM: H2O GLM parameters over the shared design (see ../encoding/design.ts).
 *
 * Lambda search (the default when `lambda` is not given): `nlambdas` values geometrically from
 * lambda_max (every penalized coefficient zero) down to lambda_max * lambda_min_ratio, each fitted
 * from the previous solution. With validation rows the lambda with the lowest validation deviance
 * wins (the path stops after 5 lambdas without improvement); without them the path stops once the
 * training deviance improves by less than 1e-5 relative, and its last lambda wins (H2O's rule).
 */
import { toFeatureMatrix } from '../model';
import { TrainingData, featureSpecs, allRows } from '../training';
import { encodeMatrix, fitDesign } from '../encoding/design';
import { Family, FamilyName, family } from './family';
import { GLMJSON, GLMModel } from './model';
import { fitMultinomial, fitSingle, lambdaMax, multinomialObjective, objective, toSparseRows } from './solver';

export interface GLMParams {
  /** 'AUTO' picks binomial / multinomial from the target, else from `distribution` (gaussian by default). */
  family?: 'AUTO' | FamilyName | 'multinomial';
  /** Elastic-net mixing: 1 lasso, 0 ridge. */
  alpha?: number;
  /** A fixed lambda; null/undefined runs a lambda search. */
  lambda?: number | null;
  nlambdas?: number;
  /** -1: 1e-4 when rows > design columns, else 1e-2 (H2O). */
  lambda_min_ratio?: number;
  standardize?: boolean;
  max_iterations?: number;
  /** IRLS stops when no coefficient moves more than this (H2O default 1e-4). */
  beta_epsilon?: number;
  /** IRLS also stops when an iteration improves the objective by less than this, relative (H2O: objective_epsilon). */
  objective_epsilon?: number;
  tweedie_variance_power?: number;
  non_negative?: boolean;
  /** Most frequent levels per categorical feature that get a dummy column. */
  max_categorical_levels?: number;
  /** AutoML's regression distribution; maps to the family under 'AUTO' (huber/laplace/quantile: gaussian). */
  distribution?: string | null;
  /** Accepted for a uniform plan; the solver is deterministic and draws nothing. */
  seed?: number;
}

export const GLM_DEFAULTS = {
  family: 'AUTO',
  alpha: 0.5,
  lambda: null,
  nlambdas: 30,
  lambda_min_ratio: -1,
  standardize: true,
  max_iterations: 50,
  beta_epsilon: 1e-4,
  objective_epsilon: 1e-6,
  tweedie_variance_power: 1.5,
  non_negative: false,
  max_categorical_levels: 100,
} as const;

function resolveFamily(p: GLMParams, kind: TrainingData['target']['kind']): FamilyName | 'multinomial' {
  const f = p.family ?? 'AUTO';
  if (kind === 'binary') return 'binomial';
  if (kind === 'multiclass') return 'multinomial';
  if (f !== 'AUTO') {
    if (f === 'binomial' || f === 'multinomial') throw new Error(`GLM family ${f} needs a classification target`);
    return f;
  }
  const d = p.distribution;
  return d === 'poisson' || d === 'gamma' || d === 'tweedie' ? d : 'gaussian';
}

interface Fit {
  B: Float64Array[];
  lambda: number;
}

/** Trains a GLM on `data.rows` (validation on `data.validRows` selects lambda). */
export function trainGLM(data: TrainingData, params: GLMParams = {}): GLMModel {
  const p = { ...GLM_DEFAULTS, ...params };
  const kind = data.target.kind;
  const fam = resolveFamily(p, kind);
  const specs = featureSpecs(data.features);
  const x = toFeatureMatrix(specs, data.features);
  const rows = data.rows ?? allRows(data.features.nrows);
  const design = fitDesign(specs, x, rows, { standardize: p.standardize, maxLevels: p.max_categorical_levels });
  const width = design.width;
  const X = toSparseRows(encodeMatrix(design, x, rows), rows.length, width);
  const y = Float64Array.from(rows, (r) => data.target.y[r]);
  checkTarget(fam, y);
  const valid = data.validRows && data.validRows.length ? data.validRows : null;
  const XV = valid ? toSparseRows(encodeMatrix(design, x, valid), valid.length, width) : null;
  const yV = valid ? Float64Array.from(valid, (r) => data.target.y[r]) : null;
  const K = fam === 'multinomial' ? data.target.classes.length : 1;
  const single: Family | null = fam === 'multinomial' ? null : family(fam, p.tweedie_variance_power);
  const solverOpts = { alpha: p.alpha, nonNegative: p.non_negative, maxIterations: p.max_iterations, betaEpsilon: p.beta_epsilon, objectiveEpsilon: p.objective_epsilon };

  // Intercept-only start: link(mean y) per output.
  const B: Float64Array[] = [];
  const grads: Float64Array[] = [];
  if (single) {
    const mean = y.reduce((a, b) => a + b, 0) / (y.length || 1);
    const b = new Float64Array(width + 1);
    b[0] = single.nullEta(mean);
    B.push(b);
    grads.push(Float64Array.from(y, (yi) => single.grad(yi, b[0])));
  } else {
    const counts = new Float64Array(K);
    for (const c of y) counts[c]++;
    for (let k = 0; k < K; k++) {
      const b = new Float64Array(width + 1);
      b[0] = Math.log(Math.max(1e-10, counts[k] / (y.length || 1)));
      B.push(b);
      const pk = counts[k] / (y.length || 1);
      grads.push(Float64Array.from(y, (yi) => pk - (yi === k ? 1 : 0)));
    }
  }
  const fit = (lambda: number): void => {
    if (single) fitSingle(X, y, single, B[0], lambda, solverOpts);
    else fitMultinomial(X, y, B, lambda, solverOpts);
  };
  const trainDeviance = (): number => (single ? objective(X, y, single, B[0], 0, 0) : multinomialObjective(X, y, B, 0, 0));
  const validDeviance = (): number => {
    if (!XV || !yV) return NaN;
    return single ? objective(XV, yV, single, B[0], 0, 0) : multinomialObjective(XV, yV, B, 0, 0);
  };

  const path: { lambda: number; training_deviance: number; validation_deviance?: number }[] = [];
  let chosen: Fit;
  const lmax = width ? lambdaMax(X, grads, p.alpha) : 0;
  if (typeof p.lambda === 'number') {
    // A fixed lambda: walk a short path down to it so the solver starts close to each solution.
    const target = Math.max(0, p.lambda);
    if (lmax > target) for (const l of geometric(lmax, Math.max(target, lmax * 1e-4), 10)) if (l > target) fit(l);
    fit(target);
    path.push({ lambda: target, training_deviance: 2 * trainDeviance() });
    chosen = { B: B.map((b) => b.slice()), lambda: target };
  } else {
    const ratio = p.lambda_min_ratio > 0 ? p.lambda_min_ratio : rows.length > width ? 1e-4 : 1e-2;
    const lambdas = lmax > 0 ? geometric(lmax, lmax * ratio, p.nlambdas) : [0];
    let best = Infinity;
    chosen = { B: B.map((b) => b.slice()), lambda: lambdas[0] };
    let sinceBest = 0;
    let prevDev = Infinity;
    for (const lambda of lambdas) {
      fit(lambda);
      const td = trainDeviance();
      const vd = validDeviance();
      path.push({ lambda, training_deviance: 2 * td, ...(XV ? { validation_deviance: 2 * vd } : {}) });
      if (XV) {
        if (vd < best - 1e-12) {
          best = vd;
          chosen = { B: B.map((b) => b.slice()), lambda };
          sinceBest = 0;
        } else if (++sinceBest >= 5) break;
      } else {
        chosen = { B: B.map((b) => b.slice()), lambda };
        if (Number.isFinite(prevDev) && prevDev - td < 1e-5 * Math.abs(prevDev)) break;
        prevDev = td;
      }
    }
  }
  const json: GLMJSON = {
    format_version: 1,
    algo: 'GLM',
    kind,
    family: fam,
    link: fam === 'multinomial' ? 'softmax' : (single as Family).link,
    classes: data.target.classes.slice(),
    features: specs,
    design,
    coefficients: chosen.B.map((b) => Array.from(b)),
    lambda: chosen.lambda,
    alpha: p.alpha,
    params: { ...p },
    scoring_history: [],
    info: { family: fam, lambda_max: lmax, lambda_path: path, selected_lambda: chosen.lambda },
  };
  return new GLMModel(json);
}

function geometric(from: number, to: number, n: number): number[] {
  if (n <= 1) return [to];
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(from * Math.pow(to / from, i / (n - 1)));
  return out;
}

function checkTarget(fam: FamilyName | 'multinomial', y: Float64Array): void {
  if (fam === 'poisson' || fam === 'tweedie') {
    if (y.some((v) => v < 0)) throw new Error(`GLM family ${fam} needs a non-negative target`);
  } else if (fam === 'gamma' && y.some((v) => v <= 0)) throw new Error('GLM family gamma needs a positive target');
}

import { trainStackedEnsemble } from '../ensemble/train';
import { importanceTable } from '../glm/model';
import type { VariableImportance } from '../model';
import { modelFromJSON } from '../registry';
import { featureSpecs } from '../training';
import type { CandidateOptions, CandidateResult } from './candidate';
import { compareByMetric, scoreMetrics } from './model-metrics';
import type { PreparedExperiment } from './prepare';

/** The leaderboard entry of a stacked ensemble: a CandidateResult with its own spec. */
export interface EnsembleResult extends Omit<CandidateResult, 'spec'> {
  spec: { name: string; algo: 'StackedEnsemble'; params: Record<string, unknown>; origin: 'ensemble' };
  /** The metalearner's importance of each base model (what `varimp` would list if it were not about features). */
  baseModelImportance: VariableImportance[];
}

/** A base model's feature importance: its own table, or the percentages stored with its metrics (bases read back from the database). */
function memberImportance(c: CandidateResult): { variable: string; percentage: number }[] {
  if (c.varimp?.length) return c.varimp;
  return (c.metrics.variable_importance ?? []) as { variable: string; percentage: number }[];
}

/**
 * An ensemble's importance of features: each base model's feature percentages weighted by the metalearner's
 * importance of that base model. The metalearner's own table names base models (GBM_1, …), which are not inputs of
 * the data; it is kept apart as `baseModelImportance`.
 */
export function ensembleImportance(byBase: VariableImportance[], members: CandidateResult[]): { varimp: VariableImportance[]; baseModelImportance: VariableImportance[] } {
  const weight = new Map(byBase.map((b) => [b.variable, b.percentage]));
  const total = new Map<string, number>();
  for (const c of members) {
    const w = weight.get(c.spec.name) ?? 0;
    for (const v of memberImportance(c)) total.set(v.variable, (total.get(v.variable) ?? 0) + w * v.percentage);
  }
  return { varimp: importanceTable([...total.keys()], [...total.values()]), baseModelImportance: byBase };
}

/** A candidate's family for BestOfFamily: the leaderboard name's prefix (XRT apart from DRF, as H2O). */
function family(c: CandidateResult): string {
  return c.spec.name.split('_')[0];
}

/**
 * StackedEnsemble_AllModels (every candidate) and StackedEnsemble_BestOfFamily (the best
 * candidate of each family by the sort metric), trained on the candidates' holdout scores; see
 * ../ensemble/train.ts for the metalearner and how its metric avoids leakage. Returns nothing when
 * StackedEnsemble is excluded or fewer than two candidates exist; BestOfFamily is skipped when it
 * would equal AllModels.
 */
export function trainStackedEnsembles(pe: PreparedExperiment, candidates: CandidateResult[], opts: CandidateOptions = {}): EnsembleResult[] {
  if (pe.config.exclude_algos.includes('StackedEnsemble') || candidates.length < 2) return [];
  const byMetric = [...candidates].sort((a, b) => compareByMetric(pe.config.sort_metric)(a.metrics, b.metrics));
  const best = new Map<string, CandidateResult>();
  for (const c of byMetric) if (!best.has(family(c))) best.set(family(c), c);
  const sets: [string, CandidateResult[]][] = [['AllModels', candidates]];
  if (best.size >= 2 && best.size < candidates.length) sets.push(['BestOfFamily', [...best.values()]]);
  const { data } = pe;
  const features = featureSpecs(data.features);
  const out: EnsembleResult[] = [];
  for (const [ensemble, members] of sets) {
    if (opts.deadlineMs !== undefined && Date.now() > opts.deadlineMs) break;
    const started = Date.now();
    const { json, holdout } = trainStackedEnsemble({
      bases: members.map((c) => ({ name: c.spec.name, model: c.model, holdout: c.holdout })),
      target: data.target,
      kind: data.kind,
      features,
      folds: pe.folds,
      ensemble,
      seed: pe.config.seed,
      deadlineMs: opts.deadlineMs,
    });
    const y = Float64Array.from(holdout.rows, (r) => data.target.y[r]);
    const scored = scoreMetrics(data.kind, y, holdout.scores, data.target.classes, pe.folds ? 'cross_validation' : 'validation', pe.config);
    const name = `StackedEnsemble_${ensemble}`;
    out.push({
      spec: { name, algo: 'StackedEnsemble', params: { ensemble, base_models: members.map((c) => c.spec.name) }, origin: 'ensemble' },
      model: json,
      metrics: scored.metrics,
      holdout,
      roc: scored.roc,
      curves: scored.curves,
      ...ensembleImportance(modelFromJSON(json).varimp(), members),
      parameters: { metalearner_algorithm: { default: 'glm', actual: 'glm' }, base_models: { default: null, actual: members.map((c) => c.spec.name) } },
      scoringHistory: [],
      trainingTimeMs: Date.now() - started,
      predictTimePerRowMs: members.reduce((s, c) => s + c.predictTimePerRowMs, 0),
      events: [`${name}: ${members.length} base models`],
    });
    opts.onProgress?.(out.length / sets.length, name);
  }
  return out;
}

/**
 * An experiment's training progress as people read it: base models trained of those planned, the stacked ensemble
 * counted apart ("5 of 6 models, ensemble pending", never "7 of 6"), and the percent that follows them. Computed from
 * the models actually recorded, so a retried activity or a late ensemble cannot make the counts run past the plan.
 */

/** Where the stacked ensemble stands: not part of this run, still to come, trained, or not built (fewer than two models). */
export type EnsembleState = 'excluded' | 'pending' | 'done' | 'skipped';

export interface TrainingProgress {
  /** Data preparation is done (the plan, and any leakage warnings, are known). */
  prepared: boolean;
  /** Base models trained (the stacked ensembles not counted). */
  models_done: number;
  /** Base models the run will train at most: min(max_models, the plan's length) once the plan is known. */
  models_planned: number;
  ensembles_done: number;
  ensemble: EnsembleState;
  /** 0-100: 90 for the base models (95 without an ensemble), the last 5 for the ensemble, 100 once succeeded. */
  percent: number;
  /** "5 of 6 models, ensemble pending". */
  summary: string;
}

export interface ProgressInput {
  status: string;
  baseModels: number;
  ensembles: number;
  maxModels: number;
  /** The plan's model count as data preparation wrote it; absent before preparation. */
  plannedInPlan: number | undefined;
  ensemblesExcluded: boolean;
}

export function trainingProgress(p: ProgressInput): TrainingProgress {
  const planned = Math.max(p.baseModels, Math.min(p.maxModels, p.plannedInPlan ?? p.maxModels));
  const finished = ['succeeded', 'failed', 'canceled'].includes(p.status);
  const ensemble: EnsembleState = p.ensemblesExcluded ? 'excluded' : p.ensembles > 0 ? 'done' : finished || planned < 2 ? 'skipped' : 'pending';
  const share = planned > 0 ? Math.min(1, p.baseModels / planned) : 0;
  const withEnsemble = ensemble === 'pending' || ensemble === 'done';
  const percent = p.status === 'succeeded' ? 100 : Math.min(99, Math.round(share * (withEnsemble ? 90 : 95)) + (ensemble === 'done' ? 5 : 0));
  const models = `${p.baseModels} of ${planned} model${planned === 1 ? '' : 's'}`;
  const tail = ensemble === 'pending' ? ', ensemble pending' : ensemble === 'done' ? ` + ${p.ensembles === 1 ? 'ensemble' : `${p.ensembles} ensembles`}` : '';
  return { prepared: p.plannedInPlan !== undefined, models_done: p.baseModels, models_planned: planned, ensembles_done: p.ensembles, ensemble, percent, summary: `${models}${tail}` };
}

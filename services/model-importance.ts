import type { Model } from '../entities';

/** A row of a stored importance table (engine/automl VariableImportance, as the training activity keeps it). */
export interface StoredImportance {
  variable: string;
  percentage: number;
  scaled_importance: number;
}

/**
 * Stacked ensembles trained before ensembles had feature importance stored the metalearner's table, whose
 * "variables" are base models (GBM_1, …), as their variable importance; newer ones keep that apart as
 * `base_model_importance`. Which of the two a stored table is.
 */
function storesBaseModelsAsFeatures(m: Model): boolean {
  return m.algo === 'StackedEnsemble' && m.explain.base_model_importance === undefined;
}

/** A model's importance of input features only; empty where it was not recorded (old ensembles). */
export function featureImportance(m: Model): StoredImportance[] {
  if (storesBaseModelsAsFeatures(m)) return [];
  return (m.explain.variable_importance ?? []) as StoredImportance[];
}

/** An ensemble's weight on each of its base models; null for other models. */
export function baseModelImportance(m: Model): StoredImportance[] | null {
  if (m.algo !== 'StackedEnsemble') return null;
  return ((storesBaseModelsAsFeatures(m) ? m.explain.variable_importance : m.explain.base_model_importance) ?? []) as StoredImportance[];
}

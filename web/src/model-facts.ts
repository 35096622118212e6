/** How the UI words facts about a model's metrics and parameters (model page, compare view, model table). */

/** Where a model's metrics were measured, in words (`metric_context.split` as engine/automl stores it). */
export function splitLabel(split: string | null | undefined): string {
  if (split === 'cross_validation') return 'cross-validation';
  if (split === 'validation') return 'holdout';
  if (split === 'training') return 'training';
  return 'not recorded';
}

/** A longer sentence for the same, shown once above a metric table. */
export function splitSentence(split: string | null | undefined): string {
  if (split === 'cross_validation') return 'Measured by cross-validation: each row scored by a model that did not train on it (out-of-fold).';
  if (split === 'validation') return 'Measured on a holdout: a validation split the model did not train on.';
  if (split === 'training') return 'Measured on the rows the model trained on (optimistic).';
  return 'Where these metrics were measured was not recorded.';
}

const LARGER_BETTER = new Set(['auc', 'aucpr', 'accuracy', 'mcc', 'r2', 'f1']);

/** Whether a larger value of a metric is better (as engine/automl ranks leaderboards). */
export function largerIsBetter(metric: string): boolean {
  return LARGER_BETTER.has(metric.toLowerCase());
}

/** A parameter value as text: strings as they are, everything else as JSON. */
export function paramText(v: unknown): string {
  if (v === null || v === undefined) return '–';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Whether a trained value is the algorithm's default (compared as JSON, so arrays and objects compare by value). */
export function isDefault(p: { default?: unknown; actual?: unknown }): boolean | null {
  if (p.default === null || p.default === undefined) return null;
  return JSON.stringify(p.default) === JSON.stringify(p.actual);
}

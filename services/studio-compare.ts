import type { Contribution, JsonMap } from '../entities';

/** How many features a scenario's contribution deltas name (the spec's top 10). */
export const TOP_CONTRIBUTION_DELTAS = 10;

/** The intercept every explanation ends with: the same for every row of a model, so never a delta. */
const BIAS_TERM = 'BiasTerm';

export interface ScenarioDelta {
  /** Scenario minus baseline for regression; null when predictions are class labels. */
  prediction: number | null;
  /** For binary models: the positive class's probability, scenario minus baseline; null otherwise. */
  probability: number | null;
  /** Per feature, scenario minus baseline contribution, largest change first. */
  contributions: { feature: string; delta: number }[];
}

/**
 * What a scenario changed against the baseline. Classification labels have no difference, so
 * the prediction delta is numeric only when both predictions are numbers (regression). For a
 * multiclass model each row's contributions explain the class it was predicted as, so where the
 * scenario changes the class its deltas compare explanations of two different classes.
 */
export function scenarioDelta(baseline: { output: JsonMap; contributions: Contribution[] }, scenario: { output: JsonMap; contributions: Contribution[] }): ScenarioDelta {
  const b = baseline.output;
  const s = scenario.output;
  const prediction = typeof b.prediction === 'number' && typeof s.prediction === 'number' ? s.prediction - b.prediction : null;
  const binary = typeof b.positive_class === 'string' && b.positive_class === s.positive_class;
  const probability = binary && typeof b.probability === 'number' && typeof s.probability === 'number' ? s.probability - b.probability : null;
  return { prediction, probability, contributions: contributionDeltas(baseline.contributions, scenario.contributions) };
}

/**
 * Per feature, scenario minus baseline contribution (a feature missing on one side counts 0),
 * sorted by absolute delta, largest first (ties by name, so the order is stable), top 10.
 */
export function contributionDeltas(baseline: Contribution[], scenario: Contribution[]): { feature: string; delta: number }[] {
  const before = new Map(baseline.filter((c) => c.feature !== BIAS_TERM).map((c) => [c.feature, c.value]));
  const after = new Map(scenario.filter((c) => c.feature !== BIAS_TERM).map((c) => [c.feature, c.value]));
  const features = new Set([...before.keys(), ...after.keys()]);
  return [...features]
    .map((feature) => ({ feature, delta: (after.get(feature) ?? 0) - (before.get(feature) ?? 0) }))
    .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || (x.feature < y.feature ? -1 : x.feature > y.feature ? 1 : 0))
    .slice(0, TOP_CONTRIBUTION_DELTAS);
}

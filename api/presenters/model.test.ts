import type { Model } from '../../entities';
import { presentModelExplain } from './model';

/** A stored model row with only what the explain presenter reads. */
function stored(algo: string, explain: Record<string, unknown>, metrics: Record<string, unknown> = {}): Model {
  return { id: 'm1', algo, explain, metrics } as unknown as Model;
}

const baseModels = [
  { variable: 'GBM_1', percentage: 0.7, scaled_importance: 1 },
  { variable: 'GLM_1', percentage: 0.3, scaled_importance: 0.43 },
];

describe('presentModelExplain', () => {
  it("does not list an old ensemble's base models as features: its feature importance is not recorded", () => {
    const x = presentModelExplain(stored('StackedEnsemble', { variable_importance: baseModels }));
    expect(x.variable_importance).toEqual([]);
    expect(x.base_model_importance).toEqual(baseModels);
  });

  it("lists a newer ensemble's features, with its base models apart", () => {
    const features = [{ variable: 'age', percentage: 1, scaled_importance: 1 }];
    const x = presentModelExplain(stored('StackedEnsemble', { variable_importance: features, base_model_importance: baseModels }));
    expect(x.variable_importance).toEqual(features);
    expect(x.base_model_importance).toEqual(baseModels);
  });

  it('answers null for curves a model trained before they were kept, and names where its metrics were measured', () => {
    const x = presentModelExplain(stored('GBM', { roc_curve: { fpr: [0, 1], tpr: [0, 1] } }, { metric_context: { split: 'validation' } }));
    expect(x).toMatchObject({ pr_curve: null, threshold_table: null, metric_split: 'validation', base_model_importance: null });
  });
});

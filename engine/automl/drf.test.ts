import { trainDRF } from './drf';
import { syntheticData } from './testutil';
import { expectedValue } from './treeshap';

describe('DRF', () => {
  it('uses H2O defaults and reports out-of-bag metrics', () => {
    const d = syntheticData(800, 'binary', 1);
    const m = trainDRF(d, { ntrees: 15 });
    expect(m.params).toMatchObject({ max_depth: 20, min_rows: 1, sample_rate: 0.632, mtries: 2 });
    const oob = m.info.oob_metrics as Record<string, number>;
    expect(oob.auc).toBeGreaterThan(0.85);
    expect(m.scoringHistory).toHaveLength(15);
    expect(m.aggregation).toBe('average');
  });

  it('regression predictions are the average of tree leaf means; mtries = p / 3', () => {
    const d = syntheticData(500, 'regression', 2, 6);
    const m = trainDRF(d, { ntrees: 5 });
    expect(m.params.mtries).toBe(2);
    const p = m.predict(d.features).value as Float64Array;
    const mean = d.target.y.reduce((a, b) => a + b, 0) / 500;
    // Each tree's expected value is the mean of its bootstrap sample, close to the global mean.
    for (const t of m.trees[0]) expect(Math.abs(expectedValue(t) - mean)).toBeLessThan(0.5);
    expect(p.length).toBe(500);
  });

  it('multiclass: one tree per class per iteration; probabilities sum to one', () => {
    const d = syntheticData(600, 'multiclass', 3);
    const m = trainDRF(d, { ntrees: 5 });
    expect(m.trees.map((t) => t.length)).toEqual([5, 5, 5]);
    const probs = m.predict(d.features).probabilities as Float64Array;
    for (let i = 0; i < 600; i++) expect(probs[3 * i] + probs[3 * i + 1] + probs[3 * i + 2]).toBeCloseTo(1, 12);
    expect((m.info.oob_metrics as Record<string, number>).classification_error).toBeLessThan(0.4);
  });

  it("histogram_type 'Random' builds extremely randomized trees", () => {
    const d = syntheticData(600, 'binary', 4);
    const drf = trainDRF(d, { ntrees: 5, seed: 3 });
    const xrt = trainDRF(d, { ntrees: 5, seed: 3, histogram_type: 'Random' });
    expect(JSON.stringify(xrt.trees)).not.toBe(JSON.stringify(drf.trees));
    expect((xrt.info.oob_metrics as Record<string, number>).auc).toBeGreaterThan(0.75);
  });
});

import { binaryCurves, precisionRecallCurve, thresholdTable } from './curves';
import { binaryConfusion, cumulativeCounts } from './metrics';
import { Rng } from './random';

describe('binary threshold curves', () => {
  const y = [1, 0, 1, 1, 0, 0, 1, 0, 0, 1];
  const p = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.35, 0.3, 0.2, 0.1];

  it('computes precision and recall at each distinct score as sklearn precision_recall_curve does', () => {
    const c = precisionRecallCurve(cumulativeCounts(y, p));
    // sklearn: precision [1, .5, .667, .75, .6, .5, .571, .5, .444, .5], recall [.2, .2, .4, .6, .6, .6, .8, .8, .8, 1] by decreasing threshold.
    expect(c.thresholds).toEqual(p);
    expect(c.recall).toEqual([0.2, 0.2, 0.4, 0.6, 0.6, 0.6, 0.8, 0.8, 0.8, 1]);
    expect(c.precision.map((v) => Number(v.toFixed(3)))).toEqual([1, 0.5, 0.667, 0.75, 0.6, 0.5, 0.571, 0.5, 0.444, 0.5]);
  });

  it('agrees with the confusion matrix at every threshold of its table', () => {
    const rng = new Rng(7);
    const n = 1000;
    const yy = Array.from({ length: n }, () => (rng.next() < 0.3 ? 1 : 0));
    const pp = yy.map((v) => Math.min(1, Math.max(0, 0.35 * v + 0.65 * rng.next())));
    const table = thresholdTable(cumulativeCounts(yy, pp));
    expect(table).toHaveLength(20);
    const base = yy.filter((v) => v === 1).length / n;
    for (let i = 0; i < table.length; i++) {
      const r = table[i];
      const [[tn, fp], [fn, tp]] = binaryConfusion(yy, pp, r.threshold);
      expect({ tp: r.tp, fp: r.fp, fn: r.fn, tn: r.tn }).toEqual({ tp, fp, fn, tn });
      expect(r.precision).toBeCloseTo(tp / (tp + fp), 12);
      expect(r.recall).toBeCloseTo(tp / (tp + fn), 12);
      expect(r.f1).toBeCloseTo((2 * tp) / (2 * tp + fp + fn), 12);
      expect(r.lift).toBeCloseTo(r.precision / base, 12);
      expect(r.positive_rate).toBeCloseTo((i + 1) / 20, 1);
      if (i > 0) {
        expect(r.threshold).toBeLessThan(table[i - 1].threshold);
        expect(r.recall).toBeGreaterThanOrEqual(table[i - 1].recall);
      }
    }
    // Everything predicted positive: recall 1 and lift 1.
    expect(table[19].recall).toBe(1);
    expect(table[19].lift).toBeCloseTo(1, 12);
  });

  it('merges quantiles that fall on one tied score and thins long curves', () => {
    const yy = [1, 0, 1, 0, 1, 0];
    const table = thresholdTable(cumulativeCounts(yy, [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]));
    expect(table).toHaveLength(1);
    expect(table[0]).toMatchObject({ threshold: 0.5, recall: 1, precision: 0.5, lift: 1 });
    const n = 5000;
    const many = binaryCurves(
      Array.from({ length: n }, (_, i) => i % 2),
      Array.from({ length: n }, (_, i) => i / n),
    );
    expect(many?.pr_curve.recall.length).toBeLessThanOrEqual(200);
    expect(many?.pr_curve.recall.at(-1)).toBe(1);
  });

  it('has no curves without both classes or with scores that are not finite', () => {
    expect(binaryCurves([1, 1], [0.2, 0.3])).toBeNull();
    expect(binaryCurves([1, 0], [NaN, 0.3])).toBeNull();
  });
});

import { categoricalFromStrings, makeFrame } from '../../automl';
import { contingencySimilarity, correlationSimilarity, discretize, ksComplement, tvComplement } from './metrics';
import { evaluateQuality } from './report';
import { fixtureFrame, reference } from './testutil';

// Reference values: SDMetrics 0.32 on the fixture of bench/reference/sdmetrics_reference.py. Its metrics are exact
// (no sampling at this size), so ours must agree to rounding.
const TOL = 1e-9;
const real = fixtureFrame('real');
const synthetic = fixtureFrame('synthetic');

function column(frame: typeof real, name: string) {
  return frame.columns[frame.names.indexOf(name)];
}
function numbers(frame: typeof real, name: string): Float64Array {
  const c = column(frame, name);
  if (c.kind === 'categorical') throw new Error('not numeric');
  return c.kind === 'numeric' ? c.values : c.epochMs;
}
function labels(frame: typeof real, name: string): Array<string | null> {
  const c = column(frame, name);
  if (c.kind !== 'categorical') throw new Error('not categorical');
  return Array.from(c.codes, (k) => (k < 0 ? null : c.levels[k]));
}
function ids(values: Array<string | null>, dict: Map<string, number>): Int32Array {
  return Int32Array.from(values, (v) => {
    if (v === null) return 0;
    if (!dict.has(v)) dict.set(v, dict.size + 1);
    return dict.get(v) as number;
  });
}

describe('SDMetrics metrics on a fixed table', () => {
  it('KSComplement and TVComplement match SDMetrics per column (missing values, a novel synthetic category, datetimes)', () => {
    for (const [name, ref] of Object.entries(reference.metrics)) {
      const ours = ref.metric === 'KSComplement' ? ksComplement(numbers(real, name), numbers(synthetic, name)) : tvComplement(labels(real, name), labels(synthetic, name));
      expect(Math.abs(ours - (ref.score as number))).toBeLessThan(TOL);
    }
  });

  it('CorrelationSimilarity matches SDMetrics, with its real and synthetic Pearson correlations', () => {
    for (const [pair, ref] of Object.entries(reference.correlation_similarity)) {
      const [a, b] = pair.split('~');
      const ours = correlationSimilarity(numbers(real, a), numbers(real, b), numbers(synthetic, a), numbers(synthetic, b));
      expect(Math.abs(ours.score - (ref.score as number))).toBeLessThan(TOL);
      expect(Math.abs(ours.real - (ref.real as number))).toBeLessThan(TOL);
      expect(Math.abs(ours.synthetic - (ref.synthetic as number))).toBeLessThan(TOL);
    }
  });

  it('ContingencySimilarity matches SDMetrics on categorical pairs, missing values counted as a category', () => {
    for (const [pair, ref] of Object.entries(reference.contingency_similarity)) {
      const [a, b] = pair.split('~');
      const da = new Map<string, number>();
      const db = new Map<string, number>();
      const score = contingencySimilarity(ids(labels(real, a), da), ids(labels(real, b), db), ids(labels(synthetic, a), da), ids(labels(synthetic, b), db));
      expect(Math.abs(score - (ref as number))).toBeLessThan(TOL);
    }
  });

  it.each([
    ['default thresholds', reference.report_default, {}],
    ['thresholds at 0', reference.report_no_thresholds, { realCorrelationThreshold: 0, realAssociationThreshold: 0 }],
  ])('the quality report matches SDMetrics QualityReport with %s: every detail row, both properties and the overall score', (_label, ref, opts) => {
    const report = evaluateQuality(real, synthetic, opts);
    expect(Math.abs(report.overall_score - (ref.overall as number))).toBeLessThan(TOL);
    expect(Math.abs((report.column_shapes.score as number) - (ref.column_shapes as number))).toBeLessThan(TOL);
    expect(Math.abs((report.column_pair_trends.score as number) - (ref.column_pair_trends as number))).toBeLessThan(TOL);
    expect(report.column_shapes.columns.map((c) => [c.column, c.metric])).toEqual(ref.shapes.map((c) => [c.column, c.metric]));
    report.column_shapes.columns.forEach((c, i) => expect(Math.abs((c.score as number) - (ref.shapes[i].score as number))).toBeLessThan(TOL));
    expect(report.column_pair_trends.pairs.map((p) => [p.columns, p.metric, p.meets_threshold])).toEqual(ref.pairs.map((p) => [p.columns, p.metric, p.meets_threshold]));
    report.column_pair_trends.pairs.forEach((p, i) => {
      const r = ref.pairs[i];
      // SDMetrics blanks the score of a pair under the threshold; we keep it, so only counted pairs are compared.
      if (r.score !== null) expect(Math.abs((p.score as number) - r.score)).toBeLessThan(TOL);
      if (r.real_correlation !== null) expect(Math.abs((p.real_correlation as number) - r.real_correlation)).toBeLessThan(TOL);
      if (r.real_association !== null) expect(Math.abs((p.real_association as number) - r.real_association)).toBeLessThan(TOL);
    });
    expect(report.column_pair_trends.pairs_evaluated).toBe(21);
    if (ref === reference.report_default) expect(Math.abs(report.overall_score - (reference.report_unified_overall as number))).toBeLessThan(TOL);
    expect(report.rows_compared).toEqual({ real: 60, synthetic: 50 });
  });

  it('bins like np.histogram_bin_edges + np.digitize: the maximum and missing values land in bin 11', () => {
    expect(Array.from(discretize(Float64Array.from([0, 1, 2.5, 9.99, 10, NaN])))).toEqual([1, 2, 3, 10, 11, 11]);
    expect(Array.from(discretize(Float64Array.from([5, 5, NaN])))).toEqual([6, 6, 11]);
  });

  it('identical tables score 1 and a column that is constant on one side gets no correlation score', () => {
    const report = evaluateQuality(real, real, { realCorrelationThreshold: 0, realAssociationThreshold: 0 });
    expect(report.overall_score).toBeCloseTo(1, 12);
    const flat = makeFrame(
      ['p', 'q', 'r'],
      [{ kind: 'numeric', values: Float64Array.from([1, 1, 1, 1]) }, { kind: 'numeric', values: Float64Array.from([1, 2, 3, 4]) }, categoricalFromStrings(['a', 'b', 'a', 'b'])],
    );
    const r2 = evaluateQuality(flat, flat, { realCorrelationThreshold: 0, realAssociationThreshold: 0 });
    expect(r2.column_pair_trends.pairs[0]).toMatchObject({ columns: ['p', 'q'], score: null, meets_threshold: false });
  });

  it('bounds the work: rows sampled per side and pairs capped', () => {
    const report = evaluateQuality(real, synthetic, { maxRows: 30, maxPairs: 5 });
    expect(report.rows_compared).toEqual({ real: 30, synthetic: 30 });
    expect(report.column_pair_trends.pairs).toHaveLength(5);
    expect(report.column_pair_trends.pairs_total).toBe(21);
  });

  it('refuses a synthetic table that lacks a real column', () => {
    const partial = makeFrame(['a'], [real.columns[0]]);
    expect(() => evaluateQuality(real, partial)).toThrow('The synthetic data has no column "b"');
  });
});

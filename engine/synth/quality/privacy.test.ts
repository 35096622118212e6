import { categoricalFromStrings, makeFrame, selectRows } from '../../automl';
import { privacyCheck } from './privacy';
import { fixtureFrame, reference } from './testutil';

const real = fixtureFrame('real');
const synthetic = fixtureFrame('synthetic');

describe('privacy check (distance to closest record)', () => {
  it('gives the median DCR that SDMetrics calculate_dcr gives (same per-column distance, missing values included)', () => {
    const check = privacyCheck(real, real, synthetic);
    expect(Math.abs(check.median_dcr_synthetic - reference.dcr_median)).toBeLessThan(1e-12);
    expect(check.rows_compared).toBe(50);
  });

  it('finds copied rows: synthetic = train gives share 1 and DCR 0, a holdout of unseen rows does not', () => {
    const train = selectRows(
      real,
      Array.from({ length: 40 }, (_, i) => i),
    );
    const holdout = selectRows(
      real,
      Array.from({ length: 20 }, (_, i) => 40 + i),
    );
    const check = privacyCheck(train, holdout, train);
    expect(check.copied_rows_share).toBe(1);
    expect(check.median_dcr_synthetic).toBe(0);
    expect(check.median_dcr_holdout).toBeGreaterThan(0);
  });

  it('counts partial copies and ignores near misses', () => {
    const train = makeFrame(['n', 'c'], [{ kind: 'numeric', values: Float64Array.from([0, 5, 10, NaN]) }, categoricalFromStrings(['a', 'b', 'c', 'a'])]);
    // Different level lists on purpose: categories are compared by label.
    const syn = makeFrame(['c', 'n'], [categoricalFromStrings(['b', 'a', 'c', 'z']), { kind: 'numeric', values: Float64Array.from([5, NaN, 10.5, 0]) }]);
    const check = privacyCheck(train, train, syn);
    expect(check.copied_rows_share).toBe(0.5); // (5, b) and (NaN, a)
    // DCRs: 0, 0, (0.5/10)/2 = 0.025, min over train of (0 + 1)/2 = 0.5 → median 0.0125.
    expect(check.median_dcr_synthetic).toBeCloseTo(0.0125, 12);
  });

  it('samples both sides to the bound', () => {
    const check = privacyCheck(real, real, synthetic, { maxQueryRows: 10, maxReferenceRows: 15 });
    expect(check.rows_compared).toBe(10);
  });
});

import { binFrame } from './binning';
import { Column, categoricalFromStrings, makeFrame } from './frame';
import { Rng } from './random';

describe('binFrame', () => {
  it('bins the same on a helper thread as on the calling thread', () => {
    const n = 120_000;
    const rng = new Rng(3);
    const columns: Column[] = Array.from({ length: 6 }, (_, j) => ({
      kind: 'numeric' as const,
      values: Float64Array.from({ length: n }, (_, i) => (j === 2 && i % 7 === 0 ? NaN : rng.next() * (j + 1) + (j === 4 ? Math.floor(rng.next() * 5) : 0))),
    }));
    columns.push({ kind: 'categorical', codes: Int32Array.from({ length: n }, (_, i) => (i % 11 === 0 ? -1 : i % 4)), levels: ['a', 'b', 'c', 'd'] });
    const frame = makeFrame(['a', 'b', 'c', 'd', 'e', 'f', 'g'], columns);
    const serial = binFrame(frame);
    const threaded = binFrame(frame, { threads: 2 });
    expect(threaded.totalBins).toBe(serial.totalBins);
    expect(Array.from(threaded.offsets)).toEqual(Array.from(serial.offsets));
    expect(Buffer.from(threaded.rowMajor).equals(Buffer.from(serial.rowMajor))).toBe(true);
    threaded.features.forEach((f, j) => {
      const s = serial.features[j];
      expect(f.nbins).toBe(s.nbins);
      expect(Buffer.from(f.bins).equals(Buffer.from(s.bins))).toBe(true);
      expect(JSON.stringify(f)).toBe(JSON.stringify(s));
    });
  });
});

describe('binning', () => {
  it('numeric: at most 255 quantile bins with float32 edges, plus a missing bin', () => {
    const rng = new Rng(3);
    const n = 20000;
    const v = Float64Array.from({ length: n }, () => (rng.next() < 0.1 ? NaN : rng.next() * 1000));
    const b = binFrame(makeFrame(['v'], [{ kind: 'numeric', values: v }]));
    const f = b.features[0];
    expect(f.nbins).toBeLessThanOrEqual(255);
    expect(f.nbins).toBeGreaterThan(200);
    for (let k = 0; k < f.nbins; k++) expect(Math.fround(f.upper[k])).toBe(f.upper[k]);
    const counts = new Array<number>(f.nbins + 1).fill(0);
    for (let i = 0; i < n; i++) {
      const bin = f.bins[i];
      counts[bin]++;
      if (Number.isNaN(v[i])) expect(bin).toBe(f.nbins);
      else {
        expect(Math.fround(v[i]) <= f.upper[bin]).toBe(true);
        if (bin > 0) expect(Math.fround(v[i]) > f.upper[bin - 1]).toBe(true);
      }
    }
    // Quantile bins are roughly equally filled.
    expect(Math.max(...counts.slice(0, f.nbins))).toBeLessThan((3 * n) / f.nbins);
  });

  it('numeric with few distinct values: one bin per value', () => {
    const b = binFrame(makeFrame(['v'], [{ kind: 'numeric', values: Float64Array.from([3, 1, 2, 3, NaN, 1]) }]));
    expect(Array.from(b.features[0].upper)).toEqual([1, 2, 3]);
    expect(Array.from(b.features[0].bins)).toEqual([2, 0, 1, 2, 3, 0]);
  });

  it('categorical: rare levels beyond the cap share one bin', () => {
    const values: (string | null)[] = [];
    for (let k = 0; k < 300; k++) for (let r = 0; r < 300 - k; r++) values.push(`L${k}`);
    values.push(null);
    const b = binFrame(makeFrame(['c'], [categoricalFromStrings(values)]));
    const f = b.features[0];
    expect(f.nbins).toBe(255);
    expect(f.codesOfBin[254].length).toBe(300 - 254);
    expect(f.bins[values.length - 1]).toBe(255);
    // The most frequent level gets the first bin.
    expect(f.codesOfBin[0]).toEqual([f.levels.indexOf('L0')]);
  });
});

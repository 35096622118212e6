import { binFrame } from './binning';
import { Column, makeFrame } from './frame';
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

import { binFrame } from '../binning';
import { syntheticData } from '../testutil';
import { HistogramBuilder } from './histogram';
import { buildHistogramNaive } from './histogram-naive';
import { accumulate, accumulateSlots } from './histogram-paths';
import { allRows, gradients } from './testutil';

describe('histograms', () => {
  it('sibling by subtraction equals a direct build', () => {
    const d = syntheticData(500, 'regression', 2);
    const b = binFrame(d.features);
    const { g, h } = gradients(d.target.y);
    const hb = new HistogramBuilder(b);
    const features = Int32Array.from(b.features.map((_, j) => j));
    const index = allRows(500);
    const parent = new Float64Array(b.totalBins * 3);
    const left = new Float64Array(b.totalBins * 3);
    const right = new Float64Array(b.totalBins * 3);
    hb.build(parent, features, index, 0, 500, g, h);
    hb.build(left, features, index, 0, 200, g, h);
    hb.build(right, features, index, 200, 500, g, h);
    hb.subtract(parent, left, features);
    for (let s = 0; s < parent.length; s++) expect(parent[s]).toBeCloseTo(right[s], 9);
  });

  it('any feature order and subset gives the same per-feature histograms', () => {
    const d = syntheticData(700, 'regression', 3);
    const b = binFrame(d.features);
    const { g, h } = gradients(d.target.y);
    const hb = new HistogramBuilder(b);
    const index = allRows(700);
    const sorted = new Float64Array(b.totalBins * 3);
    const shuffled = new Float64Array(b.totalBins * 3);
    const subset = new Float64Array(b.totalBins * 3);
    hb.build(sorted, Int32Array.from([0, 1, 2, 3, 4]), index, 50, 650, g, h);
    hb.build(shuffled, Int32Array.from([4, 0, 2, 1, 3]), index, 50, 650, g, h);
    hb.build(subset, Int32Array.from([3, 1]), index, 50, 650, g, h, false);
    expect(Array.from(shuffled)).toEqual(Array.from(sorted));
    for (const f of [1, 3]) {
      const a = b.offsets[f] * 3;
      const e = a + (b.features[f].nbins + 1) * 3;
      for (let s = a; s < e; s++) expect(subset[s]).toBe((s - a) % 3 === 2 ? 0 : sorted[s]);
    }
  });
});

describe('parallel histograms', () => {
  it('helper threads give the same histogram as one thread', () => {
    const d = syntheticData(3000, 'regression', 8);
    const b = binFrame(d.features);
    const { g, h } = gradients(d.target.y);
    const features = Int32Array.from([0, 2, 4]);
    const index = allRows(3000);
    const one = new Float64Array(b.totalBins * 3);
    const two = new Float64Array(b.totalBins * 3);
    new HistogramBuilder(b, 1).build(one, features, index, 100, 2900, g, h);
    const hb = new HistogramBuilder(b, 2, 10);
    try {
      expect(hb.threads).toBe(2);
      hb.build(two, features, index, 100, 2900, g, h);
      hb.build(two, features, index, 100, 2900, g, h);
    } finally {
      hb.dispose();
    }
    for (let s = 0; s < one.length; s++) expect(two[s]).toBeCloseTo(one[s], 9);
  });

  it('the WebAssembly kernels give exactly the reference sums, with and without row counts', () => {
    const n = 5000;
    const d = syntheticData(n, 'regression', 6);
    const b = binFrame(d.features);
    const { g, h } = gradients(d.target.y);
    const p = b.features.length;
    const features = Int32Array.from({ length: p }, (_, k) => k);
    const index = Uint32Array.from({ length: Math.ceil(n / 3) }, (_, i) => 3 * i);
    for (const counts of [false, true]) {
      const want = new Float64Array(b.totalBins * 3);
      buildHistogramNaive(want, b, features, index, 0, index.length, g, h, counts);
      for (const threads of [1, 2]) {
        const got = new Float64Array(b.totalBins * 3);
        const hb = new HistogramBuilder(b, threads, 10);
        try {
          hb.build(got, features, index, 0, index.length, g, h, counts);
        } finally {
          hb.dispose();
        }
        // One thread sums in plain row order; two threads add chunk partials, so only close.
        if (threads === 1) expect(Array.from(got)).toEqual(Array.from(want));
        else for (let s = 0; s < want.length; s++) expect(got[s]).toBeCloseTo(want[s], 9);
      }
    }
  });
});

describe('every histogram path against the reference (histogram-naive.ts)', () => {
  const subsets = (p: number) => [Int32Array.from({ length: p }, (_, k) => k), Int32Array.from([p - 1, 0, 2]), Int32Array.from([1])];

  it('the byte path and the slot-index path, called directly, in each of their four loops', () => {
    const n = 3000;
    const d = syntheticData(n, 'regression', 11, 6);
    const b = binFrame(d.features);
    const { g, h } = gradients(d.target.y);
    const p = b.features.length;
    const rows = Uint32Array.from({ length: 1200 }, (_, i) => (i * 7) % n);
    const gs = Float64Array.from(rows, (r) => g[r]);
    const hs = Float64Array.from(rows, (r) => h[r]);
    const gh = new Float64Array(2 * n);
    for (let r = 0; r < n; r++) [gh[2 * r], gh[2 * r + 1]] = [g[r], h[r]];
    const idx = new Uint16Array(n * p);
    for (let r = 0; r < n; r++) for (let f = 0; f < p; f++) idx[r * p + f] = (b.offsets[f] + b.rowMajor[r * p + f]) * 3;
    for (const features of subsets(p)) {
      const slot = Int32Array.from(features, (f) => b.offsets[f] * 3);
      for (const counts of [false, true]) {
        const want = new Float64Array(b.totalBins * 3);
        buildHistogramNaive(want, b, features, rows, 0, rows.length, g, h, counts);
        const bytes = new Float64Array(b.totalBins * 3);
        accumulate(bytes, b.rowMajor, rows, gs, hs, features, slot, features.length, p, 0, rows.length, counts);
        const slots = new Float64Array(b.totalBins * 3);
        accumulateSlots(slots, idx, rows, gh, features, features.length, p, 0, rows.length, counts);
        expect(Array.from(bytes)).toEqual(Array.from(want));
        expect(Array.from(slots)).toEqual(Array.from(want));
      }
    }
  });

  it('the builder on narrow data (kernel arena) and on data too wide for 16-bit slots (byte path), one thread and two', () => {
    for (const [nNum, wide] of [
      [5, false],
      [90, true],
    ] as const) {
      const n = 2500;
      const d = syntheticData(n, 'regression', 4, nNum);
      const b = binFrame(d.features);
      expect(b.totalBins * 3 > 65535).toBe(wide);
      const { g, h } = gradients(d.target.y);
      const index = Uint32Array.from({ length: n }, (_, i) => (i * 13) % n);
      for (const features of subsets(b.features.length)) {
        for (const counts of [false, true]) {
          const want = new Float64Array(b.totalBins * 3);
          buildHistogramNaive(want, b, features, index, 100, 2400, g, h, counts);
          for (const threads of [1, 2]) {
            const got = new Float64Array(b.totalBins * 3);
            const hb = new HistogramBuilder(b, threads, 10);
            try {
              expect(hb.gradientPairs === null).toBe(wide);
              hb.build(got, features, index, 100, 2400, g, h, counts);
            } finally {
              hb.dispose();
            }
            // One thread sums in row order as the reference does; two add chunk partials, so only close.
            if (threads === 1) expect(Array.from(got)).toEqual(Array.from(want));
            else expect(got.reduce((m, v, s) => Math.max(m, Math.abs(v - want[s])), 0)).toBeLessThan(1e-9);
          }
        }
      }
    }
  });
});

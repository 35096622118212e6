import { binFrame } from '../binning';
import { syntheticData } from '../testutil';
import { HistogramBuilder } from './histogram';
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

  it('the WebAssembly kernels give exactly the sums of a plain loop, with and without row counts', () => {
    const n = 5000;
    const d = syntheticData(n, 'regression', 6);
    const b = binFrame(d.features);
    const { g, h } = gradients(d.target.y);
    const p = b.features.length;
    const features = Int32Array.from({ length: p }, (_, k) => k);
    const index = Uint32Array.from({ length: Math.ceil(n / 3) }, (_, i) => 3 * i);
    for (const counts of [false, true]) {
      const want = new Float64Array(b.totalBins * 3);
      for (const r of index) {
        for (let f = 0; f < p; f++) {
          const s = (b.offsets[f] + b.rowMajor[r * p + f]) * 3;
          want[s] += g[r];
          want[s + 1] += h[r];
          if (counts) want[s + 2] += 1;
        }
      }
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

import { binFrame } from './binning';
import { Column, categoricalFromStrings, makeFrame } from './frame';
import { HistogramBuilder } from './trees/histogram';
import { Rng } from './random';
import { mergePartitionParts, partRange, partitionPart } from './trees/row-jobs';
import { syntheticData } from './testutil';
import { DEFAULT_TREE_PARAMS, NodeBins, SMALL_NODE_ROWS, Tree, TreeLearner, TreeParams, leafOfBinnedRow, leafOfRow } from './tree';

function gradients(y: Float64Array): { g: Float64Array; h: Float64Array } {
  const g = Float64Array.from(y, (v) => -v);
  return { g, h: new Float64Array(y.length).fill(1) };
}

function depthOf(t: Tree, node = 0): number {
  return t.feature[node] < 0 ? 0 : 1 + Math.max(depthOf(t, t.left[node]), depthOf(t, t.right[node]));
}

function allRows(n: number): Uint32Array {
  return Uint32Array.from({ length: n }, (_, i) => i);
}

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

describe('node bins', () => {
  /** What a split scan sees of one feature: listed bins with their sums, the missing bin, lo and hi. */
  function view(nb: NodeBins) {
    const bins = Array.from(nb.bin.subarray(0, nb.m));
    const sums = bins.map((b) => [nb.src[nb.base + 3 * b], nb.src[nb.base + 3 * b + 1], nb.src[nb.base + 3 * b + nb.co]]);
    return { bins, sums, missing: [nb.gm, nb.hm, nb.cm], lo: nb.lo, hi: nb.hi };
  }

  it("a small node's bins gathered from its rows equal its histogram's, sum for sum", () => {
    const n = 3000;
    const d = syntheticData(n, 'regression', 4);
    const b = binFrame(d.features);
    const rng = new Rng(9);
    // Uneven gradients and hessians, some of them zero, so the order of the additions shows.
    const g = Float64Array.from({ length: n }, () => (rng.next() < 0.1 ? 0 : (rng.next() - 0.5) * 1e3 + rng.next() * 1e-7));
    const h = Float64Array.from({ length: n }, () => (rng.next() < 0.1 ? 0 : rng.next()));
    const hb = new HistogramBuilder(b);
    const features = Int32Array.from(b.features.map((_, j) => j));
    const hist = new Float64Array(b.totalBins * 3);
    const fromHist = new NodeBins(SMALL_NODE_ROWS);
    const fromRows = new NodeBins(SMALL_NODE_ROWS);
    for (const rows of [1, 2, 7, SMALL_NODE_ROWS]) {
      for (const counts of [true, false]) {
        // A node's rows are ascending in the learner's index.
        const picked = new Set<number>();
        while (picked.size < rows) picked.add(rng.int(n));
        const index = Uint32Array.from([...picked].sort((x, y) => x - y));
        hb.build(hist, features, index, 0, rows, g, h, counts);
        for (let f = 0; f < b.features.length; f++) {
          const feat = b.features[f];
          fromHist.fromHistogram(hist, b.offsets[f] * 3, feat.nbins, counts ? 2 : 1);
          fromRows.fromRows(feat.bins, feat.nbins, index, 0, rows, g, h, counts);
          const a = view(fromHist);
          const c = view(fromRows);
          // The histogram lists only bins with a non-zero sum; rows whose sums are all zero add nothing to the scans.
          const nonZero = c.sums.map((s, i) => (s.some((v) => v !== 0) ? i : -1)).filter((i) => i >= 0);
          expect(a.bins).toEqual(nonZero.map((i) => c.bins[i]));
          expect(a.sums).toEqual(nonZero.map((i) => c.sums[i]));
          expect(a.missing).toEqual(c.missing);
          expect([a.lo, a.hi]).toEqual([c.lo, c.hi]);
        }
      }
    }
  });

  it('deep random-forest trees grow the same with and without the small-node path', () => {
    const n = 4000;
    const d = syntheticData(n, 'regression', 6, 6);
    const b = binFrame(d.features);
    const { g, h } = gradients(d.target.y);
    const features = Int32Array.from(b.features.map((_, j) => j));
    // mtries 2 of 7 features: nodes search their own draws, down to one or two rows at depth 20.
    for (const randomSplits of [false, true]) {
      const params: TreeParams = { ...DEFAULT_TREE_PARAMS, maxDepth: 20, minRows: 1, lambda: 0, minChildWeight: 0, countsFromHessian: true, mtries: 2, randomSplits };
      const grown = (smallNodeRows: number) => new TreeLearner(b, params, 1, smallNodeRows).grow(allRows(n), g, h, features, new Rng(5), 1).tree;
      const withPath = grown(SMALL_NODE_ROWS);
      const without = grown(0);
      expect(withPath.feature.length).toBeGreaterThan(1000);
      expect(withPath).toEqual(without);
    }
  });
});

describe('TreeLearner', () => {
  const d = syntheticData(2000, 'regression', 5);
  const b = binFrame(d.features);
  const { g, h } = gradients(d.target.y);
  const features = Int32Array.from(b.features.map((_, j) => j));
  const grow = (p: Partial<TreeParams>, lr = 1) => new TreeLearner(b, { ...DEFAULT_TREE_PARAMS, lambda: 0, minChildWeight: 0, ...p }).grow(allRows(2000), g, h, features, new Rng(1), lr);

  it('leaves partition the rows and hold Newton weights; binned and raw traversal agree', () => {
    const { tree, leaves, index, routes } = grow({ maxDepth: 5, lambda: 2 }, 0.5);
    const seen = new Uint8Array(2000);
    const x = d.features.columns.map((c: Column) => (c.kind === 'numeric' ? c.values : Float64Array.from(c.kind === 'categorical' ? c.codes : [])));
    for (let q = 0; q < leaves.length; q += 3) {
      const [node, start, end] = [leaves[q], leaves[q + 1], leaves[q + 2]];
      let G = 0;
      for (let i = start; i < end; i++) {
        const r = index[i];
        expect(seen[r]).toBe(0);
        seen[r] = 1;
        G += g[r];
        expect(leafOfBinnedRow(tree, routes, b, r)).toBe(node);
        expect(leafOfRow(tree, Float64Array.from(x, (col) => col[r]))).toBe(node);
      }
      expect(tree.count[node]).toBe(end - start);
      expect(tree.value[node]).toBe(Math.fround((-G / (end - start + 2)) * 0.5));
    }
    expect(seen.every((s) => s === 1)).toBe(true);
    expect(depthOf(tree)).toBeLessThanOrEqual(5);
    // Covers add up.
    for (let i = 0; i < tree.feature.length; i++) if (tree.feature[i] >= 0) expect(tree.cover[i]).toBeCloseTo(tree.cover[tree.left[i]] + tree.cover[tree.right[i]], 9);
  });

  it('lossguide respects max_leaves; depthwise respects min_rows', () => {
    const lg = grow({ growPolicy: 'lossguide', maxDepth: 0, maxLeaves: 7 }).tree;
    expect(Array.from(lg.feature).filter((f) => f < 0).length).toBe(7);
    const dw = grow({ maxDepth: 8, minRows: 50 }).tree;
    for (let i = 0; i < dw.feature.length; i++) if (dw.feature[i] < 0) expect(dw.count[i]).toBeGreaterThanOrEqual(50);
  });

  it('gamma blocks weak splits; max_delta_step clips leaf weights', () => {
    expect(grow({ gamma: 1e12 }).tree.feature.length).toBe(1);
    const t = grow({ maxDepth: 3, maxDeltaStep: 0.25 }).tree;
    for (let i = 0; i < t.value.length; i++) expect(Math.abs(t.value[i])).toBeLessThanOrEqual(0.25 + 1e-7);
  });

  it('finds the best category grouping and learns where missing values go', () => {
    const n = 600;
    const levels = ['a', 'b', 'c', 'd', 'e', 'f'];
    const cats = Array.from({ length: n }, (_, i) => levels[i % 6]);
    const xs = Float64Array.from({ length: n }, (_, i) => (i % 10 === 0 ? NaN : i % 7));
    // y is high for {b, e} and for missing x.
    const y = Float64Array.from({ length: n }, (_, i) => (cats[i] === 'b' || cats[i] === 'e' ? 5 : 0) + (Number.isNaN(xs[i]) ? 3 : 0));
    const f = makeFrame(['c', 'x'], [categoricalFromStrings(cats), { kind: 'numeric', values: xs }]);
    const bd = binFrame(f);
    const gr = gradients(y);
    const tree = new TreeLearner(bd, { ...DEFAULT_TREE_PARAMS, maxDepth: 2, lambda: 0, minChildWeight: 0 }).grow(allRows(n), gr.g, gr.h, Int32Array.from([0, 1]), new Rng(1), 1).tree;
    expect(tree.feature[0]).toBe(0);
    expect(tree.categorical[0]).toBe(1);
    const set = Array.from(tree.catCodes.subarray(tree.catStart[0], tree.catStart[0] + tree.catLength[0])).map((c) => levels[c]).sort();
    expect([['b', 'e'], ['a', 'c', 'd', 'f']]).toContainEqual(set);
    // Second level splits on x: missing (NaN) rows must follow the high side.
    const child = tree.left[0];
    expect(tree.feature[child]).toBe(1);
    const nanLeaf = leafOfRow(tree, [set.includes('b') ? 1 : 0, NaN]);
    const valLeaf = leafOfRow(tree, [set.includes('b') ? 1 : 0, 3]);
    expect(tree.value[nanLeaf]).toBeGreaterThan(tree.value[valLeaf] + 2);
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

  it('training with two threads is deterministic and matches one thread closely', () => {
    const d = syntheticData(25000, 'binary', 9);
    const b = binFrame(d.features);
    const features = Int32Array.from(b.features.map((_, j) => j));
    const { g, h } = gradients(d.target.y.map((v) => v - 0.5));
    const grow = (threads: number) => {
      const l = new TreeLearner(b, { ...DEFAULT_TREE_PARAMS, maxDepth: 4 }, threads);
      try {
        return JSON.stringify(Array.from(l.grow(allRows(25000), g, h, features, new Rng(1), 0.3).tree.value));
      } finally {
        l.dispose();
      }
    };
    const a = grow(2);
    expect(grow(2)).toBe(a);
    expect(grow(1)).toBe(a);
  });

  it('a partition in parts, merged, equals the serial stable partition', () => {
    const rng = new Rng(5);
    const n = 1003;
    const bins = Uint8Array.from({ length: n }, () => rng.int(8));
    const mask = Uint8Array.from([1, 0, 0, 1, 1, 0, 1, 0]);
    const serial = allRows(n);
    const scratch = new Uint32Array(n);
    const l = 7 + partitionPart(serial, scratch, bins, mask, 7, 990);
    serial.set(scratch.subarray(7, 7 + (990 - l)), l);
    for (const parts of [1, 2, 4, 7]) {
      const index = allRows(n);
      const lefts = new Int32Array(parts);
      for (let c = 0; c < parts; c++) {
        const [a, b] = partRange(990 - 7, parts, c);
        lefts[c] = partitionPart(index, scratch, bins, mask, 7 + a, 7 + b);
      }
      expect(mergePartitionParts(index, scratch, 7, 990, parts, lefts)).toBe(l);
      expect(Array.from(index)).toEqual(Array.from(serial));
    }
  });

  it('two threads partition large nodes into sorted leaf ranges that match the tree', () => {
    const d = syntheticData(120000, 'binary', 4);
    const b = binFrame(d.features);
    const features = Int32Array.from(b.features.map((_, j) => j));
    const { g, h } = gradients(d.target.y.map((v) => v - 0.5));
    const l = new TreeLearner(b, { ...DEFAULT_TREE_PARAMS, maxDepth: 3 }, 2);
    try {
      const grown = l.grow(allRows(120000), g, h, features, new Rng(1), 0.3);
      let covered = 0;
      let wrong = 0;
      for (let q = 0; q < grown.leaves.length; q += 3) {
        const [node, start, end] = [grown.leaves[q], grown.leaves[q + 1], grown.leaves[q + 2]];
        for (let i = start; i < end; i++) {
          if (leafOfBinnedRow(grown.tree, grown.routes, b, grown.index[i]) !== node) wrong++;
          if (i > start && grown.index[i] <= grown.index[i - 1]) wrong++;
        }
        covered += end - start;
      }
      expect(wrong).toBe(0);
      expect(covered).toBe(120000);
    } finally {
      l.dispose();
    }
  });
});

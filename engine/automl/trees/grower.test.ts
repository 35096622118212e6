import { binFrame } from '../binning';
import { Column, categoricalFromStrings, makeFrame } from '../frame';
import { Rng } from '../random';
import { syntheticData } from '../testutil';
import { TreeLearner } from './grower';
import { DEFAULT_TREE_PARAMS, TreeParams } from './params';
import { leafOfBinnedRow, leafOfRow } from './predictor';
import { allRows, gradients } from './testutil';
import { Tree } from './tree';

function depthOf(t: Tree, node = 0): number {
  return t.feature[node] < 0 ? 0 : 1 + Math.max(depthOf(t, t.left[node]), depthOf(t, t.right[node]));
}

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
        expect(
          leafOfRow(
            tree,
            Float64Array.from(x, (col) => col[r]),
          ),
        ).toBe(node);
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
    const set = Array.from(tree.catCodes.subarray(tree.catStart[0], tree.catStart[0] + tree.catLength[0]))
      .map((c) => levels[c])
      .sort();
    expect([
      ['b', 'e'],
      ['a', 'c', 'd', 'f'],
    ]).toContainEqual(set);
    // Second level splits on x: missing (NaN) rows must follow the high side.
    const child = tree.left[0];
    expect(tree.feature[child]).toBe(1);
    const nanLeaf = leafOfRow(tree, [set.includes('b') ? 1 : 0, NaN]);
    const valLeaf = leafOfRow(tree, [set.includes('b') ? 1 : 0, 3]);
    expect(tree.value[nanLeaf]).toBeGreaterThan(tree.value[valLeaf] + 2);
  });
});

describe('TreeLearner on helper threads', () => {
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

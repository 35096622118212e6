import { binFrame } from '../binning';
import { Rng } from '../random';
import { syntheticData } from '../testutil';
import { TreeLearner } from './grower';
import { HistogramBuilder } from './histogram';
import { NodeBins, SMALL_NODE_ROWS } from './node-bins';
import { DEFAULT_TREE_PARAMS, TreeParams } from './params';
import { allRows, gradients } from './testutil';

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

/**
 * The split search of one node: each of its drawn features' bins (NodeBins, from the node's
 * histogram or gathered from its rows) go to the threshold search (split-threshold.ts) or the
 * category-set search (split-categorical.ts), and the best gain over the features wins.
 */
import { BinnedData } from '../binning';
import { Rng } from '../random';
import { NodeBins } from './node-bins';
import { TreeParams, countOffset } from './params';
import { Candidate, NodeSums, Split, nodeScore } from './split';
import { categoricalSplit } from './split-categorical';
import { thresholdSplit } from './split-threshold';

/** A node as the split search sees it: its sums, and its rows index[start, end). */
export interface SplitNode extends NodeSums {
  start: number;
  end: number;
}

/** The split search of a TreeLearner, with the buffers it reuses from node to node. */
export class Splitter {
  /** The bins of the feature find() is looking at. */
  private readonly nodeBins: NodeBins;
  /** Scratch of the category-set search. */
  private readonly order = new Int32Array(256);
  private readonly ratio = new Float64Array(256);
  private readonly co: 1 | 2;
  /** The gradients and hessians of the tree being grown (for nodes that gather their bins from their rows). */
  private rowGrad: Float64Array = new Float64Array(0);
  private rowHess: Float64Array = new Float64Array(0);

  /**
   * `index` is the learner's row index (nodes own ranges of it); nodes of at most smallNodeRows
   * rows may gather their bins from their rows (see NodeBins).
   */
  constructor(
    private readonly data: BinnedData,
    private readonly p: TreeParams,
    private readonly index: Uint32Array,
    smallNodeRows: number,
  ) {
    this.nodeBins = new NodeBins(smallNodeRows);
    this.co = countOffset(p);
  }

  /** The gradients and hessians of the tree about to be grown. */
  setGradients(grad: Float64Array, hess: Float64Array): void {
    this.rowGrad = grad;
    this.rowHess = hess;
  }

  /**
   * The best split of a node over features `fs` (its draw), or null. With `hist` null the node's
   * bins are gathered from its rows (a node of at most smallNodeRows rows).
   */
  find(node: SplitNode, hist: Float64Array | null, fs: Int32Array, rng: Rng): Split | null {
    const p = this.p;
    const parentScore = nodeScore(p, node.G, node.H);
    const nb = this.nodeBins;
    let best: Candidate | null = null;
    for (let k = 0; k < fs.length; k++) {
      const f = fs[k];
      const feat = this.data.features[f];
      if (hist) nb.fromHistogram(hist, this.data.offsets[f] * 3, feat.nbins, this.co);
      else nb.fromRows(feat.bins, feat.nbins, this.index, node.start, node.end, this.rowGrad, this.rowHess, this.co === 2);
      const s = feat.kind === 'numeric' ? thresholdSplit(p, node, nb, parentScore, rng) : categoricalSplit(p, node, nb, parentScore, rng, this.order, this.ratio);
      if (s && s.gain > (best ? best.gain : 0)) {
        s.feature = f;
        best = s;
      }
    }
    if (!best) return null;
    // A threshold split of a node without missing rows sends future missing values with the heavier child.
    const defaultLeft = best.hasMissing ? (best.missLeft ? 1 : 0) : best.HL >= node.H - best.HL ? 1 : 0;
    return { gain: best.gain, feature: best.feature, GL: best.GL, HL: best.HL, CL: best.CL, mask: best.mask, bin: best.bin, defaultLeft };
  }
}

/**
 * Growing one tree: the node queue (depthwise or lossguide), histograms per node, split search and
 * partition. Shared by GBM, XGBoost-style boosting and random forests.
 *
 * Rows live in one Uint32Array permuted in place; every node owns a [start, end) range of it.
 * Histograms are built only for the smaller child of a split; the larger child's histogram is
 * the parent's minus the smaller one's, computed in the parent's buffer.
 */
import { BinnedData } from '../binning';
import { Rng } from '../random';
import { sampleFeatures } from './feature-sampling';
import { HistogramBuilder, HistogramPool, PartRunner } from './histogram';
import { SMALL_NODE_ROWS } from './node-bins';
import { TreeParams, countOffset } from './params';
import { RowPartitioner } from './partition';
import { Split, leafWeight } from './split';
import { Splitter } from './splitter';
import { BinRoutes, Tree } from './tree';
import { TreeBuilder } from './tree-builder';

/** A node in the growth queue: its rows index[start, end), its sums, its histogram while kept, its best split. */
interface Pending {
  id: number;
  start: number;
  end: number;
  depth: number;
  G: number;
  H: number;
  C: number;
  hist: Float64Array | null;
  split: Split | null;
}

/** A grown tree plus what the trainer needs to update training predictions cheaply. */
export interface GrownTree {
  tree: Tree;
  /** Traversal of binned rows. */
  routes: BinRoutes;
  /** Leaves as (node, start, end) triples over `index`. */
  leaves: Int32Array;
  /** The permuted row index; leaf ranges refer to it. Valid until the next grow(). */
  index: Uint32Array;
}

/** Tree learner bound to one binned data set; reuse it for every tree to reuse its buffers. */
export class TreeLearner {
  private readonly pool: HistogramPool;
  private readonly builder: HistogramBuilder;
  private readonly partitioner: RowPartitioner;
  private readonly splitter: Splitter;
  /** Offset of the row-count measure within a histogram slot: 2 (counts) or 1 (hessians). */
  private readonly co: number;
  /** Per-node feature draws (drawFeatures), reused: a node's draw is not kept past its split search. */
  private readonly featureScratch: Int32Array;

  /**
   * nthreads > 1 builds the histograms of large nodes on that many threads. Nodes of at most
   * smallNodeRows rows that search their own feature draw gather their bins from their rows (0: never;
   * the trees are the same either way). Call dispose() when done.
   */
  constructor(
    private readonly data: BinnedData,
    private readonly p: TreeParams,
    nthreads = 1,
    private readonly smallNodeRows = SMALL_NODE_ROWS,
  ) {
    this.builder = new HistogramBuilder(data, nthreads);
    this.partitioner = new RowPartitioner(data, this.builder);
    this.pool = new HistogramPool(data.totalBins * 3);
    this.co = countOffset(p);
    this.featureScratch = new Int32Array(data.features.length);
    this.splitter = new Splitter(data, p, this.partitioner.index, smallNodeRows);
  }

  /**
   * The helper threads of this learner, for row jobs of the caller (boosting's gradients and margin
   * updates); threads is 1 when there are none.
   */
  get jobs(): PartRunner {
    return this.builder;
  }

  /** Stops helper threads, if any were started. */
  dispose(): void {
    this.builder.dispose();
  }

  /** Leaf weight before the learning rate. */
  weight(G: number, H: number): number {
    return leafWeight(this.p, G, H);
  }

  /**
   * Grows one tree on the given rows (a subset of the binned data's rows; only their indices are
   * copied) with the given gradients, considering only `features`.
   */
  grow(rows: Uint32Array, grad: Float64Array, hess: Float64Array, features: Int32Array, rng: Rng, learningRate: number): GrownTree {
    const p = this.p;
    const n = rows.length;
    const index = this.partitioner.index;
    index.set(rows);
    this.builder.loadGradients(grad, hess);
    this.splitter.setGradients(grad, hess);
    const b = new TreeBuilder();
    let G = 0;
    let H = 0;
    for (let i = 0; i < n; i++) {
      G += grad[rows[i]];
      H += hess[rows[i]];
    }
    const levelFeatures = new Map<number, Int32Array>();
    const featuresAt = (depth: number): Int32Array => {
      let fs = levelFeatures.get(depth);
      if (!fs) {
        fs = sampleFeatures(features, p.colsampleByLevel, 0, rng);
        levelFeatures.set(depth, fs);
      }
      return fs;
    };
    // Uses the real row count (end - start); Pending.C is the count measure histograms carry.
    const splittable = (depth: number, rows: number): boolean => (p.maxDepth === 0 || depth < p.maxDepth) && rows >= 2 * p.minRows && rows >= 2;
    // Per-node feature draws of at most half the features (DRF's mtries): each node's histogram
    // covers only its own draw, built from its own rows, with no sibling subtraction (the parent's
    // histogram lacks the child's features). That builds no more than subtraction would, and the
    // tiny nodes of deep trees stop paying for every bin of every feature.
    const drawn = p.mtries > 0 ? Math.min(p.mtries, features.length) : Math.round(p.colsampleByNode * features.length);
    const perNode = drawn > 0 && 2 * drawn <= features.length;
    const searchOwn = (node: Pending): void => {
      const fs = this.drawFeatures(featuresAt(node.depth), rng);
      if (node.end - node.start <= this.smallNodeRows) {
        node.split = this.splitter.find(node, null, fs, rng);
        return;
      }
      const hist = this.pool.acquire();
      this.builder.build(hist, fs, index, node.start, node.end, grad, hess, this.co === 2);
      node.split = this.splitter.find(node, hist, fs, rng);
      this.pool.release(hist);
    };
    const root: Pending = { id: b.add(H, n, this.weight(G, H) * learningRate), start: 0, end: n, depth: 0, G, H, C: this.co === 2 ? n : H, hist: null, split: null };
    if (splittable(0, n)) {
      if (perNode) searchOwn(root);
      else {
        root.hist = this.pool.acquire();
        this.builder.build(root.hist, features, index, 0, n, grad, hess, this.co === 2);
        root.split = this.splitter.find(root, root.hist, this.drawFeatures(featuresAt(0), rng), rng);
      }
    }
    const queue: Pending[] = [root];
    const leafList: number[] = [];
    let leaves = 1;
    const finish = (node: Pending): void => {
      if (node.hist) this.pool.release(node.hist);
      node.hist = null;
      b.value[node.id] = Math.fround(this.weight(node.G, node.H) * learningRate);
      leafList.push(node.id, node.start, node.end);
    };
    // Depthwise: first in, first out, from a moving head (a splice from the front is a copy of the
    // whole queue, quadratic in the node count of deep trees). Lossguide: the best gain next.
    let head = 0;
    while (head < queue.length) {
      let node: Pending;
      if (p.growPolicy === 'lossguide') {
        let pick = head;
        for (let q = head + 1; q < queue.length; q++) {
          const gq = queue[q].split?.gain ?? -Infinity;
          const gp = queue[pick].split?.gain ?? -Infinity;
          if (gq > gp) pick = q;
        }
        node = queue[pick];
        // The others keep their order (ties go to the earliest queued node).
        for (let q = pick; q > head; q--) queue[q] = queue[q - 1];
        queue[head++] = node;
      } else node = queue[head++];
      const split = node.split;
      if (!split || (p.maxLeaves > 0 && leaves >= p.maxLeaves)) {
        finish(node);
        continue;
      }
      const mid = this.partitioner.splitNode(node.start, node.end, split);
      if (mid === node.start || mid === node.end) {
        // Rounding in subtracted histograms can make an empty side look non-empty; keep a leaf.
        finish(node);
        continue;
      }
      const GR = node.G - split.GL;
      const HR = node.H - split.HL;
      const CR = node.C - split.CL;
      const lid = b.add(split.HL, mid - node.start, this.weight(split.GL, split.HL) * learningRate);
      const rid = b.add(HR, node.end - mid, this.weight(GR, HR) * learningRate);
      b.setSplit(node.id, split, lid, rid);
      leaves++;
      const L: Pending = { id: lid, start: node.start, end: mid, depth: node.depth + 1, G: split.GL, H: split.HL, C: split.CL, hist: null, split: null };
      const R: Pending = { id: rid, start: mid, end: node.end, depth: node.depth + 1, G: GR, H: HR, C: CR, hist: null, split: null };
      const canL = splittable(L.depth, L.end - L.start);
      const canR = splittable(R.depth, R.end - R.start);
      if (perNode) {
        if (canL) searchOwn(L);
        if (canR) searchOwn(R);
      } else if ((canL || canR) && node.hist) {
        const small = L.end - L.start <= R.end - R.start ? L : R;
        const large = small === L ? R : L;
        const smallHist = this.pool.acquire();
        this.builder.build(smallHist, features, index, small.start, small.end, grad, hess, this.co === 2);
        this.builder.subtract(node.hist, smallHist, features);
        small.hist = smallHist;
        large.hist = node.hist;
        node.hist = null;
        const fs = featuresAt(L.depth);
        if (canL) L.split = this.splitter.find(L, L.hist as Float64Array, this.drawFeatures(fs, rng), rng);
        if (canR) R.split = this.splitter.find(R, R.hist as Float64Array, this.drawFeatures(fs, rng), rng);
      } else if (node.hist) {
        this.pool.release(node.hist);
        node.hist = null;
      }
      for (const child of [L, R]) {
        if (child.split) queue.push(child);
        else finish(child);
      }
    }
    const tree = b.finish(this.data);
    return { tree, routes: b.routes(), leaves: Int32Array.from(leafList), index };
  }

  /** The node's features: a per-node draw (mtries, colsample_bynode) from the level's, into featureScratch. */
  private drawFeatures(levelFeatures: Int32Array, rng: Rng): Int32Array {
    return sampleFeatures(levelFeatures, this.p.colsampleByNode, this.p.mtries, rng, this.featureScratch);
  }
}

/**
 * The histogram tree learner shared by GBM, XGBoost-style boosting and random forests, and the
 * flat tree representation they all produce.
 *
 * Rows live in one Uint32Array permuted in place; every node owns a [start, end) range of it.
 * Histograms are built only for the smaller child of a split; the larger child's histogram is
 * the parent's minus the smaller one's, computed in the parent's buffer.
 *
 * Split gain is XGBoost's: score(L) + score(R) - score(parent) with
 * score(G, H) = T(G)^2 / (H + lambda), T the L1 soft threshold by alpha (or the weight-based form
 * when max_delta_step clips the weight). For squared error with unit hessians this is exactly the
 * reduction of the squared error, which is what H2O reports as variable importance.
 *
 * Categorical splits follow LightGBM: the node's non-empty categories (missing counted as one) are
 * sorted by sum_gradient / (sum_hessian + cat_smooth) and the best prefix of that order goes left,
 * which is the optimal partition for squared error (Fisher 1958) and a good one in general.
 */
import { BinnedData } from './binning';
import { HistogramBuilder, HistogramPool, PartRunner } from './trees/histogram';
import { JOB_PARTITION, mergePartitionParts, partRange, partitionPart } from './trees/row-jobs';
import { Rng } from './random';

/** A tree in flat arrays; node 0 is the root, leaves have feature -1. */
export interface Tree {
  feature: Int32Array;
  /** Numeric split: rows with Math.fround(x) <= threshold go left. A float32 value. */
  threshold: Float64Array;
  /** 1 when the split is a category-set split. */
  categorical: Uint8Array;
  /** Category-set split: codes catCodes[catStart[i] .. catStart[i] + catLength[i]) go left. */
  catStart: Int32Array;
  catLength: Int32Array;
  catCodes: Int32Array;
  left: Int32Array;
  right: Int32Array;
  /** Where missing values (NaN, code -1 or an unknown level) go. */
  defaultLeft: Uint8Array;
  /** Leaf output (already scaled by the learning rate, rounded to float32); internal nodes: the weight they would have. */
  value: Float64Array;
  /** Sum of hessians of the training rows in the node (row count for squared error). */
  cover: Float64Array;
  count: Float64Array;
  /** Split gain (loss reduction); 0 for leaves. */
  gain: Float64Array;
}

export interface TreeParams {
  /** Maximum depth; 0 = unlimited. */
  maxDepth: number;
  /** Maximum number of leaves; 0 = unlimited. */
  maxLeaves: number;
  growPolicy: 'depthwise' | 'lossguide';
  /** Minimum rows in each child (H2O min_rows). */
  minRows: number;
  /** Minimum hessian sum in each child (XGBoost min_child_weight). */
  minChildWeight: number;
  lambda: number;
  alpha: number;
  /** Minimum split gain (XGBoost gamma / min_split_loss). */
  gamma: number;
  maxDeltaStep: number;
  /** Fraction of the tree's features drawn for each depth level. */
  colsampleByLevel: number;
  /** Fraction of the level's features drawn for each node. */
  colsampleByNode: number;
  /** When > 0, the number of features drawn for each node (random forest mtries); overrides colsampleByNode. */
  mtries: number;
  /** Extremely randomized trees: one random threshold per feature and node. */
  randomSplits: boolean;
  /** Smoothing added to the hessian when ordering categories. */
  catSmooth: number;
  /**
   * Use the hessian sum as the row count in split checks and skip counting rows in histograms
   * (a third fewer memory updates). Exact when hessians are all 1 (GBM, DRF); with other
   * hessians only valid when minRows <= 0 (then "count" only needs to be positive).
   */
  countsFromHessian: boolean;
}

export const DEFAULT_TREE_PARAMS: TreeParams = {
  maxDepth: 6,
  maxLeaves: 0,
  growPolicy: 'depthwise',
  minRows: 1,
  minChildWeight: 1,
  lambda: 1,
  alpha: 0,
  gamma: 0,
  maxDeltaStep: 0,
  colsampleByLevel: 1,
  colsampleByNode: 1,
  mtries: 0,
  randomSplits: false,
  catSmooth: 10,
  countsFromHessian: false,
};

/**
 * A node's split. A threshold split is its bin and where missing values go, with no mask: allocating
 * (and later scanning) a mask per node was a large part of growing deep trees (DRF, depth 20, has
 * a node per 2-3 rows). A category-set split carries its mask.
 */
interface Split {
  gain: number;
  feature: number;
  /** Category-set splits: goLeft[bin] for every bin of the feature, the missing bin included; null for threshold splits. */
  mask: Uint8Array | null;
  /** Threshold splits: bins 0..bin go left. */
  bin: number;
  /** Threshold splits: 1 when the missing bin goes left. */
  defaultLeft: number;
  GL: number;
  HL: number;
  CL: number;
}

/** A feature's best split while the features of a node are compared. */
interface Candidate extends Omit<Split, 'defaultLeft'> {
  nbins: number;
  /** Threshold splits: whether the node has missing rows, and whether they go left (without any, they follow the heavier child). */
  hasMissing: boolean;
  missLeft: boolean;
}

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

/** How binned rows traverse a grown tree (see leafOfBinnedRow). */
export interface BinRoutes {
  /** Threshold nodes: the last bin that goes left (missing values follow tree.defaultLeft); -1 elsewhere. */
  bin: Int32Array;
  /** Category-set nodes: goLeft over bins, the missing bin included; null elsewhere. */
  masks: (Uint8Array | null)[];
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

function thresholdL1(g: number, alpha: number): number {
  return g > alpha ? g - alpha : g < -alpha ? g + alpha : 0;
}

/**
 * Nodes with at least this many rows are partitioned on all threads: below it, waking a helper
 * costs more than the half of the pass it would take over.
 */
export const PARALLEL_PARTITION_MIN_ROWS = 50000;

/** Tree learner bound to one binned data set; reuse it for every tree to reuse its buffers. */
export class TreeLearner {
  private readonly index: Uint32Array;
  private readonly scratch: Uint32Array;
  private readonly pool: HistogramPool;
  private readonly builder: HistogramBuilder;
  private readonly order = new Int32Array(256);
  private readonly ratio = new Float64Array(256);

  /**
   * nthreads > 1 builds the histograms of large nodes on that many threads. Nodes of at most
   * smallNodeRows rows that search their own feature draw gather their bins from their rows (0: never;
   * the trees are the same either way). Call dispose() when done.
   */
  constructor(private readonly data: BinnedData, private readonly p: TreeParams, nthreads = 1, private readonly smallNodeRows = SMALL_NODE_ROWS) {
    this.builder = new HistogramBuilder(data, nthreads);
    const shared = this.builder.threads > 1;
    const rowBuffer = (): Uint32Array => new Uint32Array(shared ? new SharedArrayBuffer(Math.max(8, 4 * data.nrows)) : new ArrayBuffer(4 * data.nrows), 0, data.nrows);
    const inArena = this.builder.partitionArrays();
    this.kernelPartition = inArena !== null;
    this.index = inArena?.index ?? rowBuffer();
    this.scratch = inArena?.scratch ?? rowBuffer();
    this.pool = new HistogramPool(data.totalBins * 3);
    this.co = p.countsFromHessian ? 1 : 2;
    this.featureScratch = new Int32Array(data.features.length);
    this.nodeBins = new NodeBins(smallNodeRows);
    this.parts = 2 * this.builder.threads;
    this.lefts = new Int32Array(shared ? new SharedArrayBuffer(4 * this.parts) : new ArrayBuffer(4 * this.parts));
    this.mask = inArena?.mask ?? new Uint8Array(shared ? new SharedArrayBuffer(257) : new ArrayBuffer(257));
    if (shared) {
      this.builder.attach('index', this.index);
      this.builder.attach('scratch', this.scratch);
      this.builder.attach('lefts', this.lefts);
      this.builder.attach('mask', this.mask);
    }
  }

  /** True when index, scratch and mask live in the builder's arena and partitions run its kernel. */
  private readonly kernelPartition: boolean;
  /** Parts of a parallel partition, each part's left count, and the split's mask as helpers see it. */
  private readonly parts: number;
  private readonly lefts: Int32Array;
  private readonly mask: Uint8Array;

  /**
   * The helper threads of this learner, for row jobs of the caller (boosting's gradients and margin
   * updates); threads is 1 when there are none.
   */
  get jobs(): PartRunner {
    return this.builder;
  }

  /** Offset of the row-count measure within a histogram slot: 2 (counts) or 1 (hessians). */
  private readonly co: number;

  /** Stops helper threads, if any were started. */
  dispose(): void {
    this.builder.dispose();
  }

  /** Leaf weight before the learning rate. */
  weight(G: number, H: number): number {
    const d = H + this.p.lambda;
    if (d <= 0) return 0;
    let w = -thresholdL1(G, this.p.alpha) / d;
    const mds = this.p.maxDeltaStep;
    if (mds > 0) w = Math.max(-mds, Math.min(mds, w));
    return w;
  }

  private score(G: number, H: number): number {
    const d = H + this.p.lambda;
    if (d <= 0) return 0;
    if (this.p.maxDeltaStep > 0) {
      const w = this.weight(G, H);
      return -(2 * G * w + d * w * w);
    }
    const t = thresholdL1(G, this.p.alpha);
    return (t * t) / d;
  }

  /**
   * Grows one tree on the given rows (a subset of the binned data's rows; only their indices are
   * copied) with the given gradients, considering only `features`.
   */
  grow(rows: Uint32Array, grad: Float64Array, hess: Float64Array, features: Int32Array, rng: Rng, learningRate: number): GrownTree {
    const p = this.p;
    const n = rows.length;
    const index = this.index;
    index.set(rows);
    this.builder.loadGradients(grad, hess);
    this.rowGrad = grad;
    this.rowHess = hess;
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
        node.split = this.findSplit(node, null, fs, rng);
        return;
      }
      const hist = this.pool.acquire();
      this.builder.build(hist, fs, index, node.start, node.end, grad, hess, this.co === 2);
      node.split = this.findSplit(node, hist, fs, rng);
      this.pool.release(hist);
    };
    const root: Pending = { id: b.add(H, n, this.weight(G, H) * learningRate), start: 0, end: n, depth: 0, G, H, C: this.co === 2 ? n : H, hist: null, split: null };
    if (splittable(0, n)) {
      if (perNode) searchOwn(root);
      else {
        root.hist = this.pool.acquire();
        this.builder.build(root.hist, features, index, 0, n, grad, hess, this.co === 2);
        root.split = this.findSplit(root, root.hist, this.drawFeatures(featuresAt(0), rng), rng);
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
      this.loadMask(split);
      const mid = this.partition(node.start, node.end, split.feature);
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
        if (canL) L.split = this.findSplit(L, L.hist as Float64Array, this.drawFeatures(fs, rng), rng);
        if (canR) R.split = this.findSplit(R, R.hist as Float64Array, this.drawFeatures(fs, rng), rng);
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

  /** Writes the split's goLeft table over bins into the mask the partition reads (helpers and kernel included). */
  private loadMask(split: Split): void {
    const mask = this.mask;
    if (split.mask) {
      mask.set(split.mask);
      return;
    }
    const nbins = this.data.features[split.feature].nbins;
    mask.fill(1, 0, split.bin + 1);
    mask.fill(0, split.bin + 1, nbins);
    mask[nbins] = split.defaultLeft;
  }

  /**
   * Stable partition: rows keep ascending order inside every node (the root's rows are sorted),
   * so histogram passes read the row-major bins at increasing addresses, which the hardware
   * prefetcher handles far better than the scattered order an in-place swap partition leaves.
   */
  private partition(start: number, end: number, feature: number): number {
    const index = this.index;
    const scratch = this.scratch;
    const bins = this.data.features[feature].bins;
    const n = end - start;
    if (this.builder.threads > 1 && n >= PARALLEL_PARTITION_MIN_ROWS) {
      // Each part is partitioned on its own, then the parts' lefts and rights are joined in part
      // order: the same permutation as one pass over the whole range.
      const { parts, lefts } = this;
      this.builder.runParts(JOB_PARTITION, parts, [start, end, feature], (c) => {
        const [a, b] = partRange(n, parts, c);
        lefts[c] = this.kernelPartition ? this.builder.partitionRows(feature, start + a, start + b) : partitionPart(index, scratch, bins, this.mask, start + a, start + b);
      });
      return mergePartitionParts(index, scratch, start, end, parts, lefts);
    }
    let left: number;
    if (this.kernelPartition) left = this.builder.partitionRows(feature, start, end);
    else left = partitionPart(index, scratch, bins, this.mask, start, end);
    const l = start + left;
    index.set(scratch.subarray(start, start + (end - l)), l);
    return l;
  }

  /** The node's features: a per-node draw (mtries, colsample_bynode) from the level's, into featureScratch. */
  private drawFeatures(levelFeatures: Int32Array, rng: Rng): Int32Array {
    return sampleFeatures(levelFeatures, this.p.colsampleByNode, this.p.mtries, rng, this.featureScratch);
  }

  /**
   * The best split of a node over features `fs` (its draw, see drawFeatures), or null. With `hist`
   * null the node's bins are gathered from its rows (a node of at most SMALL_NODE_ROWS rows).
   */
  private findSplit(node: Pending, hist: Float64Array | null, fs: Int32Array, rng: Rng): Split | null {
    const parentScore = this.score(node.G, node.H);
    const nb = this.nodeBins;
    let best: Candidate | null = null;
    for (let k = 0; k < fs.length; k++) {
      const f = fs[k];
      const feat = this.data.features[f];
      if (hist) nb.fromHistogram(hist, this.data.offsets[f] * 3, feat.nbins, this.co);
      else nb.fromRows(feat.bins, feat.nbins, this.index, node.start, node.end, this.rowGrad, this.rowHess, this.co === 2);
      const s = feat.kind === 'numeric' ? this.numericSplit(node, nb, parentScore, rng) : this.categoricalSplit(node, nb, parentScore, rng);
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

  /** Per-node feature draws (findSplit), reused: a node's draw is not kept past its split search. */
  private readonly featureScratch: Int32Array;
  /** The bins of the feature findSplit is looking at. */
  private readonly nodeBins: NodeBins;
  /** The gradients and hessians of the tree being grown (for nodes that gather their bins from their rows). */
  private rowGrad: Float64Array = new Float64Array(0);
  private rowHess: Float64Array = new Float64Array(0);

  private valid(GL: number, HL: number, CL: number, node: Pending): boolean {
    const p = this.p;
    const CR = node.C - CL;
    const HR = node.H - HL;
    return CL >= p.minRows && CR >= p.minRows && CL > 0 && CR > 0 && HL >= p.minChildWeight && HR >= p.minChildWeight;
  }

  private gainOf(GL: number, HL: number, node: Pending, parentScore: number): number {
    return this.score(GL, HL) + this.score(node.G - GL, node.H - HL) - parentScore;
  }

  private numericSplit(node: Pending, nb: NodeBins, parentScore: number, rng: Rng): Candidate | null {
    const { lo, hi, gm, hm, cm, m, bin, src, base, co, nbins } = nb;
    if (lo < 0) return null;
    // With missing rows present the last non-empty bin is a candidate too: "all values vs missing".
    const last = cm > 0 ? hi : hi - 1;
    if (!this.p.randomSplits && this.p.alpha === 0 && !(this.p.maxDeltaStep > 0)) return this.l2Split(node, nb, parentScore, last);
    let bestGain = this.p.gamma;
    let bestBin = -1;
    let bestMissLeft = false;
    let bestGL = 0;
    let bestHL = 0;
    let bestCL = 0;
    const consider = (b: number, GL: number, HL: number, CL: number): void => {
      // Missing right (also the only option when there are no missing rows), then missing left.
      if (this.valid(GL, HL, CL, node)) {
        const gain = this.gainOf(GL, HL, node, parentScore);
        if (gain > bestGain) {
          bestGain = gain;
          bestBin = b;
          bestMissLeft = false;
          bestGL = GL;
          bestHL = HL;
          bestCL = CL;
        }
      }
      if (cm > 0 && b < hi && this.valid(GL + gm, HL + hm, CL + cm, node)) {
        const gain = this.gainOf(GL + gm, HL + hm, node, parentScore);
        if (gain > bestGain) {
          bestGain = gain;
          bestBin = b;
          bestMissLeft = true;
          bestGL = GL + gm;
          bestHL = HL + hm;
          bestCL = CL + cm;
        }
      }
    };
    let GL = 0;
    let HL = 0;
    let CL = 0;
    if (this.p.randomSplits) {
      if (last < lo) return null;
      const cut = lo + rng.int(last - lo + 1);
      for (let i = 0; i < m && bin[i] <= cut; i++) {
        const s = base + 3 * bin[i];
        GL += src[s];
        HL += src[s + 1];
        CL += src[s + co];
      }
      consider(cut, GL, HL, CL);
    } else {
      for (let i = 0; i < m && bin[i] <= last; i++) {
        const s = base + 3 * bin[i];
        if (src[s + co] === 0) continue;
        GL += src[s];
        HL += src[s + 1];
        CL += src[s + co];
        consider(bin[i], GL, HL, CL);
      }
    }
    if (bestBin < 0) return null;
    return { gain: bestGain, feature: -1, mask: null, GL: bestGL, HL: bestHL, CL: bestCL, bin: bestBin, nbins, hasMissing: cm > 0, missLeft: bestMissLeft };
  }

  /**
   * numericSplit's scan for the usual case (no L1 term, no max_delta_step, not random): the same
   * candidates in the same order with the same arithmetic (score = G^2 / (H + lambda), or 0 when
   * that denominator is not positive), written out without the per-bin calls the general path makes
   * (they were the larger part of the split search's time).
   */
  private l2Split(node: Pending, nb: NodeBins, parentScore: number, last: number): Candidate | null {
    const { lambda, minRows, minChildWeight, gamma } = this.p;
    const { hi, gm, hm, cm, m, bin, src, base, co, nbins } = nb;
    const { G, H, C } = node;
    const sc = (gs: number, hs: number): number => {
      const d = hs + lambda;
      return d <= 0 ? 0 : (gs * gs) / d;
    };
    let bestGain = gamma;
    let bestBin = -1;
    let bestMissLeft = false;
    let bestGL = 0;
    let bestHL = 0;
    let bestCL = 0;
    let GL = 0;
    let HL = 0;
    let CL = 0;
    for (let i = 0; i < m; i++) {
      const b = bin[i];
      if (b > last) break;
      const s = base + 3 * b;
      const cb = src[s + co];
      if (cb === 0) continue;
      GL += src[s];
      HL += src[s + 1];
      CL += cb;
      let CR = C - CL;
      let HR = H - HL;
      if (CL >= minRows && CR >= minRows && CL > 0 && CR > 0 && HL >= minChildWeight && HR >= minChildWeight) {
        const gain = sc(GL, HL) + sc(G - GL, HR) - parentScore;
        if (gain > bestGain) {
          bestGain = gain;
          bestBin = b;
          bestMissLeft = false;
          bestGL = GL;
          bestHL = HL;
          bestCL = CL;
        }
      }
      if (cm > 0 && b < hi) {
        const gl = GL + gm;
        const hl = HL + hm;
        const cl = CL + cm;
        CR = C - cl;
        HR = H - hl;
        if (cl >= minRows && CR >= minRows && cl > 0 && CR > 0 && hl >= minChildWeight && HR >= minChildWeight) {
          const gain = sc(gl, hl) + sc(G - gl, HR) - parentScore;
          if (gain > bestGain) {
            bestGain = gain;
            bestBin = b;
            bestMissLeft = true;
            bestGL = gl;
            bestHL = hl;
            bestCL = cl;
          }
        }
      }
    }
    if (bestBin < 0) return null;
    return { gain: bestGain, feature: -1, mask: null, GL: bestGL, HL: bestHL, CL: bestCL, bin: bestBin, nbins, hasMissing: cm > 0, missLeft: bestMissLeft };
  }

  private categoricalSplit(node: Pending, nb: NodeBins, parentScore: number, rng: Rng): Candidate | null {
    const order = this.order;
    const ratio = this.ratio;
    const { nbins, cm } = nb;
    const catSmooth = this.p.catSmooth;
    // Missing values are a level of their own here, after every real one.
    let m = 0;
    const { src, base, co } = nb;
    const at = (i: number): number => base + 3 * nb.bin[i];
    for (let i = 0; i < nb.m; i++) {
      if (src[at(i) + co] > 0) {
        order[m++] = i;
        ratio[i] = src[at(i)] / (src[at(i) + 1] + catSmooth);
      }
    }
    const missing = nb.m;
    if (cm > 0) {
      order[m++] = missing;
      ratio[missing] = nb.gm / (nb.hm + catSmooth);
    }
    if (m < 2) return null;
    // By ratio, then position. A few categories are insertion-sorted in place, allocating nothing.
    const byRatio = (a: number, b: number): number => ratio[a] - ratio[b] || a - b;
    let sorted: Int32Array | number[] = order;
    if (m <= 16) {
      for (let i = 1; i < m; i++) {
        const x = order[i];
        let j = i;
        for (; j > 0 && byRatio(order[j - 1], x) > 0; j--) order[j] = order[j - 1];
        order[j] = x;
      }
    } else sorted = Array.from(order.subarray(0, m)).sort(byRatio);
    const binOf = (i: number): number => (i === missing ? nbins : nb.bin[i]);
    let bestGain = this.p.gamma;
    let bestK = -1;
    let bestGL = 0;
    let bestHL = 0;
    let bestCL = 0;
    let GL = 0;
    let HL = 0;
    let CL = 0;
    const cut = this.p.randomSplits ? rng.int(m - 1) : -1;
    for (let k = 0; k < m - 1; k++) {
      const i = sorted[k];
      GL += i === missing ? nb.gm : src[at(i)];
      HL += i === missing ? nb.hm : src[at(i) + 1];
      CL += i === missing ? cm : src[at(i) + co];
      if (cut >= 0 && k !== cut) continue;
      if (!this.valid(GL, HL, CL, node)) continue;
      const gain = this.gainOf(GL, HL, node, parentScore);
      if (gain > bestGain) {
        bestGain = gain;
        bestK = k;
        bestGL = GL;
        bestHL = HL;
        bestCL = CL;
      }
    }
    if (bestK < 0) return null;
    const mask = new Uint8Array(nbins + 1);
    for (let k = 0; k <= bestK; k++) mask[binOf(sorted[k])] = 1;
    if (cm === 0) mask[nbins] = bestHL >= node.H - bestHL ? 1 : 0;
    return { gain: bestGain, feature: -1, mask, GL: bestGL, HL: bestHL, CL: bestCL, bin: -1, nbins, hasMissing: false, missLeft: false };
  }
}

/** Nodes of at most this many rows gather their bins from their rows instead of building a histogram. */
export const SMALL_NODE_ROWS = 64;

/**
 * One feature's bins in a node, ascending, the missing bin apart: what the split scans read. From a
 * histogram it lists the bins with any non-zero sum (the scans skip or add nothing for the others)
 * and reads their sums in place; a small node's sums are gathered from its rows into a buffer of its
 * own, in row order within each bin, which adds up exactly as the histogram kernel does. So both give
 * the same splits, and the scans cost the node's distinct bins, not the feature's 256.
 */
export class NodeBins {
  nbins = 0;
  /** The listed bins, bin[0..m), ascending. Bin b's gradient, hessian and count sums are src[s], src[s + 1] and src[s + co], s = base + 3b. */
  m = 0;
  readonly bin = new Int32Array(256);
  src: Float64Array;
  base = 0;
  co = 2;
  /** First and last bin with a positive count; -1 when none. */
  lo = -1;
  hi = -1;
  /** Sums of the missing bin. */
  gm = 0;
  hm = 0;
  cm = 0;
  /** A small node's sums, bin b at 3b (only its listed bins are written). */
  private readonly own = new Float64Array(3 * 256);
  /** bin << 16 | position, sorted to group a small node's rows by bin. */
  private readonly keys: Uint32Array;

  /** @param maxRows the most rows fromRows is given (positions take 16 bits of a key) */
  constructor(maxRows: number) {
    if (maxRows > 0xffff) throw new RangeError(`NodeBins handles nodes of at most 65535 rows, not ${maxRows}`);
    this.keys = new Uint32Array(Math.max(1, maxRows));
    this.src = this.own;
  }

  fromHistogram(hist: Float64Array, base: number, nbins: number, co: number): void {
    const bin = this.bin;
    let m = 0;
    let lo = -1;
    let hi = -1;
    for (let b = 0; b < nbins; b++) {
      const s = base + b * 3;
      const cs = hist[s + co];
      if (cs === 0 && hist[s] === 0 && hist[s + 1] === 0) continue;
      bin[m++] = b;
      if (cs > 0) {
        if (lo < 0) lo = b;
        hi = b;
      }
    }
    const ms = base + nbins * 3;
    this.set(hist, base, co, nbins, m, lo, hi, hist[ms], hist[ms + 1], hist[ms + co]);
  }

  fromRows(featureBins: Uint8Array, nbins: number, index: Uint32Array, start: number, end: number, grad: Float64Array, hess: Float64Array, counts: boolean): void {
    const n = end - start;
    const keys = this.keys;
    // Insertion sort: a small node's few keys, without the view a typed-array sort would need.
    for (let i = 0; i < n; i++) {
      const key = (featureBins[index[start + i]] << 16) | i;
      let j = i;
      for (; j > 0 && keys[j - 1] > key; j--) keys[j] = keys[j - 1];
      keys[j] = key;
    }
    const { bin, own } = this;
    let m = 0;
    let gm = 0;
    let hm = 0;
    let cm = 0;
    let lo = -1;
    let hi = -1;
    for (let k = 0; k < n; k++) {
      const b = keys[k] >>> 16;
      const r = index[start + (keys[k] & 0xffff)];
      const cr = counts ? 1 : hess[r];
      if (b === nbins) {
        gm += grad[r];
        hm += hess[r];
        cm += cr;
        continue;
      }
      const s = 3 * b;
      if (m === 0 || bin[m - 1] !== b) {
        bin[m++] = b;
        own[s] = 0;
        own[s + 1] = 0;
        own[s + 2] = 0;
      }
      own[s] += grad[r];
      own[s + 1] += hess[r];
      own[s + 2] += cr;
    }
    for (let i = 0; i < m; i++) {
      if (own[3 * bin[i] + 2] > 0) {
        if (lo < 0) lo = bin[i];
        hi = bin[i];
      }
    }
    this.set(own, 0, 2, nbins, m, lo, hi, gm, hm, cm);
  }

  private set(src: Float64Array, base: number, co: number, nbins: number, m: number, lo: number, hi: number, gm: number, hm: number, cm: number): void {
    this.src = src;
    this.base = base;
    this.co = co;
    this.nbins = nbins;
    this.m = m;
    this.lo = lo;
    this.hi = hi;
    this.gm = gm;
    this.hm = hm;
    this.cm = cm;
  }
}

/**
 * Draws round(fraction * n) features (at least one), or `count` when count > 0; keeps order. With
 * `scratch` (at least n long) the draw is made in it and returned as a view of it, valid until the
 * next draw into the same scratch.
 */
export function sampleFeatures(features: Int32Array, fraction: number, count: number, rng: Rng, scratch?: Int32Array): Int32Array {
  const n = features.length;
  const k = count > 0 ? Math.min(n, count) : fraction >= 1 ? n : Math.max(1, Math.round(fraction * n));
  if (k >= n) return features;
  const picked = scratch ? scratch.subarray(0, n) : new Int32Array(n);
  picked.set(features);
  for (let i = 0; i < k; i++) {
    const j = i + rng.int(n - i);
    const t = picked[i];
    picked[i] = picked[j];
    picked[j] = t;
  }
  const drawn = picked.subarray(0, k).sort();
  return scratch ? drawn : drawn.slice();
}

/** Accumulates nodes in growable arrays during growth, then freezes them into a Tree. */
class TreeBuilder {
  feature: number[] = [];
  masks: (Uint8Array | null)[] = [];
  bin: number[] = [];
  defaultLeft: number[] = [];
  left: number[] = [];
  right: number[] = [];
  value: number[] = [];
  cover: number[] = [];
  count: number[] = [];
  gain: number[] = [];

  add(H: number, C: number, value: number): number {
    this.feature.push(-1);
    this.masks.push(null);
    this.bin.push(-1);
    this.defaultLeft.push(0);
    this.left.push(-1);
    this.right.push(-1);
    this.value.push(value);
    this.cover.push(H);
    this.count.push(C);
    this.gain.push(0);
    return this.feature.length - 1;
  }

  setSplit(id: number, split: Split, l: number, r: number): void {
    this.feature[id] = split.feature;
    this.masks[id] = split.mask;
    if (!split.mask) {
      this.bin[id] = split.bin;
      this.defaultLeft[id] = split.defaultLeft;
    }
    this.left[id] = l;
    this.right[id] = r;
    this.gain[id] = split.gain;
  }

  /** The binned-row traversal; after finish(), which may flip category masks along with their children. */
  routes(): BinRoutes {
    return { bin: Int32Array.from(this.bin), masks: this.masks };
  }

  /** Converts bin masks into raw thresholds and category sets. */
  finish(data: BinnedData): Tree {
    const n = this.feature.length;
    const t: Tree = {
      feature: Int32Array.from(this.feature),
      threshold: new Float64Array(n),
      categorical: new Uint8Array(n),
      catStart: new Int32Array(n),
      catLength: new Int32Array(n),
      catCodes: new Int32Array(0),
      left: Int32Array.from(this.left),
      right: Int32Array.from(this.right),
      defaultLeft: new Uint8Array(n),
      value: Float64Array.from(this.value),
      cover: Float64Array.from(this.cover),
      count: Float64Array.from(this.count),
      gain: Float64Array.from(this.gain),
    };
    const codes: number[] = [];
    for (let i = 0; i < n; i++) {
      const f = this.feature[i];
      if (f < 0) continue;
      const feat = data.features[f];
      const mask = this.masks[i];
      if (!mask) {
        t.defaultLeft[i] = this.defaultLeft[i];
        t.threshold[i] = feat.upper[this.bin[i]];
        continue;
      }
      t.defaultLeft[i] = mask[feat.nbins];
      t.categorical[i] = 1;
      const leftSet: number[] = [];
      const rightSet: number[] = [];
      for (let b = 0; b < feat.nbins; b++) for (const c of feat.codesOfBin[b]) (mask[b] ? leftSet : rightSet).push(c);
      let set = leftSet;
      // Store the shorter side: the ONNX export turns each stored category into one node.
      if (rightSet.length < leftSet.length) {
        set = rightSet;
        const l = t.left[i];
        t.left[i] = t.right[i];
        t.right[i] = l;
        t.defaultLeft[i] = mask[feat.nbins] ? 0 : 1;
        mask.forEach((v, k) => (mask[k] = v ? 0 : 1));
      }
      set.sort((a, b) => a - b);
      t.catStart[i] = codes.length;
      t.catLength[i] = set.length;
      codes.push(...set);
    }
    t.catCodes = Int32Array.from(codes);
    return t;
  }
}

/** Leaf reached by a binned training row, using the growth-time routes. */
export function leafOfBinnedRow(tree: Tree, routes: BinRoutes, data: BinnedData, row: number): number {
  let node = 0;
  while (tree.feature[node] >= 0) {
    const feat = data.features[tree.feature[node]];
    const bin = feat.bins[row];
    const last = routes.bin[node];
    const left = last >= 0 ? (bin === feat.nbins ? tree.defaultLeft[node] === 1 : bin <= last) : (routes.masks[node] as Uint8Array)[bin] === 1;
    node = left ? tree.left[node] : tree.right[node];
  }
  return node;
}

/**
 * Leaf reached by one row given as feature values: numeric value (NaN = missing) or category code
 * (-1 = missing or unknown) per feature. Numeric comparisons are done in float32, as ONNX does.
 */
export function leafOfRow(tree: Tree, x: ArrayLike<number>): number {
  let node = 0;
  while (tree.feature[node] >= 0) node = nextNode(tree, node, x[tree.feature[node]]);
  return node;
}

/** The child a value goes to at an internal node. */
export function nextNode(tree: Tree, node: number, v: number): number {
  if (tree.categorical[node]) {
    if (!(v >= 0)) return tree.defaultLeft[node] ? tree.left[node] : tree.right[node];
    const s = tree.catStart[node];
    const e = s + tree.catLength[node];
    for (let k = s; k < e; k++) if (tree.catCodes[k] === v) return tree.left[node];
    return tree.right[node];
  }
  if (Number.isNaN(v)) return tree.defaultLeft[node] ? tree.left[node] : tree.right[node];
  return Math.fround(v) <= tree.threshold[node] ? tree.left[node] : tree.right[node];
}

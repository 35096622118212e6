/**
 * What a split is, and the gain every split search scores it with: XGBoost's
 * score(L) + score(R) - score(parent), with score(G, H) = T(G)^2 / (H + lambda), T the L1 soft
 * threshold by alpha (or the weight-based form when max_delta_step clips the weight). For squared
 * error with unit hessians this is exactly the reduction of the squared error, which is what H2O
 * reports as variable importance.
 */
import { TreeParams } from './params';

/**
 * A node's split. A threshold split is its bin and where missing values go, with no mask: allocating
 * (and later scanning) a mask per node was a large part of growing deep trees (DRF, depth 20, has
 * a node per 2-3 rows). A category-set split carries its mask.
 */
export interface Split {
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
export interface Candidate extends Omit<Split, 'defaultLeft'> {
  nbins: number;
  /** Threshold splits: whether the node has missing rows, and whether they go left (without any, they follow the heavier child). */
  hasMissing: boolean;
  missLeft: boolean;
}

/** A node's gradient, hessian and count sums (C: the count measure histograms carry, see countOffset). */
export interface NodeSums {
  G: number;
  H: number;
  C: number;
}

function thresholdL1(g: number, alpha: number): number {
  return g > alpha ? g - alpha : g < -alpha ? g + alpha : 0;
}

/** Leaf weight before the learning rate. */
export function leafWeight(p: TreeParams, G: number, H: number): number {
  const d = H + p.lambda;
  if (d <= 0) return 0;
  let w = -thresholdL1(G, p.alpha) / d;
  const mds = p.maxDeltaStep;
  if (mds > 0) w = Math.max(-mds, Math.min(mds, w));
  return w;
}

export function nodeScore(p: TreeParams, G: number, H: number): number {
  const d = H + p.lambda;
  if (d <= 0) return 0;
  if (p.maxDeltaStep > 0) {
    const w = leafWeight(p, G, H);
    return -(2 * G * w + d * w * w);
  }
  const t = thresholdL1(G, p.alpha);
  return (t * t) / d;
}

/** Whether both children of a split with left sums (GL, HL, CL) meet min_rows and min_child_weight. */
export function validSplit(p: TreeParams, GL: number, HL: number, CL: number, node: NodeSums): boolean {
  const CR = node.C - CL;
  const HR = node.H - HL;
  return CL >= p.minRows && CR >= p.minRows && CL > 0 && CR > 0 && HL >= p.minChildWeight && HR >= p.minChildWeight;
}

export function splitGain(p: TreeParams, GL: number, HL: number, node: NodeSums, parentScore: number): number {
  return nodeScore(p, GL, HL) + nodeScore(p, node.G - GL, node.H - HL) - parentScore;
}

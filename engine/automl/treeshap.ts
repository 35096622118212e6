/**
 * Exact TreeSHAP (Lundberg, Erion & Lee 2018, "Consistent individualized feature attribution for
 * tree ensembles", Algorithm 2): Shapley values of the tree margin for one row in
 * O(leaves * depth^2), with E[f(x) | x_S] taken as the cover-weighted average over the subtrees
 * the row cannot decide (cover = hessian sum of the training rows, counts for squared error).
 * Per row and output, the contributions plus the BiasTerm sum to the raw margin.
 */
import { Frame } from './frame';
import { FeatureMatrix, RowObject, TreeEnsembleModel, toFeatureMatrix } from './model';
import { Tree, nextNode } from './trees';

export interface Contribution {
  feature: string;
  value: number;
}

export interface ShapResult {
  /** Feature names, then 'BiasTerm'. */
  names: string[];
  /** contributions[k] is row-major n x (F + 1) for output k (class k for multiclass). */
  contributions: Float64Array[];
}

/** Path element arrays, sized for the deepest tree; segments are copied per recursion level. */
class PathBuffers {
  feature: Int32Array;
  zero: Float64Array;
  one: Float64Array;
  weight: Float64Array;

  constructor(maxDepth: number) {
    const size = ((maxDepth + 3) * (maxDepth + 4)) / 2 + 4;
    this.feature = new Int32Array(size);
    this.zero = new Float64Array(size);
    this.one = new Float64Array(size);
    this.weight = new Float64Array(size);
  }
}

function extend(p: PathBuffers, o: number, d: number, pz: number, po: number, pi: number): void {
  p.feature[o + d] = pi;
  p.zero[o + d] = pz;
  p.one[o + d] = po;
  p.weight[o + d] = d === 0 ? 1 : 0;
  for (let i = d - 1; i >= 0; i--) {
    p.weight[o + i + 1] += (po * p.weight[o + i] * (i + 1)) / (d + 1);
    p.weight[o + i] = (pz * p.weight[o + i] * (d - i)) / (d + 1);
  }
}

function unwind(p: PathBuffers, o: number, d: number, k: number): void {
  const one = p.one[o + k];
  const zero = p.zero[o + k];
  let next = p.weight[o + d];
  for (let i = d - 1; i >= 0; i--) {
    if (one !== 0) {
      const t = p.weight[o + i];
      p.weight[o + i] = (next * (d + 1)) / ((i + 1) * one);
      next = t - (p.weight[o + i] * zero * (d - i)) / (d + 1);
    } else {
      p.weight[o + i] = (p.weight[o + i] * (d + 1)) / (zero * (d - i));
    }
  }
  for (let i = k; i < d; i++) {
    p.feature[o + i] = p.feature[o + i + 1];
    p.zero[o + i] = p.zero[o + i + 1];
    p.one[o + i] = p.one[o + i + 1];
  }
}

function unwoundSum(p: PathBuffers, o: number, d: number, k: number): number {
  const one = p.one[o + k];
  const zero = p.zero[o + k];
  let next = p.weight[o + d];
  let total = 0;
  for (let i = d - 1; i >= 0; i--) {
    if (one !== 0) {
      const t = (next * (d + 1)) / ((i + 1) * one);
      total += t;
      next = p.weight[o + i] - (t * zero * (d - i)) / (d + 1);
    } else if (zero !== 0) {
      total += p.weight[o + i] / zero / ((d - i) / (d + 1));
    }
  }
  return total;
}

function copySegment(p: PathBuffers, from: number, to: number, len: number): void {
  p.feature.copyWithin(to, from, from + len);
  p.zero.copyWithin(to, from, from + len);
  p.one.copyWithin(to, from, from + len);
  p.weight.copyWithin(to, from, from + len);
}

/** Depth of a flat tree (root = 0). */
export function treeDepth(t: Tree, node = 0): number {
  return t.feature[node] < 0 ? 0 : 1 + Math.max(treeDepth(t, t.left[node]), treeDepth(t, t.right[node]));
}

/** Cover-weighted mean leaf value: the tree's expected output E[f(X)]. */
export function expectedValue(t: Tree, node = 0): number {
  if (t.feature[node] < 0) return t.value[node];
  const l = t.left[node];
  const r = t.right[node];
  const c = t.cover[l] + t.cover[r];
  if (!(c > 0)) return 0.5 * (expectedValue(t, l) + expectedValue(t, r));
  return (t.cover[l] * expectedValue(t, l) + t.cover[r] * expectedValue(t, r)) / c;
}

/** Adds scale * the SHAP values of one tree for row x into phi (length F; bias not included). */
export function treeShapRow(t: Tree, x: ArrayLike<number>, phi: Float64Array, scale: number, buf: PathBuffersLike = new PathBuffers(treeDepth(t))): void {
  const p = buf as PathBuffers;
  // As the reference implementation: each call copies its parent's path segment to just past
  // it, so siblings never see each other's extensions.
  const recurse = (node: number, parent: number, d: number, pz: number, po: number, pi: number): void => {
    const o = parent + d + 1;
    copySegment(p, parent, o, d + 1);
    extend(p, o, d, pz, po, pi);
    const f = t.feature[node];
    if (f < 0) {
      for (let i = 1; i <= d; i++) {
        const w = unwoundSum(p, o, d, i);
        phi[p.feature[o + i]] += scale * w * (p.one[o + i] - p.zero[o + i]) * t.value[node];
      }
      return;
    }
    const hot = nextNode(t, node, x[f]);
    const cold = hot === t.left[node] ? t.right[node] : t.left[node];
    const w = t.cover[hot] + t.cover[cold];
    const hotZero = w > 0 ? t.cover[hot] / w : 0.5;
    const coldZero = w > 0 ? t.cover[cold] / w : 0.5;
    let inZero = 1;
    let inOne = 1;
    let dd = d;
    for (let k = 1; k <= d; k++) {
      if (p.feature[o + k] === f) {
        // Split on a feature already on the path: undo it and fold its fractions into this split.
        inZero = p.zero[o + k];
        inOne = p.one[o + k];
        unwind(p, o, d, k);
        dd = d - 1;
        break;
      }
    }
    recurse(hot, o, dd + 1, hotZero * inZero, inOne, f);
    recurse(cold, o, dd + 1, coldZero * inZero, 0, f);
  };
  recurse(0, 0, 0, 1, 1, -1);
}

/** Opaque scratch space for treeShapRow; create with makeShapBuffers(maxDepth). */
export type PathBuffersLike = object;

/** Scratch space for treeShapRow, sized for trees up to maxDepth deep. */
export function makeShapBuffers(maxDepth: number): PathBuffersLike {
  return new PathBuffers(maxDepth);
}

/** SHAP contributions of every row for every output of a model. */
export function shapFromMatrix(model: TreeEnsembleModel, x: FeatureMatrix): ShapResult {
  const F = model.features.length;
  const n = x.length ? x[0].length : 0;
  const K = model.nOutputs;
  let maxDepth = 0;
  for (const ts of model.trees) for (const t of ts) maxDepth = Math.max(maxDepth, treeDepth(t));
  const buf = new PathBuffers(maxDepth);
  const row = new Float64Array(F);
  const contributions: Float64Array[] = [];
  for (let k = 0; k < K; k++) {
    const ts = model.trees[k];
    const scale = model.aggregation === 'average' && ts.length ? 1 / ts.length : 1;
    let bias = model.baseScore[k];
    for (const t of ts) bias += scale * expectedValue(t);
    const out = new Float64Array(n * (F + 1));
    const phi = new Float64Array(F);
    for (let i = 0; i < n; i++) {
      for (let f = 0; f < F; f++) row[f] = x[f][i];
      phi.fill(0);
      for (const t of ts) treeShapRow(t, row, phi, scale, buf);
      out.set(phi, i * (F + 1));
      out[i * (F + 1) + F] = bias;
    }
    contributions.push(out);
  }
  return { names: [...model.featureNames, 'BiasTerm'], contributions };
}

/** SHAP contributions of a frame or row objects. */
export function shapContributions(model: TreeEnsembleModel, input: Frame | RowObject[]): ShapResult {
  return shapFromMatrix(model, toFeatureMatrix(model.features, input));
}

/**
 * Per-row records [{feature, value}..., {feature: 'BiasTerm', value}] for one output (the class
 * index for multiclass; 0 otherwise).
 */
export function shapRecords(model: TreeEnsembleModel, input: Frame | RowObject[], output = 0): Contribution[][] {
  const r = shapContributions(model, input);
  const c = r.contributions[output];
  const w = r.names.length;
  const rows: Contribution[][] = [];
  for (let i = 0; i < c.length / w; i++) rows.push(r.names.map((feature, j) => ({ feature, value: c[i * w + j] })));
  return rows;
}

/**
 * Scoring one tree: the leaf a row reaches, from raw feature values (as the model and ONNX score)
 * or, during training, from its bins along the growth-time routes.
 */
import { BinnedData } from '../binning';
import { BinRoutes, Tree } from './tree';

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

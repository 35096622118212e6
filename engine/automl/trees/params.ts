/** The tree learner's parameters, in its own names (gbm.ts, xgboost.ts and drf.ts map theirs onto them). */

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

/** Offset of the row-count measure within a histogram slot: 2 (row counts) or 1 (hessian sums, countsFromHessian). */
export function countOffset(p: TreeParams): 1 | 2 {
  return p.countsFromHessian ? 1 : 2;
}

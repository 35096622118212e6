/**
 * The flat tree every tree learner here produces (GBM, XGBoost-style boosting, DRF), and the
 * routes binned training rows take through it while it is grown.
 */

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

/** How binned rows traverse a grown tree (see leafOfBinnedRow). */
export interface BinRoutes {
  /** Threshold nodes: the last bin that goes left (missing values follow tree.defaultLeft); -1 elsewhere. */
  bin: Int32Array;
  /** Category-set nodes: goLeft over bins, the missing bin included; null elsewhere. */
  masks: (Uint8Array | null)[];
}

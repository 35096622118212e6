/**
 * The tree family: how one tree is grown on binned data (grower.ts: node queue; histogram.ts and
 * its WebAssembly kernels; splitter.ts and the split searches; partition.ts) and how a tree scores
 * (predictor.ts). The learners beside this folder (gbm.ts, xgboost.ts, drf.ts, boosting.ts) build
 * ensembles from it; they and the rest of engine/automl import the family from here.
 */
export { Tree, BinRoutes } from './tree';
export { TreeParams, DEFAULT_TREE_PARAMS } from './params';
export { TreeLearner, GrownTree } from './grower';
export { leafOfRow, nextNode, leafOfBinnedRow } from './predictor';
export { sampleFeatures } from './feature-sampling';
// The row jobs a learner's caller runs on its helper threads (boosting's gradients and margins).
export { PartRunner } from './histogram';
export {
  JOB_GRADIENTS,
  JOB_MARGINS,
  GRAD_BERNOULLI,
  GRAD_GAUSSIAN,
  PAIRS_HESSIAN,
  PAIRS_NONE,
  PAIRS_UNIT,
  addLeafValuesPart,
  bernoulliGradients,
  gaussianGradients,
  gradientsPart,
  partRange,
} from './row-jobs';

/** Public API of the tree learners (see README.md). */
export * from './frame';
export * from './binning';
export * from './metrics';
export { Tree, TreeParams, TreeLearner, DEFAULT_TREE_PARAMS, leafOfRow, nextNode } from './trees';
export * from './model';
export { TrainingData, featureSpecs } from './training';
export { trainGBM, GBMParams, GBM_DEFAULTS } from './gbm';
export { trainXGBoost, XGBoostParams, XGBObjective } from './xgboost';
export { trainDRF, DRFParams, DRF_DEFAULTS } from './drf';
export { DistributionName } from './distributions';
export { shapContributions, shapRecords, shapFromMatrix, Contribution, ShapResult } from './treeshap';
export { exportOnnx, OnnxExportOptions, onnxInputName } from './onnx/export';
export { onnxFeedData } from './onnx/feeds';
export { runOnnx, OrtOutput } from './onnx/ort-runner';
export { Rng } from './random';

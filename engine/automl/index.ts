/**
 * Public API of engine/automl (see README.md): the one door for code outside this folder. Modules
 * inside import each other's files directly, never this index, so loading it adds no cycle.
 */
export * from './frame';
export * from './binning';
export * from './metrics';
export * from './curves';
export { Tree, TreeParams, TreeLearner, DEFAULT_TREE_PARAMS, leafOfRow, nextNode } from './trees';
export * from './model';
export { TrainingData, featureSpecs, resolveThreads } from './training';
export { onTrainingPulse } from './pulse';
export { detectLeakage, LeakageFinding, LeakageMeasure, LEAKAGE_THRESHOLD } from './leakage';
export { trainGBM, GBMParams, GBM_DEFAULTS } from './gbm';
export { trainXGBoost, XGBoostParams, XGBObjective } from './xgboost';
export { trainDRF, DRFParams, DRF_DEFAULTS } from './drf';
export { DistributionName } from './distributions';
export { shapContributions, shapRecords, shapFromMatrix, Contribution, ShapResult } from './treeshap';
export { exportOnnx, OnnxExportOptions, onnxInputName } from './onnx/export';
export { onnxFeedData } from './onnx/feeds';
export { runOnnx, OrtOutput } from './onnx/ort-runner';
export { Rng, sampleWithoutReplacement } from './random';
// Any model from its JSON (trees, GLM, DeepLearning, stacked ensembles), as served and explained.
export { modelFromJSON, AnyModelJSON, ScoringModel } from './registry';
export { initDeepLearningBackend, loadNativeBackend } from './deeplearning';
// The AutoML driver: config, data preparation, the model plan, candidates, leaderboard order.
export * from './driver';

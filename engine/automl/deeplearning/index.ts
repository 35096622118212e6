/** DeepLearning (MLP) on TensorFlow.js. */
export { trainDeepLearning, initDeepLearningBackend, loadNativeBackend, DeepLearningParams, DL_DEFAULTS } from './train';
export { DeepLearningModel, DeepLearningJSON, Activation } from './model';
export { exportDeepLearningOnnx } from './onnx';
export { prepareDeepLearning, gatherBatch, deepLearningShouldStop, deepLearningModel } from './setup';
export type { DeepLearningSetup, ResolvedDeepLearningParams, BestEpoch } from './setup';

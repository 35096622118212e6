/** DeepLearning (MLP) on TensorFlow.js. */
export { trainDeepLearning, initDeepLearningBackend, DeepLearningParams, DL_DEFAULTS } from './train';
export { DeepLearningModel, DeepLearningJSON, Activation } from './model';
export { exportDeepLearningOnnx } from './onnx';

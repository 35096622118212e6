/** DeepLearning (MLP) on TensorFlow.js. */
export { trainDeepLearning, initDeepLearningBackend, loadNativeBackend, DeepLearningParams, DL_DEFAULTS } from './train';
export { DeepLearningModel, DeepLearningJSON, Activation } from './model';
export { exportDeepLearningOnnx } from './onnx';

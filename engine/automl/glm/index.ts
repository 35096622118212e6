/** Elastic-net GLM (see README.md in engine/automl). */
export { trainGLM, GLMParams, GLM_DEFAULTS } from './train';
export { GLMModel, GLMJSON, CoefficientRow } from './model';
export { exportGLMOnnx } from './onnx';
export { FamilyName } from './family';

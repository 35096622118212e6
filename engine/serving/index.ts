/** Public API of engine/serving: the ONNX Runtime session pool models are served from. */
export { OnnxSessionPool } from './onnx-pool';

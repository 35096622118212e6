/**
 * The GPU training engine: WGSL kernels on WebGPU (Dawn), static graphs recorded once and replayed with one submit a
 * step. Callers bring a GPUDevice (platform/gpu acquires one).
 */
export { GpuRuntime, Program } from './runtime';
export type { Tensor, StepValues, Dim } from './runtime';
export { KernelLibrary, LEAKY_SLOPE } from './kernels';
export type { ActivationKind, LossKind, MatmulEpilogue } from './kernels';
export { GpuMlp } from './mlp';
export type { MlpSpec, MlpParameters, AdamSettings, GpuMlpOptions } from './mlp';
export { trainDeepLearningGpu, gpuDeepLearningUnsupported } from './deeplearning';
export type { GpuTrainOptions } from './deeplearning';
export { fitNeuralGpu, GpuFitUnsupported, GPU_NEURAL_BACKEND } from './neural/fit';
export type { GpuFitHooks } from './neural/fit';

/**
 * engine/synth/neural: CTGAN, TVAE and CopulaGAN on TensorFlow.js (the DeepLearning backend policy). The synth
 * package's index re-exports what callers use; modules here import each other's files directly.
 */
export { fitNeural, NeuralFitError, FIT_THREAD_SCRIPT } from './fit-neural';
export { fitNeuralCore, checkpointEpoch } from './fit-core';
export { sampleNeuralBatches, DEFAULT_BATCH_ROWS } from './sample';
export { serializeNeural, deserializeNeural, isNeuralModel } from './model';
export type { NeuralModel, NeuralParams } from './model';
export { NUMERIC_TOLERANCE_SHARE } from './conditions';
export { CTGAN_DEFAULTS, TVAE_DEFAULTS, NeuralConfigError, resolveCtganConfig, resolveTvaeConfig, resolveNeuralConfig } from './config';
export type { NeuralModelType } from './config';

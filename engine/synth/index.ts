/**
 * engine/synth: synthetic tabular data. Gaussian copula, CTGAN, TVAE and CopulaGAN models fitted on a `Frame`,
 * sampled in batches, and judged by SDMetrics' quality report and a distance-to-closest-record privacy check.
 * The only door callers use.
 */
export * from './types';
export { describeColumns, finishNumeric, columnOf } from './columns';
export { SynthConditionError, SynthConfigError } from './errors';
export { fitSynthesizer, sampleSynthesizerBatches, serializeSynthesizer, deserializeSynthesizer, validateSynthConfig } from './synthesizer';
export { fitGaussianCopula, sampleGaussianCopula, sampleGaussianCopulaBatches, fitMarginal, marginalFromJSON, marginalToJSON, Marginal, MarginalJSON } from './copula';
export { evaluateQuality, privacyCheck, QualityOptions, PrivacyOptions } from './quality';
// CTGAN, TVAE and CopulaGAN (neural/README.md).
export { fitNeural, sampleNeuralBatches, serializeNeural, deserializeNeural, isNeuralModel, NeuralFitError, CTGAN_DEFAULTS, TVAE_DEFAULTS } from './neural';
export type { NeuralModel, NeuralParams, NeuralModelType } from './neural';

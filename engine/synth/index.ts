/**
 * engine/synth: synthetic tabular data. Gaussian copula, CTGAN, TVAE and CopulaGAN models fitted on a `Frame`,
 * sampled in batches, and judged by SDMetrics' quality report and a distance-to-closest-record privacy check.
 * The only door callers use.
 */
export * from './types';
export { describeColumns, finishNumeric, columnOf } from './columns';
export { fitGaussianCopula, sampleGaussianCopula, sampleGaussianCopulaBatches, SynthConditionError, fitMarginal, marginalFromJSON, marginalToJSON, Marginal, MarginalJSON } from './copula';
export { evaluateQuality, privacyCheck, QualityOptions, PrivacyOptions } from './quality';
// TEMPORARY on branch synth-api: the declared facade over every model type (facade.ts) until the neural models and
// the real facade land; the integrator replaces it.
export { fitSynthesizer, sampleSynthesizerBatches, serializeSynthesizer, deserializeSynthesizer, validateSynthConfig } from './facade';

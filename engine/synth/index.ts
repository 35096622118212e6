/**
 * engine/synth: synthetic tabular data. Gaussian copula, CTGAN, TVAE and CopulaGAN models fitted on a `Frame`,
 * sampled in batches, and judged by SDMetrics' quality report and a distance-to-closest-record privacy check.
 * The only door callers use.
 */
export * from './types';
export { describeColumns, finishNumeric, columnOf } from './columns';
export { fitGaussianCopula, sampleGaussianCopula, sampleGaussianCopulaBatches, SynthConditionError, fitMarginal, marginalFromJSON, marginalToJSON, Marginal, MarginalJSON } from './copula';
export { evaluateQuality, privacyCheck, QualityOptions, PrivacyOptions } from './quality';
// Being built (issue 17): fitSynthesizer, sampleSynthesizer, serializeSynthesizer / deserializeSynthesizer (the
// facade over every model type) and the neural models. See the helpers' briefs in the session notes.

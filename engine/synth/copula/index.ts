/**
 * The Gaussian copula synthesizer: per-column marginals and encodings, a latent normal correlation, conditional
 * sampling in batches. Callers outside engine/synth go through engine/synth's index.
 */
export { fitGaussianCopula, COPULA_FIT_MAX_ROWS, COPULA_MAX_DIMS } from './fit';
export { sampleGaussianCopula, sampleGaussianCopulaBatches, DEFAULT_BATCH_ROWS } from './sample';
export { SynthConditionError } from './conditions';
export { fitMarginal, marginalFromJSON, marginalToJSON, Marginal, MarginalJSON } from './marginals';
export { CopulaParams } from './model';

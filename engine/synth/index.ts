/**
 * engine/synth: synthetic tabular data. Gaussian copula, CTGAN, TVAE and CopulaGAN models fitted on a `Frame`,
 * sampled in batches, and judged by SDMetrics' quality report and a distance-to-closest-record privacy check.
 * The only door callers use.
 */
export * from './types';
// Being built (issue 17): fitSynthesizer, sampleSynthesizer, serializeSynthesizer / deserializeSynthesizer,
// evaluateQuality, privacyCheck, SynthConditionError. See the helpers' briefs in the session notes.
// CTGAN, TVAE and CopulaGAN (neural/README.md).
export {
  fitNeural,
  fitNeuralCore,
  sampleNeuralBatches,
  serializeNeural,
  deserializeNeural,
  isNeuralModel,
  checkpointEpoch,
  NeuralFitError,
  NeuralConfigError,
  SynthConditionError,
  CTGAN_DEFAULTS,
  TVAE_DEFAULTS,
  resolveCtganConfig,
  resolveTvaeConfig,
  resolveNeuralConfig,
} from './neural';
export type { NeuralModel, NeuralParams, NeuralModelType } from './neural';

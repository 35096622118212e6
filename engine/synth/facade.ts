/**
 * TEMPORARY (branch synth-api only): the engine API the application layer codes against, declared with its exact
 * signatures while the real engine (Gaussian copula, CTGAN, TVAE, CopulaGAN, quality metrics) is built on other
 * branches. Every function throws, except `validateSynthConfig`, which passes the (already service-validated)
 * config through. The integrator replaces this file with the real implementations at merge.
 */
import type { Frame } from '../automl';
import type { FitHooks, PrivacyCheck, QualityReport, SampleOptions, SynthConfig, SynthesizerModel, SynthModelType } from './types';

const NOT_MERGED = 'engine/synth is not merged on this branch yet';

/** Raised when generation conditions cannot be met (an unknown level, a value outside the column's range...). */
export class SynthConditionError extends Error {
  readonly name = 'SynthConditionError';
}

export async function fitSynthesizer(_type: SynthModelType, _frame: Frame, _config: SynthConfig, _hooks?: FitHooks): Promise<SynthesizerModel> {
  throw new Error(NOT_MERGED);
}

// eslint-disable-next-line require-yield
export async function* sampleSynthesizerBatches(_model: SynthesizerModel, _numRows: number, _opts: SampleOptions): AsyncGenerator<Frame> {
  throw new Error(NOT_MERGED);
}

export function serializeSynthesizer(_model: SynthesizerModel): Uint8Array {
  throw new Error(NOT_MERGED);
}

export function deserializeSynthesizer(_bytes: Uint8Array): SynthesizerModel {
  throw new Error(NOT_MERGED);
}

export function evaluateQuality(_real: Frame, _synthetic: Frame): QualityReport {
  throw new Error(NOT_MERGED);
}

export function privacyCheck(_train: Frame, _holdout: Frame, _synthetic: Frame): PrivacyCheck {
  throw new Error(NOT_MERGED);
}

export function validateSynthConfig(_type: SynthModelType, config: unknown): SynthConfig {
  return config as SynthConfig;
}

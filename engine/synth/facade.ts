/**
 * TEMPORARY (branch synth-api only): the facade over every model type that the application layer codes against,
 * with its exact signatures, while the neural models and the real facade are built on another branch. The Gaussian
 * copula, the quality report and the privacy check are real (from main), so `gaussian_copula` works end to end here;
 * the neural types throw. `validateSynthConfig` passes the (already service-validated) config through. The
 * integrator replaces this file with the real facade at merge.
 */
import type { Frame } from '../automl';
import { fitGaussianCopula, sampleGaussianCopulaBatches } from './copula';
import type { FitHooks, SampleOptions, SynthConfig, SynthesizerModel, SynthModelType } from './types';

const NOT_MERGED = 'the neural models of engine/synth are not merged on this branch yet';
const COPULA_MAGIC = 'SYNTHCOPULA1';

export async function fitSynthesizer(type: SynthModelType, frame: Frame, config: SynthConfig, _hooks?: FitHooks): Promise<SynthesizerModel> {
  if (type === 'gaussian_copula') return fitGaussianCopula(frame, config);
  throw new Error(NOT_MERGED);
}

export async function* sampleSynthesizerBatches(model: SynthesizerModel, numRows: number, opts: SampleOptions): AsyncGenerator<Frame> {
  if (model.type !== 'gaussian_copula') throw new Error(NOT_MERGED);
  yield* sampleGaussianCopulaBatches(model, numRows, opts);
}

export function serializeSynthesizer(model: SynthesizerModel): Uint8Array {
  if (model.type !== 'gaussian_copula') throw new Error(NOT_MERGED);
  return new Uint8Array(Buffer.from(COPULA_MAGIC + JSON.stringify(model)));
}

export function deserializeSynthesizer(bytes: Uint8Array): SynthesizerModel {
  const text = Buffer.from(bytes).toString('utf8');
  if (!text.startsWith(COPULA_MAGIC)) throw new Error(NOT_MERGED);
  return JSON.parse(text.slice(COPULA_MAGIC.length)) as SynthesizerModel;
}

export function validateSynthConfig(_type: SynthModelType, config: unknown): SynthConfig {
  return config as SynthConfig;
}

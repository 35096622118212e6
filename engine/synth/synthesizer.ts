/**
 * One door over every model type: fit, sample in batches, serialize, and check a configuration. The Gaussian copula
 * fits in the caller's thread (seconds, closed-form); the neural models train in a worker thread of their own with
 * progress, cancel and checkpoints (neural/fit-neural.ts).
 */
import type { Frame } from '../automl';
import { fitGaussianCopula, sampleGaussianCopulaBatches } from './copula';
import { SynthConfigError } from './errors';
import { deserializeNeural, fitNeural, NeuralConfigError, resolveNeuralConfig, sampleNeuralBatches, serializeNeural } from './neural';
import type { CopulaConfig, CtganConfig, FitHooks, SampleOptions, SynthConfig, SynthesizerModel, SynthModelType, TvaeConfig } from './types';

/** The first bytes of a serialized copula; neural models carry their own binary container. */
const COPULA_MAGIC = 'SYNTHCOPULA1';

/** Fits a model of `type` on `frame`. Neural fits honour every hook; the copula reports its start and end only. */
export async function fitSynthesizer(type: SynthModelType, frame: Frame, config: SynthConfig, hooks: FitHooks = {}): Promise<SynthesizerModel> {
  if (type !== 'gaussian_copula') return fitNeural(type, frame, config as Partial<CtganConfig> | Partial<TvaeConfig>, hooks);
  if (hooks.signal?.aborted) throw hooks.signal.reason;
  hooks.onProgress?.(0, `fitting marginals and correlations on ${frame.nrows} rows`);
  const model = fitGaussianCopula(frame, config as CopulaConfig);
  hooks.onProgress?.(1, 'fitted');
  return model;
}

/** Generates `numRows` rows in batches of `opts.batchRows` (bounded memory); a seed reproduces the output. */
export async function* sampleSynthesizerBatches(model: SynthesizerModel, numRows: number, opts: SampleOptions = {}): AsyncGenerator<Frame> {
  if (model.type === 'gaussian_copula') yield* sampleGaussianCopulaBatches(model, numRows, opts);
  else yield* sampleNeuralBatches(model, numRows, opts);
}

/** The model's artifact bytes. */
export function serializeSynthesizer(model: SynthesizerModel): Uint8Array {
  if (model.type !== 'gaussian_copula') return serializeNeural(model);
  return new Uint8Array(Buffer.from(COPULA_MAGIC + JSON.stringify(model)));
}

/** A model back from its artifact bytes. */
export function deserializeSynthesizer(bytes: Uint8Array): SynthesizerModel {
  const head = Buffer.from(bytes.subarray(0, COPULA_MAGIC.length)).toString('latin1');
  if (head !== COPULA_MAGIC) return deserializeNeural(bytes);
  return JSON.parse(Buffer.from(bytes.subarray(COPULA_MAGIC.length)).toString('utf8')) as SynthesizerModel;
}

/** A type's configuration with defaults filled in; throws SynthConfigError with a readable message when it cannot train. */
export function validateSynthConfig(type: SynthModelType, config: unknown): SynthConfig {
  const input = (config ?? {}) as Record<string, unknown>;
  if (type === 'gaussian_copula') {
    const seed = input.seed;
    if (seed !== undefined && seed !== null && !Number.isInteger(seed)) throw new SynthConfigError('seed must be an integer');
    return seed === undefined || seed === null ? {} : { seed: seed as number };
  }
  try {
    return resolveNeuralConfig(type, input as Partial<CtganConfig>);
  } catch (err) {
    if (err instanceof NeuralConfigError) throw new SynthConfigError(err.message);
    throw err;
  }
}

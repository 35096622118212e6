/**
 * A fitted neural model: what sampling needs (the transformer, the generator's or decoder's weights, the discrete
 * columns' category counts, CopulaGAN's marginals), in `SynthesizerModel.params`, with the weights as Float32Arrays.
 * `serializeNeural` / `deserializeNeural` turn it into bytes (the binary container of ./container.ts: JSON header,
 * raw float32 weights) for the model's artifact; the params are not meant to be JSON-stringified directly.
 */
import type { CtganConfig, SynthesizerModel, TvaeConfig } from '../types';
import type { NeuralModelType } from './config';
import { pack, unpack } from './container';
import type { TensorData } from './params';
import type { TransformerState } from './transformer';

export const NEURAL_FORMAT_VERSION = 1;
const MODEL_MAGIC = 'SYNN';

export interface NeuralParams {
  type: NeuralModelType;
  config: CtganConfig | TvaeConfig;
  /** The seed the fit used (the config's, or one drawn when it had none). */
  seed: number;
  transformer: TransformerState;
  /** CTGAN / CopulaGAN: the generator; TVAE: the decoder and the output scales. */
  weights: Record<string, TensorData>;
  /** Category counts of each discrete column, conditional-vector order (generation's condition frequencies). */
  discreteCounts: number[][];
  /** CopulaGAN: per source column, its marginal's JSON (null for columns not passed through one). */
  marginals: Array<unknown | null> | null;
  epochs: number;
  /** TensorFlow.js backend the model was trained on. */
  backend: string;
}

export interface NeuralModel extends SynthesizerModel {
  type: NeuralModelType;
  params: NeuralParams;
}

/** True for a model of a neural type. */
export function isNeuralModel(model: SynthesizerModel): model is NeuralModel {
  return model.type === 'ctgan' || model.type === 'tvae' || model.type === 'copulagan';
}

/** The model as bytes (JSON header + float32 weights). */
export function serializeNeural(model: SynthesizerModel): Uint8Array {
  if (!isNeuralModel(model)) throw new Error(`serializeNeural: ${model.type} is not a neural model`);
  const { weights, ...rest } = model.params;
  return pack(MODEL_MAGIC, { type: model.type, formatVersion: model.formatVersion, columns: model.columns, params: rest }, weights);
}

/** A model from `serializeNeural`'s bytes. */
export function deserializeNeural(bytes: Uint8Array): NeuralModel {
  const { header, tensors } = unpack<{ type: NeuralModelType; formatVersion: number; columns: SynthesizerModel['columns']; params: Omit<NeuralParams, 'weights'> }>(MODEL_MAGIC, bytes);
  if (header.formatVersion !== NEURAL_FORMAT_VERSION) throw new Error(`neural model format ${header.formatVersion} is not supported (expected ${NEURAL_FORMAT_VERSION})`);
  return { type: header.type, formatVersion: header.formatVersion, columns: header.columns, params: { ...header.params, weights: tensors } };
}

/**
 * The neural fit itself, synchronous, on whatever TensorFlow.js backend is active: describe the columns, (CopulaGAN)
 * map numeric columns to normal scores, fit the transformer, encode, train epoch by epoch with progress and
 * checkpoints, and return the model. `fitNeural` runs it in a worker thread; tests may call it directly.
 *
 * Checkpoints hold the transformer, CopulaGAN's marginals, every weight and both Adam moments, the epoch reached
 * and the random stream's state, so a resumed fit continues at the next epoch and, on the same backend, ends with
 * the weights an uninterrupted fit would have.
 */
import * as tf from '@tensorflow/tfjs';
import type { Frame } from '../../automl';
import { describeColumns } from '../columns';
import type { CtganConfig, TvaeConfig } from '../types';
import { NeuralModelType, resolveNeuralConfig } from './config';
import { pack, unpack } from './container';
import { fitCopulaMarginals, loadMarginals, toNormalScores } from './copulagan';
import { CtganTrainer } from './ctgan';
import type { Marginal } from './marginal-source';
import { NEURAL_FORMAT_VERSION, NeuralModel } from './model';
import type { TensorData } from './params';
import { NeuralRng } from './rng';
import { encodeFrame, fitTransformer, TransformerState } from './transformer';
import { TvaeTrainer } from './tvae';

const CHECKPOINT_MAGIC = 'SYNC';

export interface FitCoreHooks {
  /** After every epoch: 1-based epoch, the total, and the line with its losses. */
  onEpoch?: (epoch: number, epochs: number, message: string) => void;
  /** Called before every batch; throws to stop the fit (cooperative cancel). */
  checkCancel?: () => void;
  resumeFrom?: Uint8Array | null;
  /** Receives a checkpoint after an epoch, at most every `checkpointEveryMs` (default 10 s). */
  onCheckpoint?: (checkpoint: Uint8Array, epoch: number) => void;
  checkpointEveryMs?: number;
  /** A note for the user (a checkpoint that could not be used). */
  onNote?: (message: string) => void;
}

interface CheckpointHeader {
  type: NeuralModelType;
  fingerprint: string;
  seed: number;
  epoch: number;
  rngState: number;
  steps: { g: number; d: number } | number;
  transformer: TransformerState;
  marginals: Array<unknown | null> | null;
}

/** Fits a CTGAN, TVAE or CopulaGAN model on a frame (synchronously). */
export function fitNeuralCore(type: NeuralModelType, frame: Frame, input: Partial<CtganConfig> | Partial<TvaeConfig>, hooks: FitCoreHooks = {}): NeuralModel {
  const config = resolveNeuralConfig(type, input);
  if (frame.nrows < 1) throw new Error('cannot fit a synthesizer on a table without rows');
  if (frame.columns.length < 1) throw new Error('cannot fit a synthesizer on a table without columns');
  const columns = describeColumns(frame);
  const fingerprint = JSON.stringify({ type, config, names: frame.names, kinds: frame.columns.map((c) => c.kind), nrows: frame.nrows });
  const resume = readCheckpoint(hooks.resumeFrom, type, fingerprint, hooks.onNote);
  const seed = resume?.header.seed ?? config.seed ?? Math.floor(Math.random() * 2147483647);

  let marginals: Array<Marginal | null> | null = null;
  if (type === 'copulagan') marginals = resume?.header.marginals ? loadMarginals(resume.header.marginals) : fitCopulaMarginals(frame);
  const table = marginals ? toNormalScores(frame, marginals) : frame;
  const transformer = resume?.header.transformer ?? fitTransformer(table, seed);
  const encoded = encodeFrame(transformer, table, new NeuralRng(seed ^ 0x5bd1e995));
  const rng = new NeuralRng(seed);
  const trainer = type === 'tvae' ? new TvaeTrainer(transformer.layout, encoded, frame.nrows, config, rng) : new CtganTrainer(transformer.layout, encoded, frame.nrows, config as CtganConfig, rng);
  const marginalsJSON = marginals ? marginals.map((m) => (m ? m.toJSON() : null)) : null;
  try {
    let start = 0;
    if (resume) {
      if (trainer instanceof CtganTrainer) trainer.writeState(resume.tensors, resume.header.steps as { g: number; d: number });
      else trainer.writeState(resume.tensors, resume.header.steps as number);
      rng.state = resume.header.rngState;
      start = resume.header.epoch;
    }
    const every = hooks.checkpointEveryMs ?? 10_000;
    let lastCheckpoint = Date.now();
    const check = hooks.checkCancel ?? (() => {});
    for (let epoch = start + 1; epoch <= config.epochs; epoch++) {
      let message: string;
      if (trainer instanceof CtganTrainer) {
        const l = trainer.epoch(rng, check);
        message = `epoch ${epoch}/${config.epochs}: loss_g ${fmt(l.loss_g)}, loss_d ${fmt(l.loss_d)}, penalty ${fmt(l.penalty)}`;
      } else {
        const l = trainer.epoch(rng, check);
        message = `epoch ${epoch}/${config.epochs}: loss ${fmt(l.loss)}`;
      }
      hooks.onEpoch?.(epoch, config.epochs, message);
      if (hooks.onCheckpoint && epoch < config.epochs && Date.now() - lastCheckpoint >= every) {
        const state = trainer.readState();
        const header: CheckpointHeader = { type, fingerprint, seed, epoch, rngState: rng.state, steps: state.steps, transformer, marginals: marginalsJSON };
        hooks.onCheckpoint(pack(CHECKPOINT_MAGIC, header, state.tensors), epoch);
        lastCheckpoint = Date.now();
      }
    }
    const weights = trainer instanceof CtganTrainer ? trainer.generatorWeights() : trainer.decoderWeights();
    const discreteCounts = trainer instanceof CtganTrainer ? trainer.sampler.counts() : [];
    return {
      type,
      formatVersion: NEURAL_FORMAT_VERSION,
      columns,
      params: { type, config, seed, transformer, weights, discreteCounts, marginals: marginalsJSON, epochs: config.epochs, backend: tf.getBackend() },
    };
  } finally {
    trainer.dispose();
  }
}

function fmt(v: number): string {
  return Number.isFinite(v) ? v.toFixed(4) : String(v);
}

function readCheckpoint(
  bytes: Uint8Array | null | undefined,
  type: NeuralModelType,
  fingerprint: string,
  note?: (m: string) => void,
): { header: CheckpointHeader; tensors: Record<string, TensorData> } | null {
  if (!bytes || bytes.length === 0) return null;
  try {
    const c = unpack<CheckpointHeader>(CHECKPOINT_MAGIC, bytes);
    if (c.header.type !== type || c.header.fingerprint !== fingerprint) throw new Error('it belongs to another model, configuration or table');
    return c;
  } catch (err) {
    note?.(`checkpoint not usable (${(err as Error).message}); training from the start`);
    return null;
  }
}

/** The epoch a checkpoint reached (for callers that report it), or null for bytes that are not one. */
export function checkpointEpoch(bytes: Uint8Array): number | null {
  try {
    return unpack<CheckpointHeader>(CHECKPOINT_MAGIC, bytes).header.epoch;
  } catch {
    return null;
  }
}

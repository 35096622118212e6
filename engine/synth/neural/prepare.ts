/**
 * What every neural fit does around its training loop, whichever engine trains (fit-core.ts on TensorFlow.js,
 * engine/gpu/neural/fit.ts on WebGPU): check the options, describe the columns, read a checkpoint, (CopulaGAN) map
 * numeric columns to normal scores, fit the transformer and encode the table; per epoch, the progress line and the
 * checkpoint cadence; at the end, the model. Both engines share it so their checkpoints and models are the same
 * format: a checkpoint taken on one resumes on the other.
 *
 * Checkpoints hold the transformer, CopulaGAN's marginals, every weight and both Adam moments, the epoch reached and
 * the random stream's state.
 */
import type { Frame } from '../../automl';
import { describeColumns } from '../columns';
import type { CtganConfig, SynthColumnMeta, TvaeConfig } from '../types';
import { NeuralModelType, resolveNeuralConfig } from './config';
import { pack, unpack } from './container';
import { fitCopulaMarginals, loadMarginals, toNormalScores } from './copulagan';
import type { CtganLosses } from './ctgan';
import type { Marginal } from './marginal-source';
import { NEURAL_FORMAT_VERSION, NeuralModel } from './model';
import type { TensorData } from './params';
import { NeuralRng } from './rng';
import { encodeFrame, fitTransformer, TransformerState } from './transformer';

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

/** Adam step counters: CTGAN one per network, TVAE one. */
export type TrainerSteps = { g: number; d: number } | number;

interface CheckpointHeader {
  type: NeuralModelType;
  fingerprint: string;
  seed: number;
  epoch: number;
  rngState: number;
  steps: TrainerSteps;
  transformer: TransformerState;
  marginals: Array<unknown | null> | null;
}

/** A fit made ready to train: the encoded table and what the checkpoints and the model carry. */
export interface PreparedFit {
  type: NeuralModelType;
  config: CtganConfig | TvaeConfig;
  columns: SynthColumnMeta[];
  nrows: number;
  /** Ties a checkpoint to its model type, options and table (not to the engine). */
  fingerprint: string;
  seed: number;
  transformer: TransformerState;
  /** The transformed table [nrows * layout.dim]. */
  encoded: Float32Array;
  marginalsJSON: Array<unknown | null> | null;
  /** The checkpoint to continue from (null: train from the start). */
  resume: { epoch: number; rngState: number; steps: TrainerSteps; tensors: Record<string, TensorData> } | null;
}

/** Checks the options and the table, reads the checkpoint (a note when it is unusable), transforms and encodes. */
export function prepareNeuralFit(type: NeuralModelType, frame: Frame, input: Partial<CtganConfig> | Partial<TvaeConfig>, hooks: Pick<FitCoreHooks, 'resumeFrom' | 'onNote'> = {}): PreparedFit {
  const config = resolveNeuralConfig(type, input);
  if (frame.nrows < 1) throw new Error('cannot fit a synthesizer on a table without rows');
  if (frame.columns.length < 1) throw new Error('cannot fit a synthesizer on a table without columns');
  const columns = describeColumns(frame);
  const fingerprint = JSON.stringify({ type, config, names: frame.names, kinds: frame.columns.map((c) => c.kind), nrows: frame.nrows });
  const checkpoint = readCheckpoint(hooks.resumeFrom, type, fingerprint, hooks.onNote);
  const seed = checkpoint?.header.seed ?? config.seed ?? Math.floor(Math.random() * 2147483647);

  let marginals: Array<Marginal | null> | null = null;
  if (type === 'copulagan') marginals = checkpoint?.header.marginals ? loadMarginals(checkpoint.header.marginals) : fitCopulaMarginals(frame);
  const table = marginals ? toNormalScores(frame, marginals) : frame;
  const transformer = checkpoint?.header.transformer ?? fitTransformer(table, seed);
  const encoded = encodeFrame(transformer, table, new NeuralRng(seed ^ 0x5bd1e995));
  const resume = checkpoint ? { epoch: checkpoint.header.epoch, rngState: checkpoint.header.rngState, steps: checkpoint.header.steps, tensors: checkpoint.tensors } : null;
  const marginalsJSON = marginals ? marginals.map((m) => (m ? m.toJSON() : null)) : null;
  return { type, config, columns, nrows: frame.nrows, fingerprint, seed, transformer, encoded, marginalsJSON, resume };
}

/** The progress line of an epoch: `epoch 12/300: loss_g -0.8120, loss_d 0.1310, penalty 0.0420` or `... loss 3.2100`. */
export function epochMessage(epoch: number, epochs: number, losses: CtganLosses | { loss: number }): string {
  if ('loss_g' in losses) return `epoch ${epoch}/${epochs}: loss_g ${fmt(losses.loss_g)}, loss_d ${fmt(losses.loss_d)}, penalty ${fmt(losses.penalty)}`;
  return `epoch ${epoch}/${epochs}: loss ${fmt(losses.loss)}`;
}

function fmt(v: number): string {
  return Number.isFinite(v) ? v.toFixed(4) : String(v);
}

/**
 * When to checkpoint: after an epoch that is not the last, once `everyMs` have passed since the fit started or the
 * last checkpoint.
 */
export class CheckpointClock {
  private last = Date.now();
  constructor(
    private readonly epochs: number,
    private readonly everyMs = 10_000,
  ) {}

  due(epoch: number): boolean {
    return epoch < this.epochs && Date.now() - this.last >= this.everyMs;
  }

  taken(): void {
    this.last = Date.now();
  }
}

/** A checkpoint of the fit after `epoch`, from the trainer's state and the random stream's. */
export function checkpointBytes(fit: PreparedFit, epoch: number, rngState: number, state: { tensors: Record<string, TensorData>; steps: TrainerSteps }): Uint8Array {
  const header: CheckpointHeader = { type: fit.type, fingerprint: fit.fingerprint, seed: fit.seed, epoch, rngState, steps: state.steps, transformer: fit.transformer, marginals: fit.marginalsJSON };
  return pack(CHECKPOINT_MAGIC, header, state.tensors);
}

/** The fitted model: the generator's (CTGAN, CopulaGAN) or decoder's (TVAE) weights, and where it was trained. */
export function assembleNeuralModel(fit: PreparedFit, weights: Record<string, TensorData>, discreteCounts: number[][], backend: string): NeuralModel {
  const { type, config, seed, transformer, marginalsJSON } = fit;
  return {
    type,
    formatVersion: NEURAL_FORMAT_VERSION,
    columns: fit.columns,
    params: { type, config, seed, transformer, weights, discreteCounts, marginals: marginalsJSON, epochs: config.epochs, backend },
  };
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

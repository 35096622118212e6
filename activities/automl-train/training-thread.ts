/**
 * Worker-thread entry for CPU-bound training: keeps the activity's event loop free (so
 * heartbeats flow and cancellation is prompt) and caches each experiment's prepared data, so
 * the data is read and binned once per thread, not once per model.
 */
import { describeError, nativeSection, threadContext } from '../../platform/threads';
import {
  AutoMLConfig,
  CandidateResult,
  detectLeakage,
  Frame,
  LeakageFinding,
  EnsembleResult,
  ModelSpec,
  onTrainingPulse,
  planModels,
  prepareExperiment,
  PreparedExperiment,
  readParquetFrameWithin,
  trainCandidate,
  trainStackedEnsembles,
} from '../../engine/automl';
import { initDeepLearningBackend } from '../../engine/automl';
import { selectRows } from '../../engine/automl';
import type { RequestedKind } from '../../engine/automl';
import { modelFromJSON, ScoringModel } from '../../engine/automl';
import { trainCandidateOnGpu } from './gpu-candidate';
import type { TRAINING_THREAD } from './training-pool';

export interface PrepareRequest {
  type: 'prepare';
  experimentId: string;
  parquetPath: string;
  /** Most cells (rows × columns) to read (`MAX_TRAINING_CELLS`): a larger file is trained on a seeded sample of rows. */
  maxCells: number;
  target: string;
  requestedKind: RequestedKind;
  config: AutoMLConfig;
  /** Columns the experiment leaves out (`config.ignored_columns`): dropped as the data is read, so no model sees them. */
  ignoredColumns?: string[];
}

export interface TrainRequest extends Omit<PrepareRequest, 'type'> {
  type: 'train';
  spec: ModelSpec;
  deadlineMs?: number;
  /** On a gpu worker: train on a GPU device (gpu-candidate.ts), or say in the model's events why it could not. */
  gpu?: boolean;
}

/** The base models an ensemble stacks: what trainStackedEnsembles reads of each candidate. */
export type EnsembleBase = Pick<CandidateResult, 'spec' | 'model' | 'metrics' | 'holdout' | 'predictTimePerRowMs'>;

export interface EnsembleRequest extends Omit<PrepareRequest, 'type'> {
  type: 'ensemble';
  bases: EnsembleBase[];
  deadlineMs?: number;
}

export type ThreadRequest = (PrepareRequest | TrainRequest | EnsembleRequest) & { id: number };

/** What preparing an experiment's data answers: the problem, the data's size, the engine's log and the model plan. */
export interface PreparedData {
  kind: string;
  rows: number;
  features: string[];
  log: string[];
  plan: ModelSpec[];
  /** Features that alone predict the target almost perfectly (engine/automl/leakage.ts). */
  leakage: LeakageFinding[];
}

/** A model's mean |SHAP contribution| per feature, largest first; null for a model without contributions. */
export type ShapSummary = { feature: string; mean_abs_contribution: number }[] | null;

/** A trained model as the activity stores it: the candidate (or stacked ensemble) plus its ONNX graph and SHAP summary. */
export type TrainedModel = (CandidateResult | EnsembleResult) & { onnx: Uint8Array; shapSummary: ShapSummary };

/** What each request type answers. */
export interface ThreadResults {
  prepare: PreparedData;
  train: TrainedModel;
  ensemble: TrainedModel[];
}

/** What the thread sends back: progress of a request, then its result or its error. */
export type ThreadReply =
  | { type: 'progress'; id: number; fraction: number; message: string }
  | { type: 'result'; id: number; result: ThreadResults[keyof ThreadResults] }
  | { type: 'error'; id: number; name: string; message: string };

/** How often at most the training loop's pulse repeats the last progress (the activity heartbeats on each). */
const PULSE_MS = 2000;

// The pool's thread host: it stops this thread (a cancel) only outside the DuckDB read.
const thread = threadContext<typeof TRAINING_THREAD>();

const dlBackend = initDeepLearningBackend();
/** An experiment's prepared data, with the leakage found in it when a `prepare` request read it. */
interface CachedExperiment {
  pe: PreparedExperiment;
  leakage?: LeakageFinding[];
}
const cache = new Map<string, CachedExperiment>();
const MAX_CACHED = 2;
/** Rows explained for a model's SHAP summary: enough for a stable ranking, cheap to compute. */
const SHAP_SUMMARY_ROWS = 200;

/** Mean |contribution| per feature over evenly spaced training rows, largest first; null without contributions. */
function shapSummary(model: ScoringModel, pe: PreparedExperiment): ShapSummary {
  const n = pe.data.features.nrows;
  const step = Math.max(1, Math.floor(n / SHAP_SUMMARY_ROWS));
  const rows = Uint32Array.from({ length: Math.min(n, SHAP_SUMMARY_ROWS) }, (_, i) => i * step);
  const sample = selectRows(pe.data.features, rows);
  const sums = new Map<string, number>();
  const outputs = model.kind === 'multiclass' ? model.classes.length : 1;
  for (let k = 0; k < outputs; k++) {
    const records = model.contributions(sample, k);
    if (!records) return null;
    for (const row of records) for (const c of row) if (c.feature !== 'BiasTerm') sums.set(c.feature, (sums.get(c.feature) ?? 0) + Math.abs(c.value));
  }
  return [...sums].map(([feature, s]) => ({ feature, mean_abs_contribution: s / (rows.length * outputs) })).sort((a, b) => b.mean_abs_contribution - a.mean_abs_contribution);
}

/** The frame without the experiment's ignored columns. */
function withoutIgnored(frame: Frame, ignored: string[] | undefined): Frame {
  if (!ignored?.length) return frame;
  const drop = new Set(ignored);
  const keep = frame.names.map((_, j) => j).filter((j) => !drop.has(frame.names[j]));
  return { names: keep.map((j) => frame.names[j]), columns: keep.map((j) => frame.columns[j]), nrows: frame.nrows };
}

/**
 * The experiment's prepared data, read once per thread. A `prepare` request (data preparation, once per run) also
 * looks for leakage on the raw columns it read; later requests need only the prepared data.
 */
async function prepared(req: Omit<PrepareRequest, 'type'>, withLeakage = false): Promise<CachedExperiment> {
  const hit = cache.get(req.experimentId);
  if (hit && (hit.leakage || !withLeakage)) return hit;
  const { frame: read, fileRows } = await nativeSection(() => readParquetFrameWithin(req.parquetPath, req.maxCells));
  const frame = withoutIgnored(read, req.ignoredColumns);
  const pe = prepareExperiment(frame, req.target, req.requestedKind, req.config);
  if (req.ignoredColumns?.length) pe.log.unshift(`ignored columns (config.ignored_columns): ${req.ignoredColumns.join(', ')}`);
  if (frame.nrows < fileRows) {
    pe.log.unshift(
      `training on a seeded sample of ${frame.nrows} of the dataset's ${fileRows} rows: ${fileRows} rows × ${frame.names.length} columns are more than MAX_TRAINING_CELLS (${req.maxCells}) cells`,
    );
  }
  const entry: CachedExperiment = { pe, leakage: withLeakage ? detectLeakage(frame, req.target, pe.data.kind, { seed: req.config.seed }) : undefined };
  cache.set(req.experimentId, entry);
  while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
  return entry;
}

/** A trained result as the activity stores it: the candidate plus its ONNX graph and SHAP summary. */
function withArtifacts(result: CandidateResult | EnsembleResult, pe: PreparedExperiment): TrainedModel {
  const model = modelFromJSON(result.model);
  return { ...result, onnx: model.toONNX(), shapSummary: shapSummary(model, pe) };
}

async function handle(req: ThreadRequest): Promise<ThreadResults[keyof ThreadResults]> {
  let last = { fraction: 0, message: req.type === 'prepare' ? 'preparing' : 'starting' };
  let sent = Date.now();
  const progress = (fraction: number, message: string) => {
    last = { fraction, message };
    sent = Date.now();
    thread.post({ id: req.id, type: 'progress', ...last });
  };
  // From inside the trainers' loops (a tree, an epoch, a sweep): the last progress again, so the activity heartbeats
  // while a fold trains; a thread stuck outside any loop stops pulsing and its attempt times out.
  onTrainingPulse(() => {
    if (Date.now() - sent >= PULSE_MS) progress(last.fraction, last.message);
  });
  try {
    await dlBackend;
    progress(0, last.message);
    const { pe, leakage } = await prepared(req, req.type === 'prepare');
    if (req.type === 'prepare') {
      return { kind: pe.data.kind, rows: pe.data.target.y.length, features: pe.data.features.names, log: pe.log, plan: planModels(pe.config, pe.data.kind), leakage: leakage ?? [] };
    }
    if (req.type === 'ensemble') {
      return trainStackedEnsembles(pe, req.bases as CandidateResult[], { deadlineMs: req.deadlineMs, onProgress: progress }).map((r) => withArtifacts(r, pe));
    }
    const candidateOptions = { deadlineMs: req.deadlineMs, onProgress: progress };
    return withArtifacts(req.gpu ? await trainCandidateOnGpu(pe, req.spec, candidateOptions) : trainCandidate(pe, req.spec, candidateOptions), pe);
  } finally {
    onTrainingPulse(null);
  }
}

thread.onMessage((req) => {
  handle(req).then(
    (result) => thread.post({ id: req.id, type: 'result', result }),
    (err: unknown) => thread.post({ id: req.id, type: 'error', ...describeError(err) }),
  );
});

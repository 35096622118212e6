/**
 * Worker-thread entry for CPU-bound training: keeps the activity's event loop free (so
 * heartbeats flow and cancellation is prompt) and caches each experiment's prepared data, so
 * the data is read and binned once per thread, not once per model.
 */
import { describeError, nativeSection, threadContext } from '../../platform/threads';
import {
  AutoMLConfig,
  CandidateResult,
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
}

export interface TrainRequest extends Omit<PrepareRequest, 'type'> {
  type: 'train';
  spec: ModelSpec;
  deadlineMs?: number;
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
const cache = new Map<string, PreparedExperiment>();
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

async function prepared(req: Omit<PrepareRequest, 'type'>): Promise<PreparedExperiment> {
  const hit = cache.get(req.experimentId);
  if (hit) return hit;
  const { frame, fileRows } = await nativeSection(() => readParquetFrameWithin(req.parquetPath, req.maxCells));
  const pe = prepareExperiment(frame, req.target, req.requestedKind, req.config);
  if (frame.nrows < fileRows) {
    pe.log.unshift(
      `training on a seeded sample of ${frame.nrows} of the dataset's ${fileRows} rows: ${fileRows} rows × ${frame.names.length} columns are more than MAX_TRAINING_CELLS (${req.maxCells}) cells`,
    );
  }
  cache.set(req.experimentId, pe);
  while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
  return pe;
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
    const pe = await prepared(req);
    if (req.type === 'prepare') {
      return { kind: pe.data.kind, rows: pe.data.target.y.length, features: pe.data.features.names, log: pe.log, plan: planModels(pe.config, pe.data.kind) };
    }
    if (req.type === 'ensemble') {
      return trainStackedEnsembles(pe, req.bases as CandidateResult[], { deadlineMs: req.deadlineMs, onProgress: progress }).map((r) => withArtifacts(r, pe));
    }
    return withArtifacts(trainCandidate(pe, req.spec, { deadlineMs: req.deadlineMs, onProgress: progress }), pe);
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

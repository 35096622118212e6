/**
 * Worker-thread entry for CPU-bound training: keeps the activity's event loop free (so
 * heartbeats flow and cancellation is prompt) and caches each experiment's prepared data, so
 * the data is read and binned once per thread, not once per model.
 */
import { parentPort } from 'node:worker_threads';
import { AutoMLConfig, ModelSpec, planModels, prepareExperiment, PreparedExperiment, readParquetFrame, trainCandidate } from '../engine/automl/driver';
import type { RequestedKind } from '../engine/automl/frame';
import { TreeEnsembleModel } from '../engine/automl/model';
import { exportOnnx } from '../engine/automl/onnx/export';
import { selectRows } from '../engine/automl/frame';
import { shapRecords } from '../engine/automl/treeshap';

export interface PrepareRequest {
  type: 'prepare';
  experimentId: string;
  parquetPath: string;
  target: string;
  requestedKind: RequestedKind;
  config: AutoMLConfig;
}

export interface TrainRequest extends Omit<PrepareRequest, 'type'> {
  type: 'train';
  spec: ModelSpec;
  deadlineMs?: number;
}

export type ThreadRequest = (PrepareRequest | TrainRequest) & { id: number };

const cache = new Map<string, PreparedExperiment>();
/** Rows explained for a model's SHAP summary: enough for a stable ranking, cheap to compute. */
const SHAP_SUMMARY_ROWS = 200;

/** Mean |contribution| per feature over evenly spaced training rows, largest first. */
function shapSummary(model: TreeEnsembleModel, pe: PreparedExperiment): { feature: string; mean_abs_contribution: number }[] {
  const n = pe.data.features.nrows;
  const step = Math.max(1, Math.floor(n / SHAP_SUMMARY_ROWS));
  const rows = Uint32Array.from({ length: Math.min(n, SHAP_SUMMARY_ROWS) }, (_, i) => i * step);
  const sums = new Map<string, number>();
  const outputs = model.kind === 'multiclass' ? model.classes.length : 1;
  for (let k = 0; k < outputs; k++) {
    for (const row of shapRecords(model, selectRows(pe.data.features, rows), k)) {
      for (const c of row) if (c.feature !== 'BiasTerm') sums.set(c.feature, (sums.get(c.feature) ?? 0) + Math.abs(c.value));
    }
  }
  return [...sums]
    .map(([feature, s]) => ({ feature, mean_abs_contribution: s / (rows.length * outputs) }))
    .sort((a, b) => b.mean_abs_contribution - a.mean_abs_contribution);
}
const MAX_CACHED = 2;

async function prepared(req: Omit<PrepareRequest, 'type'>): Promise<PreparedExperiment> {
  const hit = cache.get(req.experimentId);
  if (hit) return hit;
  const frame = await readParquetFrame(req.parquetPath);
  const pe = prepareExperiment(frame, req.target, req.requestedKind, req.config);
  cache.set(req.experimentId, pe);
  while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
  return pe;
}

async function handle(req: ThreadRequest): Promise<unknown> {
  const pe = await prepared(req);
  if (req.type === 'prepare') {
    return { kind: pe.data.kind, rows: pe.data.target.y.length, features: pe.data.features.names, log: pe.log, plan: planModels(pe.config, pe.data.kind) };
  }
  const result = trainCandidate(pe, req.spec, {
    deadlineMs: req.deadlineMs,
    onProgress: (fraction, message) => parentPort!.postMessage({ id: req.id, type: 'progress', fraction, message }),
  });
  const model = TreeEnsembleModel.fromJSON(result.model);
  const onnx = exportOnnx(model);
  return { ...result, onnx, shapSummary: shapSummary(model, pe) };
}

parentPort!.on('message', (req: ThreadRequest) => {
  handle(req).then(
    (result) => parentPort!.postMessage({ id: req.id, type: 'result', result }),
    (err: Error) => parentPort!.postMessage({ id: req.id, type: 'error', name: err.name, message: err.message }),
  );
});

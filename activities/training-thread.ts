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
  const onnx = exportOnnx(TreeEnsembleModel.fromJSON(result.model));
  return { ...result, onnx };
}

parentPort!.on('message', (req: ThreadRequest) => {
  handle(req).then(
    (result) => parentPort!.postMessage({ id: req.id, type: 'result', result }),
    (err: Error) => parentPort!.postMessage({ id: req.id, type: 'error', name: err.name, message: err.message }),
  );
});

import { BinnedData, binFrame } from '../binning';
import { Frame, PreparedData, prepareFeatures, RequestedKind } from '../frame';
import { Rng } from '../random';
import type { AutoMLConfig } from './config';

/** Bad data or a target that cannot be learned: the experiment fails, nothing is retried. */
export class ExperimentDataError extends Error {
  readonly name = 'DataError';
}

/**
 * Everything the candidates of one experiment share, built once: prepared features, the
 * encoded target, the bins, and the fold of every row (or a validation split).
 */
export interface PreparedExperiment {
  data: PreparedData;
  binned: BinnedData;
  /** Fold index per row when nfolds >= 2, else null. */
  folds: Int32Array | null;
  nfolds: number;
  /** With nfolds 0: rows trained on and rows scored for the leaderboard. */
  trainRows: Uint32Array;
  validRows: Uint32Array | null;
  config: AutoMLConfig;
  log: string[];
}

/**
 * Prepares a frame for AutoML. Folds are stratified by class for classification (so every
 * fold sees every class) and random for regression; both are fixed by the seed.
 */
export function prepareExperiment(frame: Frame, target: string, requested: RequestedKind, config: AutoMLConfig): PreparedExperiment {
  if (!frame.names.includes(target)) throw new ExperimentDataError('target_column not found in dataset');
  let data: PreparedData;
  try {
    data = prepareFeatures(frame, { target, kind: requested });
  } catch (err) {
    throw new ExperimentDataError(`Cannot train on target ${target}: ${(err as Error).message}`);
  }
  const n = data.target.y.length;
  if (n < 10) throw new ExperimentDataError(`Too few rows with a target value to train on (${n})`);
  if (data.features.columns.length === 0) throw new ExperimentDataError('No usable feature columns remain after dropping constant and identifier columns');
  const binned = binFrame(data.features);
  const rng = new Rng(config.seed);
  const log = [...data.log, `rows: ${n}, features: ${data.features.columns.length}`];
  if (config.nfolds >= 2) {
    const k = Math.min(config.nfolds, n);
    const folds = assignFolds(data.target.y, data.kind !== 'regression', k, rng);
    log.push(`${k}-fold cross-validation`);
    return { data, binned, folds, nfolds: k, trainRows: allRows(n), validRows: null, config, log };
  }
  const order = shuffled(n, rng);
  const cut = Math.max(1, Math.floor(n * 0.8));
  log.push(`no cross-validation: 80/20 validation split (${cut}/${n - cut} rows)`);
  return {
    data,
    binned,
    folds: null,
    nfolds: 0,
    trainRows: Uint32Array.from(order.subarray(0, cut)).sort(),
    validRows: Uint32Array.from(order.subarray(cut)).sort(),
    config,
    log,
  };
}

function allRows(n: number): Uint32Array {
  return Uint32Array.from({ length: n }, (_, i) => i);
}

function shuffled(n: number, rng: Rng): Uint32Array {
  const a = allRows(n);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
  return a;
}

function assignFolds(y: Float64Array, stratify: boolean, k: number, rng: Rng): Int32Array {
  const n = y.length;
  const folds = new Int32Array(n);
  const order = shuffled(n, rng);
  if (!stratify) {
    order.forEach((row, i) => (folds[row] = i % k));
    return folds;
  }
  // Deal each class's rows round-robin, continuing where the previous class stopped.
  const byClass = new Map<number, number[]>();
  for (const row of order) {
    const c = y[row];
    if (!byClass.has(c)) byClass.set(c, []);
    byClass.get(c)!.push(row);
  }
  let next = 0;
  for (const c of [...byClass.keys()].sort((a, b) => a - b)) {
    for (const row of byClass.get(c)!) folds[row] = next++ % k;
  }
  return folds;
}

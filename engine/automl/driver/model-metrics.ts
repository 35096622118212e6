import { binaryCurves, BinaryCurves } from '../curves';
import { binaryMetrics, multiclassMetrics, regressionMetrics, RocCurve } from '../metrics';
import type { ProblemKind } from '../frame';
import type { AutoMLConfig } from './config';

/** Metrics as stored on a model and shown by the API (lower-case keys, spec names). */
export interface ModelMetrics {
  [metric: string]: unknown;
  threshold?: number;
  metric_context: { operating_threshold_metric: string | null; operating_threshold: number | null; split: string };
  confusion_matrix?: { labels: string[]; matrix: number[][] };
}

export interface ScoredMetrics {
  metrics: ModelMetrics;
  roc: RocCurve | null;
  /** Binary only: PR curve and threshold table on the same held-out rows as the ROC curve. */
  curves: BinaryCurves | null;
}

/**
 * Metrics of scored rows. For binary models the operating threshold is the max-F1 threshold
 * and every threshold-dependent figure (accuracy, MCC, F1, confusion matrix) uses it.
 */
export function scoreMetrics(kind: ProblemKind, y: Float64Array, scores: Float64Array, classes: string[], split: string, config?: Pick<AutoMLConfig, 'distribution'>): ScoredMetrics {
  if (kind === 'binary') {
    const p1 = new Float64Array(y.length);
    for (let i = 0; i < y.length; i++) p1[i] = scores[i * 2 + 1];
    const m = binaryMetrics(y, p1);
    return {
      metrics: {
        auc: m.auc,
        aucpr: m.aucpr,
        logloss: m.logloss,
        deviance: m.logloss,
        accuracy: m.accuracy,
        mcc: m.mcc,
        mean_per_class_error: m.mean_per_class_error,
        f1: m.f1,
        threshold: m.max_f1_threshold,
        metric_context: { operating_threshold_metric: 'f1', operating_threshold: m.max_f1_threshold, split },
        confusion_matrix: { labels: classes, matrix: m.confusion_matrix },
      },
      roc: m.roc,
      curves: binaryCurves(y, p1),
    };
  }
  if (kind === 'multiclass') {
    const m = multiclassMetrics(y, scores, classes.length);
    return {
      metrics: {
        logloss: m.logloss,
        deviance: m.logloss,
        accuracy: m.accuracy,
        mean_per_class_error: m.mean_per_class_error,
        metric_context: { operating_threshold_metric: null, operating_threshold: null, split },
        confusion_matrix: { labels: classes, matrix: m.confusion_matrix },
      },
      roc: null,
      curves: null,
    };
  }
  const dist = config?.distribution;
  const m = regressionMetrics(y, scores, dist && dist !== 'huber' ? { distribution: dist } : {});
  return {
    metrics: { ...m, deviance: m.mean_residual_deviance, metric_context: { operating_threshold_metric: null, operating_threshold: null, split } },
    roc: null,
    curves: null,
  };
}

const KEY: Record<string, string> = {
  AUC: 'auc',
  AUCPR: 'aucpr',
  logloss: 'logloss',
  mean_per_class_error: 'mean_per_class_error',
  accuracy: 'accuracy',
  MCC: 'mcc',
  RMSE: 'rmse',
  MSE: 'mse',
  MAE: 'mae',
  RMSLE: 'rmsle',
  mean_residual_deviance: 'mean_residual_deviance',
  R2: 'r2',
  deviance: 'deviance',
  quantile_loss: 'quantile_loss',
};

/** The stored metric a sort metric name reads. */
export function metricKey(sortMetric: string): string {
  return KEY[sortMetric] ?? sortMetric.toLowerCase();
}

const LARGER_BETTER = new Set(['auc', 'aucpr', 'accuracy', 'mcc', 'r2', 'f1']);

export function largerIsBetter(sortMetric: string): boolean {
  return LARGER_BETTER.has(metricKey(sortMetric));
}

/** Orders metric maps best first by `sortMetric`; missing values go last. */
export function compareByMetric(sortMetric: string) {
  const key = metricKey(sortMetric);
  const sign = largerIsBetter(sortMetric) ? -1 : 1;
  return (a: Record<string, unknown>, b: Record<string, unknown>): number => {
    const x = a[key];
    const y = b[key];
    const xa = typeof x === 'number' && Number.isFinite(x);
    const ya = typeof y === 'number' && Number.isFinite(y);
    if (!xa || !ya) return xa ? -1 : ya ? 1 : 0;
    return sign * ((x as number) - (y as number));
  };
}

/** Stored metric keys a model list may be sorted by (`GET /api/models?sort_metric=`). */
export const MODEL_SORT_KEYS = ['auc', 'rmse', 'mae', 'r2', 'logloss', 'accuracy', 'mse', 'mean_per_class_error'] as const;

import type { ExperimentWarning, Model } from '../../entities';
import type { Block, Cell, Section } from '../../engine/reports';
import type { ReportOptions } from './options';
import { curvesReading, learningReading, metricsReading } from './readings';

/**
 * Sections about trained models, shared by the experiment and model reports: figures read from
 * what training stored on each model (metrics at the operating threshold, explain data,
 * parameters). Pure: rows in, document sections out.
 */

/** Metric figures are shown to 4 decimals, as a reader compares them. */
export function fmt(v: unknown, digits = 4): Cell {
  if (typeof v !== 'number' || !Number.isFinite(v)) return v === null || v === undefined ? null : String(v);
  return Number.isInteger(v) && Math.abs(v) < 1e15 ? v : Number(v.toFixed(digits));
}

/** The scalar metrics of a model, in a stable order (those every reader looks for first). */
const METRIC_ORDER = ['auc', 'aucpr', 'logloss', 'accuracy', 'f1', 'mcc', 'mean_per_class_error', 'rmse', 'mse', 'mae', 'rmsle', 'r2', 'mean_residual_deviance', 'deviance'];

export function scalarMetrics(m: Model): [string, number][] {
  const entries = Object.entries(m.metrics).filter((e): e is [string, number] => typeof e[1] === 'number' && e[0] !== 'threshold');
  const rank = (k: string) => (METRIC_ORDER.includes(k) ? METRIC_ORDER.indexOf(k) : METRIC_ORDER.length);
  return entries.sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0]));
}

/** Points of a curve, at most `max` of them, evenly picked (the first and last kept). */
function thin<T>(points: T[], max = 200): T[] {
  if (points.length <= max) return points;
  const step = (points.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => points[Math.round(i * step)]);
}

export function metricsBlocks(m: Model): Block[] {
  const ctx = (m.metrics.metric_context ?? {}) as { operating_threshold: number | null; operating_threshold_metric: string | null; split?: string };
  const items: [string, Cell][] = scalarMetrics(m).map(([k, v]) => [k, fmt(v)]);
  const blocks: Block[] = [{ type: 'keyValues', items }];
  if (ctx.operating_threshold !== null && ctx.operating_threshold !== undefined) {
    blocks.push({
      type: 'paragraph',
      text: `Threshold-dependent figures (accuracy, F1, MCC, the confusion matrix) use the operating threshold ${fmt(ctx.operating_threshold)}, chosen to maximise ${ctx.operating_threshold_metric ?? 'F1'} on the ${ctx.split ?? 'validation'} scores.`,
    });
  } else if (ctx.split) {
    blocks.push({ type: 'note', text: `Scored on the ${ctx.split} predictions.` });
  }
  return blocks;
}

export function confusionBlock(m: Model): Block | null {
  const cm = m.metrics.confusion_matrix as { labels: string[]; matrix: number[][] } | undefined;
  if (!cm) return null;
  return {
    type: 'table',
    columns: ['actual \\ predicted', ...cm.labels.map(String), 'error rate'],
    rows: cm.matrix.map((row, i) => {
      const total = row.reduce((a, b) => a + b, 0);
      return [String(cm.labels[i]), ...row, total ? fmt(1 - row[i] / total) : null];
    }),
    caption: 'Rows are the actual classes, columns the predicted ones.',
  };
}

/** ROC, and PR derived from it: precision = TPR·P / (TPR·P + FPR·N), exact at every ROC point. */
export function curveBlocks(m: Model): Block[] {
  const roc = m.explain.roc_curve as { fpr: number[]; tpr: number[] } | null | undefined;
  if (!roc || !roc.fpr?.length) return [];
  const points = thin(roc.fpr.map((x, i) => ({ x, y: roc.tpr[i] })));
  const blocks: Block[] = [
    {
      type: 'chart',
      title: 'ROC curve',
      chart: {
        type: 'line',
        data: {
          datasets: [
            { label: `ROC (AUC ${fmt(m.metrics.auc)})`, data: points },
            {
              label: 'chance',
              data: [
                { x: 0, y: 0 },
                { x: 1, y: 1 },
              ],
              dashed: true,
            },
          ],
        },
        xLabel: 'false positive rate',
        yLabel: 'true positive rate',
        xMin: 0,
        xMax: 1,
        yMin: 0,
        yMax: 1,
      },
    },
  ];
  const cm = m.metrics.confusion_matrix as { matrix: number[][] } | undefined;
  if (cm && cm.matrix.length === 2) {
    const negatives = cm.matrix[0][0] + cm.matrix[0][1];
    const positives = cm.matrix[1][0] + cm.matrix[1][1];
    const pr = points.filter((p) => p.y * positives + p.x * negatives > 0).map((p) => ({ x: p.y, y: (p.y * positives) / (p.y * positives + p.x * negatives) }));
    if (pr.length) {
      blocks.push({
        type: 'chart',
        title: 'Precision-recall curve',
        chart: { type: 'line', data: { datasets: [{ label: `PR (AUCPR ${fmt(m.metrics.aucpr)})`, data: pr }] }, xLabel: 'recall', yLabel: 'precision', xMin: 0, xMax: 1, yMin: 0, yMax: 1 },
      });
    }
  }
  return blocks;
}

/** Scoring history: the training and validation loss against trees (or iterations, epochs). */
export function learningCurveBlock(m: Model): Block | null {
  const history = (m.explain.scoring_history ?? []) as { number_of_trees: number; training: Record<string, number>; validation?: Record<string, number> }[];
  if (history.length < 2) return null;
  const metric = ['logloss', 'rmse', 'deviance'].find((k) => typeof history[0].training?.[k] === 'number') ?? Object.keys(history[0].training ?? {})[0];
  if (!metric) return null;
  const rows = thin(history);
  const datasets = [{ label: `training ${metric}`, data: rows.map((h) => ({ x: h.number_of_trees, y: h.training[metric] })) }];
  if (rows.some((h) => typeof h.validation?.[metric] === 'number')) {
    datasets.push({ label: `validation ${metric}`, data: rows.filter((h) => typeof h.validation?.[metric] === 'number').map((h) => ({ x: h.number_of_trees, y: h.validation![metric] })) });
  }
  return { type: 'chart', title: `Learning curve: ${m.name}`, chart: { type: 'line', data: { datasets }, xLabel: 'iterations', yLabel: metric } };
}

export function parametersBlock(m: Model): Block | null {
  const params = (m.parameters ?? {}) as Record<string, { default: unknown; actual: unknown } | unknown>;
  const rows: Cell[][] = Object.entries(params).map(([k, v]) => {
    const pair = v && typeof v === 'object' && 'actual' in (v as object) ? (v as { default: unknown; actual: unknown }) : { default: null, actual: v };
    return [k, show(pair.default), show(pair.actual)];
  });
  if (!rows.length) return null;
  return { type: 'table', columns: ['parameter', 'default', 'actual'], rows, caption: `${m.name} (${m.algo})` };
}

function show(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return fmt(v, 6);
  if (typeof v === 'string') return v;
  return JSON.stringify(v).slice(0, 200);
}

export function shapBlock(m: Model): Block | null {
  const shap = m.explain.shap_summary as { feature: string; mean_abs_contribution: number }[] | null | undefined;
  if (!shap?.length) return null;
  const top = [...shap].sort((a, b) => b.mean_abs_contribution - a.mean_abs_contribution).slice(0, 20);
  return {
    type: 'chart',
    title: 'SHAP summary: mean |contribution| per feature',
    chart: {
      type: 'bar',
      indexAxis: 'y',
      data: { labels: top.map((s) => s.feature), datasets: [{ label: 'mean |SHAP|', data: top.map((s) => s.mean_abs_contribution) }] },
      xLabel: 'mean |contribution|',
    },
  };
}

export function importanceBlock(m: Model): Block | null {
  const vi = (m.explain.variable_importance ?? []) as { variable: string; percentage: number }[];
  if (!vi.length) return null;
  const top = vi.slice(0, 20);
  return {
    type: 'chart',
    title: `Variable importance: ${m.name}`,
    chart: { type: 'bar', indexAxis: 'y', data: { labels: top.map((v) => v.variable), datasets: [{ label: 'share of importance', data: top.map((v) => v.percentage) }] } },
  };
}

/** Models × the features most important on average (scaled importance, 0..1). */
export function importanceHeatmap(models: Model[], maxFeatures = 15): Extract<Block, { type: 'heatmap' }> | null {
  // A stacked ensemble's importance is over its base models (GBM_1, …): those are not features of the data.
  const modelNames = new Set(models.map((m) => m.name));
  const byModel = models.map(
    (m) =>
      new Map(((m.explain.variable_importance ?? []) as { variable: string; scaled_importance: number }[]).filter((v) => !modelNames.has(v.variable)).map((v) => [v.variable, v.scaled_importance])),
  );
  const totals = new Map<string, number>();
  for (const vi of byModel) for (const [k, v] of vi) totals.set(k, (totals.get(k) ?? 0) + (Number.isFinite(v) ? v : 0));
  if (!totals.size) return null;
  const features = [...totals.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, maxFeatures)
    .map(([k]) => k);
  return {
    type: 'heatmap',
    title: 'Variable importance across models',
    rowLabels: models.map((m) => m.name),
    columnLabels: features,
    values: byModel.map((vi) => features.map((f) => (vi.has(f) ? Number((vi.get(f) as number).toFixed(3)) : null))),
    caption: `Scaled importance (1 = the model's most important feature); the ${features.length} features most important on average.`,
  };
}

/** The same figures as a table, for a report without pictures. */
export function heatmapAsTable(h: Extract<Block, { type: 'heatmap' }>): Block {
  return { type: 'table', columns: ['model', ...h.columnLabels], rows: h.values.map((row, i) => [h.rowLabels[i], ...row]), caption: h.caption };
}

/** A model's own sections (the model report; the experiment report's best model). */
export function modelSections(m: Model, o: ReportOptions, idPrefix: string, read: { sortKey: string | null; warnings: ExperimentWarning[] }): Section[] {
  const sections: Section[] = [];
  if (o.include_metrics) {
    const blocks = metricsBlocks(m);
    const cm = o.include_confusion_matrix ? confusionBlock(m) : null;
    if (cm) blocks.push(cm);
    sections.push({ id: `${idPrefix}-metrics`, title: `Metrics of ${m.name}`, reading: metricsReading(m, read.sortKey, read.warnings), blocks });
  }
  if (o.include_charts && o.include_roc_curve) {
    const curves = curveBlocks(m);
    if (curves.length) sections.push({ id: `${idPrefix}-curves`, title: 'ROC and precision-recall curves', reading: curvesReading(m), blocks: curves });
  }
  if (o.include_charts && o.include_learning_curves) {
    const lc = learningCurveBlock(m);
    sections.push({ id: `${idPrefix}-learning`, title: 'Learning curve', reading: learningReading(m), blocks: lc ? [lc] : [{ type: 'note', text: `${m.algo} models keep no scoring history.` }] });
  }
  return sections;
}

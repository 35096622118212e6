import type { DataSource } from 'typeorm';
import { In } from 'typeorm';
import { Experiment, Model } from '../entities';
import { MAX_CURVE_POINTS, thinIndices } from '../engine/automl';
import type { Access } from './access';
import { NotFoundError } from './errors';

/** How many models one comparison holds (a table and a chart stay readable). */
export const MAX_COMPARED_MODELS = 10;

type Curve = Record<string, number[]>;

/** The curve's arrays at the same thinned indices (a ROC on many rows has a point per distinct score). */
function thinCurve<C extends Curve>(curve: C | null | undefined): C | null {
  if (!curve) return null;
  const keys = Object.keys(curve);
  const len = Math.min(...keys.map((k) => (Array.isArray(curve[k]) ? curve[k].length : 0)));
  if (!Number.isFinite(len) || len === 0) return null;
  const idx = thinIndices(len, MAX_CURVE_POINTS);
  return Object.fromEntries(keys.map((k) => [k, idx.map((i) => curve[k][i])])) as C;
}

function scalarMetrics(m: Model): Record<string, number> {
  return Object.fromEntries(Object.entries(m.metrics).filter(([, v]) => typeof v === 'number' && Number.isFinite(v))) as Record<string, number>;
}

/**
 * Two or more models of one project side by side: scalar metrics, training parameters (and which differ between
 * them), ROC and PR curves. A model the user cannot read, or one of another project, is `Model not found` (404), as
 * the API answers for any model that is not the caller's to see.
 */
export async function compareModels(ds: DataSource, access: Access, userId: string, projectId: string, modelIds: string[]) {
  await access.project(userId, projectId);
  const models = await ds.getRepository(Model).findBy({ id: In(modelIds), projectId });
  const byId = new Map(models.map((m) => [m.id, m]));
  if (modelIds.some((id) => !byId.has(id))) throw new NotFoundError('Model not found');
  const experiments = await ds.getRepository(Experiment).findBy({ id: In([...new Set(models.map((m) => m.experimentId))]) });
  const expById = new Map(experiments.map((e) => [e.id, e]));
  const ordered = modelIds.map((id) => byId.get(id) as Model);
  const params = ordered.map((m) => m.parameters as Record<string, { default?: unknown; actual?: unknown }>);
  const parameterNames = [...new Set(params.flatMap((p) => Object.keys(p)))].sort();
  // A parameter differs when its trained value is not the same in every model (absent counts as a value).
  const differing = parameterNames.filter((name) => new Set(params.map((p) => JSON.stringify(p[name]?.actual ?? null))).size > 1);
  const rows = ordered.map((m) => {
    const exp = expById.get(m.experimentId);
    const context = (m.metrics.metric_context ?? null) as { split?: string } | null;
    return {
      id: m.id,
      name: m.name,
      algo: m.algo,
      experiment_id: m.experimentId,
      experiment_name: exp?.name ?? null,
      metric_name: ((exp?.config as { sort_metric?: string } | undefined)?.sort_metric ?? null) as string | null,
      problem_kind: exp?.problemKind ?? null,
      metric_split: context?.split ?? null,
      metrics: scalarMetrics(m),
      parameters: m.parameters,
      roc_curve: thinCurve(m.explain.roc_curve as { fpr: number[]; tpr: number[] } | null),
      pr_curve: thinCurve(m.explain.pr_curve as { precision: number[]; recall: number[]; thresholds: number[] } | null),
    };
  });
  const metricNames = [...new Set(rows.flatMap((r) => Object.keys(r.metrics)))].sort();
  return { project_id: projectId, models: rows, metric_names: metricNames, parameter_names: parameterNames, differing_parameters: differing };
}

import type { DataSource } from 'typeorm';
import { Model } from '../entities';
import { MODEL_SORT_KEYS } from '../engine/automl';
import { MEMBER_PROJECTS_SQL } from './access';
import { likePattern, Page, sqlDirection } from './lists';

/** Columns the model list may be sorted by (`GET /api/models?sort=`). */
export const MODEL_LIST_SORTS = ['created_at', 'name', 'algo', 'experiment', 'metric', 'dataset_version', 'deployed'] as const;
export type ModelListSort = (typeof MODEL_LIST_SORTS)[number];

export interface ModelFilter {
  project_id?: string;
  experiment_id?: string;
  model_type?: string;
  is_best?: boolean;
  is_production?: boolean;
  is_staging?: boolean;
  search?: string;
  limit: number;
  offset: number;
  sort?: ModelListSort;
  sort_metric?: (typeof MODEL_SORT_KEYS)[number];
  sort_dir: 'asc' | 'desc';
}

/** What a project-wide model table shows beside a model: where it came from and where it serves. */
export interface ModelListing {
  model: Model;
  experimentName: string | null;
  projectName: string | null;
  /** Its experiment's sort metric (`AUC`, `RMSE`, …) and this model's value of it. */
  metricName: string | null;
  metricValue: number | null;
  datasetId: string | null;
  datasetName: string | null;
  datasetVersionId: string | null;
  datasetVersion: number | null;
  /** Its active deployment (production before staging, then the newest), or null when it serves nowhere. */
  deployment: { id: string; name: string; stage: string } | null;
}

/** The stored key of the experiment's sort metric: metricKey() (engine/automl) lower-cases every name it knows. */
const METRIC_KEY_SQL = `lower(e.config->>'sort_metric')`;
const METRIC_VALUE_SQL = `CASE WHEN jsonb_typeof(m.metrics->${METRIC_KEY_SQL}) = 'number' THEN (m.metrics->>${METRIC_KEY_SQL})::double precision END`;
/** Larger-is-better metrics (engine/automl largerIsBetter) keep their sign; the others are negated, so larger is better for all. */
const METRIC_GOODNESS_SQL = `CASE WHEN ${METRIC_KEY_SQL} IN ('auc', 'aucpr', 'accuracy', 'mcc', 'r2', 'f1') THEN ${METRIC_VALUE_SQL} ELSE -(${METRIC_VALUE_SQL}) END`;
const DEPLOYMENT_SQL = `(SELECT d.id FROM deployments d WHERE d.model_id = m.id AND d.is_active ORDER BY (d.stage = 'production') DESC, d.created_at DESC, d.id LIMIT 1)`;

/**
 * The ORDER BY expression of each sort. Only these fixed strings reach the SQL. `metric` compares how good each
 * model is on its own experiment's sort metric (a model ranked by AUC beside one ranked by RMSE: each value signed so
 * that larger is better), so `desc` puts the best first across experiments.
 */
const SORT_SQL: Record<ModelListSort, string> = {
  created_at: 'm.created_at',
  name: 'lower(m.name)',
  algo: 'lower(m.algo)',
  experiment: 'lower(e.name)',
  metric: METRIC_GOODNESS_SQL,
  dataset_version: 'dv.version',
  deployed: `(${DEPLOYMENT_SQL} IS NOT NULL)`,
};

/** The user's models, filtered, searched (name, algorithm, experiment name) and sorted, one page of them. */
export async function listModels(ds: DataSource, userId: string, q: ModelFilter): Promise<Page<ModelListing>> {
  const qb = ds
    .getRepository(Model)
    .createQueryBuilder('m')
    .innerJoin('experiments', 'e', 'e.id = m.experiment_id')
    .innerJoin('projects', 'p', 'p.id = m.project_id')
    .leftJoin('dataset_versions', 'dv', 'dv.id = e.dataset_version_id')
    .leftJoin('datasets', 'ds', 'ds.id = dv.dataset_id')
    .addSelect(['e.name AS experiment_name', 'p.name AS project_name', 'dv.id AS dataset_version_id', 'dv.version AS dataset_version', 'ds.id AS dataset_id', 'ds.name AS dataset_name'])
    .addSelect(`e.config->>'sort_metric'`, 'metric_name')
    .addSelect(METRIC_VALUE_SQL, 'metric_value')
    .addSelect(DEPLOYMENT_SQL, 'deployment_id')
    .where(`m.project_id IN (${MEMBER_PROJECTS_SQL})`, { userId });
  if (q.project_id) qb.andWhere('m.project_id = :pid', { pid: q.project_id });
  if (q.experiment_id) qb.andWhere('m.experiment_id = :eid', { eid: q.experiment_id });
  if (q.model_type) qb.andWhere('lower(m.algo) = lower(:algo)', { algo: q.model_type });
  if (q.is_best !== undefined) qb.andWhere('m.is_best = :b', { b: q.is_best });
  if (q.is_production !== undefined) qb.andWhere('m.is_production = :pr', { pr: q.is_production });
  if (q.is_staging !== undefined) qb.andWhere('m.is_staging = :st', { st: q.is_staging });
  if (q.search) qb.andWhere('(m.name ILIKE :s OR m.algo ILIKE :s OR e.name ILIKE :s)', { s: likePattern(q.search) });
  const dir = sqlDirection(q.sort_dir);
  // sort_metric is one of MODEL_SORT_KEYS (validated), so it may stand in the SQL.
  if (q.sort) qb.orderBy(SORT_SQL[q.sort], dir, 'NULLS LAST');
  else if (q.sort_metric) qb.orderBy(`(m.metrics->>'${q.sort_metric}')::double precision`, dir, 'NULLS LAST');
  else qb.orderBy('m.created_at', dir);
  if (q.sort && q.sort !== 'created_at') qb.addOrderBy('m.created_at', 'DESC');
  qb.addOrderBy('m.id', dir);
  const total = await qb.getCount();
  const { entities, raw } = await qb.offset(q.offset).limit(q.limit).getRawAndEntities();
  const deploymentIds = raw.map((r) => r.deployment_id as string | null).filter((id): id is string => !!id);
  const deployments: { id: string; name: string; stage: string }[] = deploymentIds.length ? await ds.query('SELECT id, name, stage FROM deployments WHERE id = ANY($1)', [deploymentIds]) : [];
  const byId = new Map(deployments.map((d) => [d.id, d]));
  const items = entities.map((model, i): ModelListing => {
    const r = raw[i] ?? {};
    const value = r.metric_value === null || r.metric_value === undefined ? null : Number(r.metric_value);
    return {
      model,
      experimentName: r.experiment_name ?? null,
      projectName: r.project_name ?? null,
      metricName: r.metric_name ?? null,
      metricValue: value !== null && Number.isFinite(value) ? value : null,
      datasetId: r.dataset_id ?? null,
      datasetName: r.dataset_name ?? null,
      datasetVersionId: r.dataset_version_id ?? null,
      datasetVersion: r.dataset_version === null || r.dataset_version === undefined ? null : Number(r.dataset_version),
      deployment: r.deployment_id ? (byId.get(r.deployment_id) ?? null) : null,
    };
  });
  return { items, total, limit: q.limit, offset: q.offset };
}

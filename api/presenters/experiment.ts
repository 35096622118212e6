import { metricKey } from '../../engine/automl';
import { experimentProgress, ignoredColumns, type ExperimentSummary } from '../../services/experiments';
import type { Presented } from './common.schema';
import type { experimentSchema } from './experiment.schema';

export function presentExperiment(r: ExperimentSummary): Presented<typeof experimentSchema> {
  const c = r.config;
  const score = r.best_model_metrics?.[metricKey(c.sort_metric)];
  const progress = experimentProgress(r);
  return {
    id: r.id,
    name: r.name,
    project_id: r.project_id,
    dataset_version_id: r.dataset_version_id,
    dataset_id: r.dataset_id,
    dataset_version: Number(r.dataset_version),
    target_column: r.target_column,
    problem_type: r.problem_type,
    problem_kind: r.problem_kind,
    status: r.status,
    max_runtime_secs: c.max_runtime_secs,
    max_models: c.max_models,
    sort_metric: c.sort_metric,
    config: c,
    ignored_columns: ignoredColumns(c),
    use_gpu: r.use_gpu,
    project_name: r.project_name,
    dataset_name: r.dataset_name,
    model_count: Number(r.model_count),
    best_model_id: r.best_model_id,
    best_model_algo: r.best_model_algo,
    best_score: typeof score === 'number' ? score : null,
    best_score_metric: c.sort_metric,
    warnings: r.warnings ?? [],
    job_id: r.job_id,
    error: r.error,
    // Counted from the recorded models, over what training wrote (its own count included the ensembles).
    progress: { ...r.progress, ...progress },
    created_at: new Date(r.created_at).toISOString(),
    started_at: r.started_at,
    finished_at: r.finished_at,
  };
}

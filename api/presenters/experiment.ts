import type { ExperimentSummary } from '../../services/experiments';
import type { Presented } from './common.schema';
import type { experimentSchema } from './experiment.schema';

export function presentExperiment(r: ExperimentSummary): Presented<typeof experimentSchema> {
  const c = r.config;
  return {
    id: r.id,
    name: r.name,
    project_id: r.project_id,
    dataset_version_id: r.dataset_version_id,
    dataset_id: r.dataset_id,
    target_column: r.target_column,
    problem_type: r.problem_type,
    problem_kind: r.problem_kind,
    status: r.status,
    max_runtime_secs: c.max_runtime_secs,
    max_models: c.max_models,
    sort_metric: c.sort_metric,
    config: c,
    use_gpu: r.use_gpu,
    project_name: r.project_name,
    dataset_name: r.dataset_name,
    model_count: Number(r.model_count),
    best_model_id: r.best_model_id,
    best_model_algo: r.best_model_algo,
    job_id: r.job_id,
    error: r.error,
    progress: r.progress,
    created_at: new Date(r.created_at).toISOString(),
    started_at: r.started_at,
    finished_at: r.finished_at,
  };
}

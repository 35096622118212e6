import type { Model } from '../../entities';
import type { ModelListing } from '../../services/model-list';
import { baseModelImportance, featureImportance } from '../../services/model-importance';
import type { Presented } from './common.schema';
import type { artifactLinkSchema, modelExplainSchema, modelListItemSchema, modelSchema } from './model.schema';

type Explain = Presented<typeof modelExplainSchema>;

/** `names`: its experiment's and project's, where the answer carries them. */
export function presentModel(m: Model, names: { experiment_name?: string; project_name?: string } = {}): Presented<typeof modelSchema> {
  return {
    id: m.id,
    name: m.name,
    algo: m.algo,
    experiment_id: m.experimentId,
    project_id: m.projectId,
    artifact_id: m.artifactId,
    onnx_artifact_id: m.onnxArtifactId,
    is_best: m.isBest,
    is_production: m.isProduction,
    is_staging: m.isStaging,
    staging_deployment_id: m.stagingDeploymentId,
    metrics: m.metrics,
    training_time_ms: m.trainingTimeMs,
    predict_time_per_row_ms: m.predictTimePerRowMs,
    created_at: m.createdAt,
    ...names,
  };
}

/** A model as the project-wide model table lists it (`GET /api/models`). */
export function presentModelListing(n: ModelListing): Presented<typeof modelListItemSchema> {
  return {
    ...presentModel(n.model, { experiment_name: n.experimentName ?? undefined, project_name: n.projectName ?? undefined }),
    metric_name: n.metricName,
    metric_value: n.metricValue,
    dataset_id: n.datasetId,
    dataset_name: n.datasetName,
    dataset_version_id: n.datasetVersionId,
    dataset_version: n.datasetVersion,
    deployment: n.deployment,
  };
}

/** A model as an experiment's leaderboard lists it. */
export function presentModelSummary(m: Model) {
  return { id: m.id, name: m.name, algo: m.algo, metrics: m.metrics, is_best: m.isBest, training_time_ms: m.trainingTimeMs, predict_time_per_row_ms: m.predictTimePerRowMs, created_at: m.createdAt };
}

/** Where a model's native (JSON) artifact and ONNX file are downloaded. */
export function modelArtifactLinks(m: Model): Presented<typeof artifactLinkSchema>[] {
  return [
    { artifact_id: m.artifactId, owner_type: 'model', owner_id: m.id, label: `${m.name} model (JSON)` },
    ...(m.onnxArtifactId ? [{ artifact_id: m.onnxArtifactId, owner_type: 'model', owner_id: m.id, label: `${m.name} ONNX` }] : []),
  ];
}

/** `GET /api/models/{id}/explain`: importance, SHAP summary, confusion matrix, ROC and scoring history. */
export function presentModelExplain(m: Model): Explain {
  const vi = featureImportance(m);
  const context = (m.metrics.metric_context ?? null) as { split?: string } | null;
  const history = (m.explain.scoring_history ?? []) as { number_of_trees: number; training: Record<string, number>; validation?: Record<string, number> }[];
  return {
    model_id: m.id,
    algo: m.algo,
    variable_importance: vi.map((v) => ({ variable: v.variable, percentage: v.percentage, scaled_importance: v.scaled_importance })),
    // Stored by the training activity in these shapes (activities/automl-train); models trained before one existed lack it.
    shap_summary: (m.explain.shap_summary ?? null) as Explain['shap_summary'],
    confusion_matrix: (m.metrics.confusion_matrix ?? null) as Explain['confusion_matrix'],
    roc_curve: (m.explain.roc_curve ?? null) as Explain['roc_curve'],
    // Binary models trained since these were kept; older ones and other kinds have none ("not recorded").
    pr_curve: (m.explain.pr_curve ?? null) as Explain['pr_curve'],
    threshold_table: (m.explain.threshold_table ?? null) as Explain['threshold_table'],
    metric_split: context?.split ?? null,
    base_model_importance: baseModelImportance(m)?.map((v) => ({ variable: v.variable, percentage: v.percentage, scaled_importance: v.scaled_importance })) ?? null,
    scoring_history: history.map((h) => ({
      number_of_trees: h.number_of_trees,
      timestamp: null,
      training_logloss: h.training.logloss ?? null,
      validation_logloss: h.validation?.logloss ?? null,
      training_rmse: h.training.rmse ?? null,
      validation_rmse: h.validation?.rmse ?? null,
    })),
  };
}

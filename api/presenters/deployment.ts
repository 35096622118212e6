import type { Deployment, DeploymentTransition, DriftResult, InferenceLog, Model } from '../../entities';

/** `config` as the spec shows it ({name, traffic_percent}) with the stored options beside them. */
export function presentDeployment(d: Deployment) {
  return {
    id: d.id,
    project_id: d.projectId,
    model_id: d.modelId,
    name: d.name,
    stage: d.stage,
    is_active: d.isActive,
    config: { name: d.name, traffic_percent: d.trafficPercent, ...d.config },
    created_by: d.createdBy,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}

/** A deployment as lists show it, with its model's name (null when the model is gone). */
export function presentDeploymentSummary(d: Deployment, modelName: string | null = null) {
  return {
    id: d.id,
    model_id: d.modelId,
    model_name: modelName,
    name: d.name,
    stage: d.stage,
    is_active: d.isActive,
    config: { name: d.name, traffic_percent: d.trafficPercent, ...d.config },
    created_at: d.createdAt,
  };
}

export function presentDeploymentModel(m: Model) {
  return { id: m.id, name: m.name, algo: m.algo };
}

/** A stage transition, with its model's name (null when the model is gone). */
export function presentTransition(t: DeploymentTransition, modelName: string | null = null) {
  return {
    id: t.id,
    deployment_id: t.deploymentId,
    project_id: t.projectId,
    from_stage: t.fromStage,
    to_stage: t.toStage,
    model_id: t.modelId,
    model_name: modelName,
    actor_id: t.actorId,
    reason: t.reason,
    at: t.at,
  };
}

/** The spec's inference log; `latency_ms` is an integer there, the exact figure is `latency_ms_exact`. */
export function presentInferenceLog(l: InferenceLog) {
  return {
    id: l.id,
    deployment_id: l.deploymentId,
    requested_deployment_id: l.requestedDeploymentId,
    model_id: l.modelId,
    request_id: l.requestId,
    inputs: l.inputs,
    prediction: l.prediction,
    latency_ms: Math.round(l.latencyMs),
    latency_ms_exact: l.latencyMs,
    status_code: l.statusCode,
    /** Columns the request's rows carried beyond the training schema, or features they lacked: `[{type, columns, rows, message}]`. */
    warnings: l.warnings ?? [],
    /** What a refused request was answered with (`detail`: a text or `[{loc, msg, type}]`); null for an answered one. */
    error: l.error ?? null,
    created_at: l.createdAt,
  };
}

/** The spec's drift result, with what it was computed from beside it. */
export function presentDriftResult(r: DriftResult) {
  return {
    deployment_id: r.deploymentId,
    overall_status: r.overallStatus,
    max_psi: r.maxPsi,
    features: r.features,
    computed_at: r.computedAt,
    inference_rows: r.inferenceRows,
    reference_rows: Number(r.referenceRows),
    model_id: r.modelId,
    dataset_version_id: r.datasetVersionId,
    window: { start: r.windowStart, end: r.windowEnd },
    job_id: r.jobId,
  };
}

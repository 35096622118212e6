import type { SynthgenJob } from '../../entities';
import type { JobView, ModelView } from '../../services/synthgen/service';
import type { Presented } from './common.schema';
import type { synthJobSchema, synthJobSummarySchema, synthModelSchema } from './synthgen.schema';

type SynthModelJson = Presented<typeof synthModelSchema>;
type SynthJobJson = Presented<typeof synthJobSchema>;

/** The spec's SynthGen model (id, name, model_type, status, config, dataset_name, dataset_version, dataset_id, created_at) and what training recorded. */
export function presentSynthModel(v: ModelView): SynthModelJson {
  const m = v.model;
  return {
    id: m.id,
    project_id: m.projectId,
    project_name: v.projectName,
    name: m.name,
    model_type: m.modelType,
    status: m.status,
    config: m.config,
    use_gpu: m.useGpu,
    dataset_name: v.datasetName,
    dataset_version: v.datasetVersion,
    dataset_id: m.datasetId,
    dataset_version_id: m.datasetVersionId,
    error: m.error,
    train_job_id: m.trainJobId,
    artifact_id: m.status === 'ready' ? m.artifactId : null,
    training_rows: m.trainingRows,
    holdout_rows: m.holdoutRows,
    training_secs: m.trainingSecs,
    checkpoint_epoch: m.checkpointEpoch,
    // Stored by training as engine/synth's SynthColumnMeta[].
    columns: m.columns as SynthModelJson['columns'],
    created_at: m.createdAt,
    started_at: m.startedAt,
    finished_at: m.finishedAt,
    updated_at: m.updatedAt,
  };
}

/** A job as a model's detail lists it. */
export function presentSynthJobSummary(j: SynthgenJob): Presented<typeof synthJobSummarySchema> {
  return { id: j.id, job_type: j.jobType, status: j.status, error: j.error, created_at: j.createdAt };
}

/**
 * The spec's SynthGen job (id, model_id, model_name, model_type, project_name, job_type, status, config,
 * output_artifact_id, created_at); `job_id` is the same id (the `jobs` row), progress and its message are that
 * row's, and a completed generation carries its quality report and privacy check.
 */
export function presentSynthJob(v: JobView): SynthJobJson {
  const j = v.job;
  const done = j.status === 'completed';
  return {
    id: j.id,
    job_id: j.id,
    project_id: j.projectId,
    project_name: v.projectName,
    model_id: j.modelId,
    model_name: v.modelName,
    model_type: v.modelType,
    job_type: j.jobType,
    status: j.status,
    config: j.config,
    progress: v.progress,
    progress_message: v.progressMessage,
    attempt: v.attempt,
    error: j.error,
    output_artifact_id: done ? j.outputArtifactId : null,
    parquet_artifact_id: done ? j.parquetArtifactId : null,
    rows_generated: j.rowsGenerated,
    download_url: done && j.outputArtifactId ? `/api/synthgen/jobs/${j.id}/download` : null,
    // Stored by the generation's checks (activities/synthgen-generate/checks.ts) in these shapes.
    quality: j.quality as SynthJobJson['quality'],
    privacy: j.privacy as SynthJobJson['privacy'],
    log: j.log,
    created_at: j.createdAt,
    started_at: j.startedAt,
    finished_at: j.finishedAt,
    updated_at: j.updatedAt,
  };
}

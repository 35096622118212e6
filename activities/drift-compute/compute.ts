import type { DataSource } from 'typeorm';
import { DatasetVersion, Deployment, DriftResult, Experiment, Model } from '../../entities';
import { driftReport, DriftFeatureSpec, referenceDistribution } from '../../engine/data';
import type { DatasetVersions } from '../../services/dataset-versions';
import { NO_PAYLOADS } from '../../services/drift';
import { ConflictError, NotFoundError } from '../../services/errors';
import type { ModelServing } from '../../services/model-serving';
import type { JobProgress } from '../job-activity';

/** The newest logged input rows a drift run compares, at most, */
export const MAX_DRIFT_ROWS = 50_000;
/** ... and at most this many values (rows × features), so a wide model reads fewer rows rather than more memory. */
const MAX_DRIFT_CELLS = 5_000_000;

/** What a `drift_compute` job returns (kept on its jobs row). */
export type DriftJobResult = {
  drift_result_id: string;
  overall_status: string;
  max_psi: number;
  inference_rows: number;
};

export interface DriftComputeDeps {
  ds: DataSource;
  serving: ModelServing;
  datasetVersions: DatasetVersions;
}

/**
 * The job's work: the deployment's logged inputs (requests that answered 200 and stored their payload) against the
 * training data of its model's dataset version, PSI per feature (engine/data/drift), kept as a `drift_results` row.
 * Columns the deployment masks in stored payloads (`privacy_column_map`) are left out: their logged values are
 * placeholders, not data. Idempotent per job: a retried attempt after the result was written returns that result
 * (the job id is unique among results).
 */
export async function computeDrift({ ds, serving, datasetVersions }: DriftComputeDeps, jobId: string, deploymentId: string, progress: JobProgress): Promise<DriftJobResult> {
  const done = await ds.getRepository(DriftResult).findOneBy({ jobId });
  if (done) return summary(done);
  const deployment = await ds.getRepository(Deployment).findOneBy({ id: deploymentId });
  if (!deployment) throw new NotFoundError('Deployment not found');
  const model = await ds.getRepository(Model).findOneBy({ id: deployment.modelId });
  const experiment = model && (await ds.getRepository(Experiment).findOneBy({ id: model.experimentId }));
  const version = experiment && (await ds.getRepository(DatasetVersion).findOneBy({ id: experiment.datasetVersionId }));
  if (!model || !version) throw new NotFoundError("The deployed model's training data no longer exists");

  const masked = new Set(Object.keys((deployment.config as { privacy_column_map?: Record<string, string> }).privacy_column_map ?? {}));
  const features: DriftFeatureSpec[] = (await serving.schema(model)).filter((c) => !masked.has(c.name)).map((c) => ({ name: c.name, dtype: c.dtype }));
  await progress(5, 'reading logged inputs');
  const logged = await loggedRows(ds, deploymentId, Math.max(1, Math.min(MAX_DRIFT_ROWS, Math.floor(MAX_DRIFT_CELLS / Math.max(1, features.length)))));
  if (!logged.rows.length) throw new ConflictError(NO_PAYLOADS);

  const reference = await referenceDistribution(await datasetVersions.parquetPath(version), features, {
    onFeature: (i, n) => progress(10 + Math.floor((85 * i) / n), `reference distribution: feature ${i} of ${n}`),
  });
  const report = driftReport(reference, features, logged.rows);
  await progress(97, 'writing the result');
  const row = ds.getRepository(DriftResult).create({
    deploymentId,
    projectId: deployment.projectId,
    jobId,
    modelId: model.id,
    datasetVersionId: version.id,
    overallStatus: report.overall_status,
    maxPsi: report.max_psi,
    features: report.features,
    inferenceRows: report.inference_rows,
    referenceRows: String(report.reference_rows),
    windowStart: logged.start,
    windowEnd: logged.end,
  });
  await ds.getRepository(DriftResult).insert(row);
  return summary(row);
}

/** The newest logged input rows (a log of an array request holds several), and the time span they came from. */
async function loggedRows(ds: DataSource, deploymentId: string, limit: number): Promise<{ rows: Record<string, unknown>[]; start: Date | null; end: Date | null }> {
  const found: { r: Record<string, unknown>; created_at: Date }[] = await ds.query(
    `SELECT r, l.created_at
       FROM (SELECT inputs, created_at, id FROM inference_logs
              WHERE deployment_id = $1 AND inputs IS NOT NULL AND status_code = 200
              ORDER BY id DESC LIMIT $2) l
       CROSS JOIN LATERAL jsonb_array_elements(CASE jsonb_typeof(l.inputs) WHEN 'array' THEN l.inputs ELSE jsonb_build_array(l.inputs) END) r
      WHERE jsonb_typeof(r) = 'object'
      ORDER BY l.id DESC LIMIT $2`,
    [deploymentId, limit],
  );
  // Newest first: the span runs from the last row's log to the first's.
  return { rows: found.map((f) => f.r), start: found.length ? new Date(found[found.length - 1].created_at) : null, end: found.length ? new Date(found[0].created_at) : null };
}

function summary(r: DriftResult): DriftJobResult {
  return { drift_result_id: r.id, overall_status: r.overallStatus, max_psi: r.maxPsi, inference_rows: r.inferenceRows };
}

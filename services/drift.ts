import type { DataSource } from 'typeorm';
import { DatasetVersion, Deployment, DriftResult, Experiment, Job, Model } from '../entities';
import { driftReport, DriftFeatureSpec, referenceDistribution } from '../engine/data';
import type { Access } from './access';
import type { DatasetVersions } from './dataset-versions';
import { ConflictError, NotFoundError } from './errors';
import type { InferenceLogs } from './inference-logs';
import type { JobService } from './jobs';
import type { ModelServing } from './model-serving';

/** The spec's 404 before a deployment's first drift result. */
export const NO_DRIFT_RESULT = 'No drift result yet';
export const NO_PAYLOADS = 'No logged inputs to compare: drift needs predict requests logged with store_payload';

/** The newest logged input rows a drift run compares, at most. */
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

/**
 * Drift of a deployment: its logged inputs (requests that answered 200 and stored their payload)
 * against the training data of its model's dataset version, PSI per feature (engine/data/drift).
 * A run is a `drift_compute` job; every result is kept, the latest is the deployment's drift.
 * Columns the deployment masks in stored payloads (`privacy_column_map`) are left out: their
 * logged values are placeholders, not data.
 */
export class DriftService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly jobs: JobService,
    private readonly serving: ModelServing,
    private readonly datasetVersions: DatasetVersions,
    private readonly inferenceLogs: InferenceLogs,
  ) {}

  /**
   * Starts a drift job, or answers the one already queued or running for the deployment (a
   * second click does not compute twice). 409 when nothing logged can be compared.
   */
  async start(userId: string, deploymentId: string): Promise<Job> {
    const d = await this.access.deployment(userId, deploymentId, 'editor');
    const open = await this.ds.getRepository(Job).findOne({
      where: [
        { kind: 'drift_compute', entityId: d.id, status: 'queued' },
        { kind: 'drift_compute', entityId: d.id, status: 'running' },
      ],
      order: { createdAt: 'DESC' },
    });
    if (open) return open;
    // This process's buffered logs count too: a caller that just predicted expects them compared.
    await this.inferenceLogs.flush();
    if (!(await this.hasPayloads(d.id))) throw new ConflictError(NO_PAYLOADS);
    return this.jobs.createAndStart({ kind: 'drift_compute', projectId: d.projectId, entityId: d.id, createdBy: userId, input: { deploymentId: d.id } });
  }

  async latest(userId: string, deploymentId: string): Promise<DriftResult> {
    await this.access.deployment(userId, deploymentId);
    const r = await this.ds.getRepository(DriftResult).findOne({ where: { deploymentId }, order: { computedAt: 'DESC', id: 'DESC' } });
    if (!r) throw new NotFoundError(NO_DRIFT_RESULT);
    return r;
  }

  /**
   * The job's work. Idempotent per job: a retried attempt after the result was written returns
   * that result (the job id is unique among results).
   */
  async compute(jobId: string, deploymentId: string, progress: (percent: number, message: string) => Promise<void>): Promise<DriftJobResult> {
    const done = await this.ds.getRepository(DriftResult).findOneBy({ jobId });
    if (done) return summary(done);
    const deployment = await this.ds.getRepository(Deployment).findOneBy({ id: deploymentId });
    if (!deployment) throw new NotFoundError('Deployment not found');
    const model = await this.ds.getRepository(Model).findOneBy({ id: deployment.modelId });
    const experiment = model && (await this.ds.getRepository(Experiment).findOneBy({ id: model.experimentId }));
    const version = experiment && (await this.ds.getRepository(DatasetVersion).findOneBy({ id: experiment.datasetVersionId }));
    if (!model || !version) throw new NotFoundError("The deployed model's training data no longer exists");

    const masked = new Set(Object.keys((deployment.config as { privacy_column_map?: Record<string, string> }).privacy_column_map ?? {}));
    const features: DriftFeatureSpec[] = (await this.serving.schema(model)).filter((c) => !masked.has(c.name)).map((c) => ({ name: c.name, dtype: c.dtype }));
    await progress(5, 'reading logged inputs');
    const logged = await this.loggedRows(deploymentId, Math.max(1, Math.min(MAX_DRIFT_ROWS, Math.floor(MAX_DRIFT_CELLS / Math.max(1, features.length)))));
    if (!logged.rows.length) throw new ConflictError(NO_PAYLOADS);

    const reference = await referenceDistribution(await this.datasetVersions.parquetPath(version), features, {
      onFeature: (i, n) => progress(10 + Math.floor((85 * i) / n), `reference distribution: feature ${i} of ${n}`),
    });
    const report = driftReport(reference, features, logged.rows);
    await progress(97, 'writing the result');
    const row = this.ds.getRepository(DriftResult).create({
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
    await this.ds.getRepository(DriftResult).insert(row);
    return summary(row);
  }

  private async hasPayloads(deploymentId: string): Promise<boolean> {
    const rows: unknown[] = await this.ds.query(`SELECT 1 FROM inference_logs WHERE deployment_id = $1 AND inputs IS NOT NULL AND status_code = 200 LIMIT 1`, [deploymentId]);
    return rows.length > 0;
  }

  /** The newest logged input rows (a log of an array request holds several), and the time span they came from. */
  private async loggedRows(deploymentId: string, limit: number): Promise<{ rows: Record<string, unknown>[]; start: Date | null; end: Date | null }> {
    const found: { r: Record<string, unknown>; created_at: Date }[] = await this.ds.query(
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
}

function summary(r: DriftResult): DriftJobResult {
  return { drift_result_id: r.id, overall_status: r.overallStatus, max_psi: r.maxPsi, inference_rows: r.inferenceRows };
}

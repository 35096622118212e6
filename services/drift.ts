import type { DataSource } from 'typeorm';
import { Deployment, DriftResult, Job } from '../entities';
import type { Access } from './access';
import { driftScheduleOf } from './drift-schedule';
import { ConflictError, NotFoundError } from './errors';
import type { InferenceLogs } from './inference-logs';
import type { JobService } from './jobs';

/** The spec's 404 before a deployment's first drift result. */
export const NO_DRIFT_RESULT = 'No drift result yet';
export const NO_PAYLOADS = 'No logged inputs to compare: drift needs predict requests logged with store_payload';

/**
 * Drift of a deployment, as requests see it: starting a run and reading the latest result. A run is a `drift_compute`
 * job, whose work (PSI per feature of the logged inputs against the training data) is in activities/drift-compute/;
 * every result is kept, the latest is the deployment's drift.
 */
export class DriftService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly jobs: JobService,
    private readonly inferenceLogs: InferenceLogs,
  ) {}

  /**
   * Starts a drift job, or answers the one already queued or running for the deployment (a
   * second click does not compute twice). 409 when nothing logged can be compared.
   */
  async start(userId: string, deploymentId: string): Promise<Job> {
    const d = await this.access.deployment(userId, deploymentId, 'editor');
    const job = await this.startFor(d, userId);
    if (!job) throw new ConflictError(NO_PAYLOADS);
    return job;
  }

  /**
   * A drift job its schedule asks for (`drift_schedule`, services/drift-schedule.ts), started for the deployment's
   * creator: the open one if there is one, none while nothing logged can be compared or once the deployment is
   * archived or has no schedule any more (a cycle that was already due).
   */
  async startScheduled(deploymentId: string): Promise<Job | null> {
    const d = await this.ds.getRepository(Deployment).findOneBy({ id: deploymentId });
    if (!d || d.stage === 'archived' || !driftScheduleOf(d)) return null;
    return this.startFor(d, d.createdBy);
  }

  private async startFor(d: Deployment, userId: string | null): Promise<Job | null> {
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
    if (!(await this.hasPayloads(d.id))) return null;
    return this.jobs.createAndStart({ kind: 'drift_compute', projectId: d.projectId, entityId: d.id, createdBy: userId, input: { deploymentId: d.id } });
  }

  async latest(userId: string, deploymentId: string): Promise<DriftResult> {
    await this.access.deployment(userId, deploymentId);
    const r = await this.ds.getRepository(DriftResult).findOne({ where: { deploymentId }, order: { computedAt: 'DESC', id: 'DESC' } });
    if (!r) throw new NotFoundError(NO_DRIFT_RESULT);
    return r;
  }

  private async hasPayloads(deploymentId: string): Promise<boolean> {
    const rows: unknown[] = await this.ds.query(`SELECT 1 FROM inference_logs WHERE deployment_id = $1 AND inputs IS NOT NULL AND status_code = 200 LIMIT 1`, [deploymentId]);
    return rows.length > 0;
  }
}

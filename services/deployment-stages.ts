import type { DataSource, EntityManager } from 'typeorm';
import { Deployment, DeploymentStage, DeploymentTransition, JsonMap } from '../entities';
import { DEPLOYMENT_NOT_FOUND } from './access';
import { ConflictError, NotFoundError, ValidationError } from './errors';

/** The partial unique index that allows one active production deployment per project. */
const ONE_PRODUCTION_INDEX = 'uq_deployments_one_production';

/** A new deployment's row, as the stage machine inserts it. */
export interface NewDeployment {
  projectId: string;
  modelId: string;
  name: string;
  stage: DeploymentStage;
  trafficPercent: number;
  config: JsonMap;
}

/**
 * The stage machine of the spec (create, promote, rollback, deactivate): each move runs in one
 * transaction, is written as an append-only transition row in it, and keeps the project's models'
 * is_production / is_staging flags in step. The database allows one active production deployment
 * per project; a move that loses a race against another gets a 409, never two production
 * deployments. Callers check access and validate input first; `moved` runs after every move, done
 * or failed (the serving cache forgets its targets).
 */
export class DeploymentStages {
  constructor(
    private readonly ds: DataSource,
    private readonly moved: () => void,
  ) {}

  /** A new active deployment; a new production deployment archives the project's current one. */
  create(actor: string, fields: NewDeployment): Promise<Deployment> {
    return this.transition(fields.projectId, async (em) => {
      if (fields.stage === 'production') await this.archiveProduction(em, fields.projectId, actor, `replaced by new deployment ${fields.name}`);
      return this.insert(em, actor, fields, 'created');
    });
  }

  /** staging → production; the project's production deployment, if any, is archived. */
  promote(actor: string, projectId: string, id: string, reason: string | undefined): Promise<Deployment> {
    return this.transition(projectId, async (em) => {
      const d = await this.lock(em, id);
      if (d.stage === 'production') throw new ConflictError('Deployment is already in production');
      if (d.stage === 'archived') throw new ConflictError('An archived deployment returns to production by rollback (to_deployment_id), not by promote');
      await this.archiveProduction(em, d.projectId, actor, `replaced by promoted deployment ${d.name}`);
      await this.move(em, d, 'production', actor, reason ?? 'promoted');
      return d;
    });
  }

  /** An earlier deployment of the project back into production, reactivated as it was. */
  rollbackToDeployment(actor: string, projectId: string, toId: string, toModelId: string | undefined, reason: string): Promise<Deployment> {
    return this.transition(projectId, async (em) => {
      const target = await em.getRepository(Deployment).findOne({ where: { id: toId }, lock: { mode: 'pessimistic_write' } });
      if (!target || target.projectId !== projectId) throw new ValidationError('to_deployment_id must be a deployment of the same project');
      if (toModelId && toModelId !== target.modelId) throw new ValidationError('to_model_id does not match the model of to_deployment_id');
      if (target.stage === 'production') throw new ConflictError('Deployment is already in production');
      await this.archiveProduction(em, projectId, actor, `rolled back to deployment ${target.name}`);
      await this.move(em, target, 'production', actor, reason);
      return target;
    });
  }

  /** A new production deployment of a model (`fields`), archiving the current one. */
  rollbackToModel(actor: string, fields: NewDeployment & { modelName: string }, reason: string): Promise<Deployment> {
    const { modelName, ...row } = fields;
    return this.transition(row.projectId, async (em) => {
      await this.archiveProduction(em, row.projectId, actor, `rolled back to model ${modelName}`);
      return this.insert(em, actor, row, reason);
    });
  }

  /** Stops serving: the deployment is archived and nothing replaces it. Deactivating twice is a no-op. */
  async deactivate(actor: string, projectId: string, id: string, reason: string | undefined): Promise<void> {
    await this.transition(projectId, async (em) => {
      const d = await this.lock(em, id);
      if (d.isActive) await this.move(em, d, 'archived', actor, reason ?? 'deactivated');
      return d;
    });
  }

  /**
   * A staging deployment's share of production's traffic (a canary step, or set by hand), recorded as a transition
   * within the stage (`staging → staging`, the reason naming the old and new share) so the rollback history shows it.
   */
  setTraffic(actor: string, projectId: string, id: string, trafficPercent: number, reason: string): Promise<Deployment> {
    return this.transition(projectId, async (em) => {
      const d = await this.lock(em, id);
      if (!d.isActive || d.stage !== 'staging') throw new ConflictError('Only an active staging deployment takes a share of production traffic');
      const from = d.trafficPercent;
      await em.getRepository(Deployment).update({ id: d.id }, { trafficPercent });
      d.trafficPercent = trafficPercent;
      await this.record(em, d, d.stage, actor, `traffic ${from}% → ${trafficPercent}%: ${reason}`);
      return d;
    });
  }

  /**
   * Runs a stage change in one transaction, then keeps the project's models' flags in step. A
   * unique violation of the one-production index means another move made a different deployment
   * production first: 409 with a readable text.
   */
  private async transition(projectId: string, body: (em: EntityManager) => Promise<Deployment>): Promise<Deployment> {
    try {
      return await this.ds.transaction(async (em) => {
        const d = await body(em);
        await syncModelFlags(em, projectId);
        return d;
      });
    } catch (err) {
      const e = err as { code?: string; constraint?: string; driverError?: { constraint?: string } };
      if (e.code === '23505' && (e.constraint ?? e.driverError?.constraint) === ONE_PRODUCTION_INDEX) {
        throw new ConflictError('Another deployment of this project became production at the same time; reload and try again');
      }
      throw err;
    } finally {
      this.moved();
    }
  }

  private async insert(em: EntityManager, actor: string, fields: NewDeployment, reason: string): Promise<Deployment> {
    const d = em.getRepository(Deployment).create({ ...fields, isActive: true, createdBy: actor });
    await em.getRepository(Deployment).insert(d);
    await this.record(em, d, null, actor, reason);
    return d;
  }

  /** Moves `d` to `stage` (active unless archived), recorded as a transition. */
  private async move(em: EntityManager, d: Deployment, stage: DeploymentStage, actor: string, reason: string): Promise<void> {
    const from = d.stage;
    const isActive = stage !== 'archived';
    // A share of production's requests means something only for a staging deployment: in production it serves them all.
    const patch = stage === 'production' ? { stage, isActive, trafficPercent: 100 } : { stage, isActive };
    await em.getRepository(Deployment).update({ id: d.id }, patch);
    Object.assign(d, patch);
    await this.record(em, d, from, actor, reason);
  }

  private async lock(em: EntityManager, id: string): Promise<Deployment> {
    const d = await em.getRepository(Deployment).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!d) throw new NotFoundError(DEPLOYMENT_NOT_FOUND);
    return d;
  }

  /**
   * Archives the project's active production deployment, row-locked. Under READ COMMITTED a
   * concurrent move that already archived it makes the lock skip the row, and this move's own
   * write into production then meets the other's in the unique index (409).
   */
  private async archiveProduction(em: EntityManager, projectId: string, actor: string, reason: string): Promise<void> {
    const current = await em
      .getRepository(Deployment)
      .createQueryBuilder('d')
      .setLock('pessimistic_write')
      .where("d.project_id = :projectId AND d.stage = 'production' AND d.is_active", { projectId })
      .getMany();
    for (const d of current) await this.move(em, d, 'archived', actor, reason);
  }

  private async record(em: EntityManager, d: Deployment, from: DeploymentStage | null, actor: string, reason: string): Promise<void> {
    await em.getRepository(DeploymentTransition).insert({ deploymentId: d.id, projectId: d.projectId, fromStage: from, toStage: d.stage, modelId: d.modelId, actorId: actor, reason });
  }
}

/** A model is in production (staging) while an active deployment of that stage serves it. */
async function syncModelFlags(em: EntityManager, projectId: string): Promise<void> {
  await em.query(
    `UPDATE models m SET
       is_production = EXISTS (SELECT 1 FROM deployments d WHERE d.model_id = m.id AND d.is_active AND d.stage = 'production'),
       is_staging = EXISTS (SELECT 1 FROM deployments d WHERE d.model_id = m.id AND d.is_active AND d.stage = 'staging'),
       staging_deployment_id = (SELECT d.id FROM deployments d WHERE d.model_id = m.id AND d.is_active AND d.stage = 'staging' ORDER BY d.created_at DESC LIMIT 1)
     WHERE m.project_id = $1`,
    [projectId],
  );
}

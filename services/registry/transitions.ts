import type { DataSource, EntityManager } from 'typeorm';
import { Deployment, type JsonMap, RegisteredModel, type RegistryStage, RegistryTransition, RegistryVersion, type TransitionTarget } from '../../entities';
import type { DeploymentStages } from '../deployment-stages';
import { ConflictError, NotFoundError } from '../errors';
import type { Page, PageQuery } from '../lists';
import type { Owed, RegistryEvents } from './events';

export const TRANSITION_NOT_FOUND = 'Transition request not found';

/**
 * Transition requests and what an approval does: staging and production become deployments through the stage
 * machine (services/deployment-stages.ts), archived deactivates the version's model's active deployments. The
 * registry's stages follow: one version per project is `production` (the project has one production deployment),
 * so the version that was there becomes `archived`.
 */
export class RegistryTransitions {
  constructor(
    private readonly ds: DataSource,
    private readonly events: RegistryEvents,
    private readonly stages: () => DeploymentStages,
  ) {}

  async request(em: EntityManager, owed: Owed, actor: string | null, version: RegistryVersion, toStage: TransitionTarget, comment: string | null): Promise<RegistryTransition> {
    const repo = em.getRepository(RegistryTransition);
    const t = repo.create({ versionId: version.id, registeredModelId: version.registeredModelId, projectId: version.projectId, toStage, status: 'pending', requestedBy: actor, comment });
    await repo.insert(t);
    await this.events.append(
      em,
      {
        projectId: version.projectId,
        registeredModelId: version.registeredModelId,
        versionId: version.id,
        kind: 'transition_requested',
        actorId: actor,
        details: { request_id: t.id, version: version.version, to_stage: toStage, comment },
      },
      owed,
    );
    return repo.findOneByOrFail({ id: t.id });
  }

  async list(versionId: string, q: PageQuery): Promise<Page<RegistryTransition>> {
    const [items, total] = await this.ds.getRepository(RegistryTransition).findAndCount({ where: { versionId }, order: { createdAt: 'DESC', id: 'DESC' }, skip: q.offset, take: q.limit });
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /** The pending request `requestId` of `versionId`, row-locked for its decision (409 once decided). */
  async lockPending(em: EntityManager, versionId: string, requestId: string): Promise<RegistryTransition> {
    const t = await em.getRepository(RegistryTransition).findOne({ where: { id: requestId }, lock: { mode: 'pessimistic_write' } });
    if (!t || t.versionId !== versionId) throw new NotFoundError(TRANSITION_NOT_FOUND);
    if (t.status !== 'pending') throw new ConflictError(`Transition request already ${t.status}`);
    return t;
  }

  async reject(em: EntityManager, owed: Owed, actor: string | null, t: RegistryTransition, comment: string | null): Promise<RegistryTransition> {
    await em.getRepository(RegistryTransition).update({ id: t.id }, { status: 'rejected', decidedBy: actor, decidedAt: new Date(), decisionComment: comment });
    const version = await em.getRepository(RegistryVersion).findOneByOrFail({ id: t.versionId });
    await this.events.append(
      em,
      {
        projectId: t.projectId,
        registeredModelId: t.registeredModelId,
        versionId: t.versionId,
        kind: 'transition_rejected',
        actorId: actor,
        details: { request_id: t.id, version: version.version, to_stage: t.toStage, comment },
      },
      owed,
    );
    return em.getRepository(RegistryTransition).findOneByOrFail({ id: t.id });
  }

  /**
   * Approves `t` and carries it out. The deployment move commits in the stage machine's own transaction while `em`
   * holds the request's row lock, so a concurrent decision waits and then finds it decided (409).
   */
  async approve(em: EntityManager, owed: Owed, actor: string | null, t: RegistryTransition, comment: string | null): Promise<RegistryTransition> {
    const version = await em.getRepository(RegistryVersion).findOneByOrFail({ id: t.versionId });
    const deploymentId = await this.carryOut(em, owed, actor, version, t.toStage);
    await em.getRepository(RegistryTransition).update({ id: t.id }, { status: 'approved', decidedBy: actor, decidedAt: new Date(), decisionComment: comment, deploymentId });
    await this.events.append(
      em,
      {
        projectId: t.projectId,
        registeredModelId: t.registeredModelId,
        versionId: t.versionId,
        kind: 'transition_approved',
        actorId: actor,
        details: { request_id: t.id, version: version.version, to_stage: t.toStage, comment, deployment_id: deploymentId },
      },
      owed,
    );
    return em.getRepository(RegistryTransition).findOneByOrFail({ id: t.id });
  }

  /** The registry's stages after the version's model went into production (by an approval or a rollout's promote). */
  async markProduction(em: EntityManager, owed: Owed, actor: string | null, version: RegistryVersion, deploymentId: string): Promise<void> {
    // Both a rollout and the retraining that started it say so when a canary promotes: one record is enough.
    if (version.stage === 'production' && version.deploymentId === deploymentId) return;
    const previous = await em.getRepository(RegistryVersion).findBy({ projectId: version.projectId, stage: 'production' });
    for (const p of previous) if (p.id !== version.id) await this.setStage(em, owed, actor, p, 'archived', { reason: `replaced by ${version.id}` });
    await this.setStage(em, owed, actor, version, 'production', { deployment_id: deploymentId }, deploymentId);
  }

  /** Moves the deployments and the stages; the deployment made, if any. */
  private async carryOut(em: EntityManager, owed: Owed, actor: string | null, version: RegistryVersion, to: TransitionTarget): Promise<string | null> {
    const registered = await em.getRepository(RegisteredModel).findOneByOrFail({ id: version.registeredModelId });
    // The column takes null (the system); the stage machine's signature predates system actors.
    const who = actor as string;
    if (to === 'archived') {
      const active = await em.getRepository(Deployment).findBy({ projectId: version.projectId, modelId: version.modelId, isActive: true });
      for (const d of active) await this.stages().deactivate(who, d.projectId, d.id, `registry: ${registered.name} v${version.version} archived`);
      await this.setStage(em, owed, actor, version, 'archived', { deactivated: active.map((d) => d.id) });
      return null;
    }
    const current = await em.getRepository(Deployment).findOneBy({ projectId: version.projectId, stage: 'production', isActive: true });
    const d = await this.stages().create(who, {
      projectId: version.projectId,
      modelId: version.modelId,
      name: `${registered.name} v${version.version}`,
      stage: to,
      // Staging at 100% takes no share of production's traffic (services/deployment-targets.ts).
      trafficPercent: 100,
      // A new production version serves with the options (privacy, payload storage) production had.
      config: to === 'production' && current ? (current.config as JsonMap) : {},
    });
    if (to === 'production') await this.markProduction(em, owed, actor, version, d.id);
    else await this.setStage(em, owed, actor, version, 'staging', { deployment_id: d.id }, d.id);
    return d.id;
  }

  private async setStage(em: EntityManager, owed: Owed, actor: string | null, v: RegistryVersion, stage: RegistryStage, details: Record<string, unknown>, deploymentId?: string): Promise<void> {
    const from = v.stage;
    await em.getRepository(RegistryVersion).update({ id: v.id }, { stage, ...(deploymentId ? { deploymentId } : {}) });
    v.stage = stage;
    await this.events.append(
      em,
      {
        projectId: v.projectId,
        registeredModelId: v.registeredModelId,
        versionId: v.id,
        kind: 'stage_changed',
        actorId: actor,
        details: { version: v.version, from_stage: from, to_stage: stage, ...details },
      },
      owed,
    );
  }
}

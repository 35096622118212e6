import type { DataSource, EntityManager } from 'typeorm';
import { RegisteredModel, type RegistryEvent, RegistryTransition, RegistryVersion, type TransitionTarget } from '../../entities';
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';
import type { TemporalGateway } from '../../platform/temporal-client';
import type { Access } from '../access';
import type { DeploymentStages } from '../deployment-stages';
import { NotFoundError } from '../errors';
import type { ListQuery, Page, PageQuery } from '../lists';
import { Owed, RegistryEvents } from './events';
import { type NewRegisteredModel, type RegisteredModelPatch, RegisteredModels, type RegisteredModelView, type RegistrySortField } from './models';
import { RegistryTransitions, TRANSITION_NOT_FOUND } from './transitions';
import { type AliasMove, type NewVersion, RegistryVersions, type VersionView } from './versions';

/** A user id, or null for the system (a retraining policy, a rollout). */
export type RegistryActor = string | null;

/** An alias move, and the deployment it made when the alias deploys on move (`auto_deploy_aliases`). */
export interface RegistryAliasMove extends AliasMove {
  deployment_id: string | null;
}

export interface RegistryDeps {
  ds: DataSource;
  access: Access;
  temporal: TemporalGateway;
  config: Config;
  log: Logger;
  /** The deployment stage machine (the deployments service's), read when a transition is carried out. */
  stages: () => DeploymentStages;
}

/**
 * The model registry: what routes call (access-checked: readers are project members, changes need an editor,
 * decisions and auto-deploy settings an admin or owner) and the service API of the other parts (see index.ts), which
 * checks no roles. Every change runs in one transaction with its registry events; their notifications are handed
 * to delivery after commit.
 */
export class RegistryService {
  private readonly events: RegistryEvents;
  private readonly models: RegisteredModels;
  private readonly versions: RegistryVersions;
  private readonly transitions: RegistryTransitions;
  private readonly ds: DataSource;
  private readonly access: Access;

  constructor(deps: RegistryDeps) {
    this.ds = deps.ds;
    this.access = deps.access;
    this.events = new RegistryEvents(deps.ds, deps.temporal, deps.config, deps.log);
    this.models = new RegisteredModels(deps.ds, deps.access, this.events);
    this.versions = new RegistryVersions(deps.ds, this.events);
    this.transitions = new RegistryTransitions(deps.ds, this.events, deps.stages);
  }

  // --- registered models (routes)

  async createModel(userId: string, projectId: string, p: NewRegisteredModel): Promise<RegisteredModelView> {
    await this.access.project(userId, projectId, 'editor');
    const model = await this.tx((em, owed) => this.models.create(em, owed, userId, projectId, p));
    return { model, aliases: {} };
  }

  listModels(userId: string, projectId: string, q: ListQuery<RegistrySortField>): Promise<Page<RegisteredModelView>> {
    return this.models.list(userId, projectId, q);
  }

  async getModel(userId: string, id: string): Promise<RegisteredModelView> {
    return this.models.view(await this.access.registeredModel(userId, id));
  }

  /** Setting `auto_deploy_aliases` lets an alias move deploy to production, so it takes what an approval takes. */
  async updateModel(userId: string, id: string, p: RegisteredModelPatch): Promise<RegisteredModelView> {
    const model = await this.access.registeredModel(userId, id, p.auto_deploy_aliases !== undefined ? 'admin' : 'editor');
    const updated = await this.tx((em, owed) => this.models.update(em, owed, userId, model, p));
    return this.models.view(updated);
  }

  async deleteModel(userId: string, id: string): Promise<void> {
    const model = await this.access.registeredModel(userId, id, 'editor');
    await this.tx((em, owed) => this.models.delete(em, owed, userId, model));
  }

  // --- versions (routes)

  async createVersion(userId: string, registeredModelId: string, modelId: string, p: NewVersion): Promise<VersionView> {
    await this.access.registeredModel(userId, registeredModelId, 'editor');
    return this.versions.view(await this.registerVersion(userId, registeredModelId, modelId, p));
  }

  async listVersions(userId: string, registeredModelId: string, q: PageQuery): Promise<Page<VersionView>> {
    await this.access.registeredModel(userId, registeredModelId);
    return this.versions.list(registeredModelId, q);
  }

  async getVersionFor(userId: string, versionId: string): Promise<VersionView> {
    return this.versions.view(await this.access.registryVersion(userId, versionId));
  }

  async updateVersion(userId: string, versionId: string, p: NewVersion): Promise<VersionView> {
    const version = await this.access.registryVersion(userId, versionId, 'editor');
    return this.versions.view(await this.tx((em, owed) => this.versions.update(em, owed, userId, version, p)));
  }

  // --- aliases (routes)

  /** An alias in the registered model's `auto_deploy_aliases` deploys when moved: that takes an admin or owner. */
  async putAlias(userId: string, registeredModelId: string, alias: string, versionId: string): Promise<RegistryAliasMove> {
    const model = await this.access.registeredModel(userId, registeredModelId, 'editor');
    if (model.autoDeployAliases.includes(alias)) await this.access.registeredModel(userId, registeredModelId, 'admin');
    return this.moveAlias(userId, registeredModelId, alias, versionId);
  }

  async deleteAlias(userId: string, registeredModelId: string, alias: string): Promise<void> {
    const model = await this.access.registeredModel(userId, registeredModelId, 'editor');
    await this.tx((em, owed) => this.versions.deleteAlias(em, owed, userId, model, alias));
  }

  // --- transitions (routes)

  async requestTransitionAs(userId: string, versionId: string, toStage: TransitionTarget, comment?: string): Promise<RegistryTransition> {
    await this.access.registryVersion(userId, versionId, 'editor');
    return this.requestTransition(userId, versionId, toStage, comment);
  }

  async listTransitions(userId: string, versionId: string, q: PageQuery): Promise<Page<RegistryTransition>> {
    await this.access.registryVersion(userId, versionId);
    return this.transitions.list(versionId, q);
  }

  /** Approve or reject: admins and owners only (viewers and editors get 403). */
  async decideAs(userId: string, versionId: string, requestId: string, decision: 'approve' | 'reject', comment?: string): Promise<RegistryTransition> {
    await this.access.registryVersion(userId, versionId, 'admin');
    return this.decide(userId, versionId, requestId, decision, comment);
  }

  async listEvents(userId: string, registeredModelId: string, q: PageQuery & { kind?: string }): Promise<Page<RegistryEvent>> {
    await this.access.registeredModel(userId, registeredModelId);
    return this.events.list(registeredModelId, q);
  }

  // --- the service API of the other parts (no role checks; see index.ts)

  async registerVersion(actor: RegistryActor, registeredModelId: string, modelId: string, opts: NewVersion & { aliases?: string[] } = {}): Promise<RegistryVersion> {
    const version = await this.tx((em, owed) => this.versions.register(em, owed, actor, registeredModelId, modelId, opts));
    for (const alias of opts.aliases ?? []) await this.moveAlias(actor, registeredModelId, alias, version.id);
    return (await this.versions.byId(version.id)) ?? version;
  }

  async moveAlias(actor: RegistryActor, registeredModelId: string, alias: string, versionId: string): Promise<RegistryAliasMove> {
    const move = await this.tx((em, owed) => this.versions.moveAlias(em, owed, actor, registeredModelId, alias, versionId));
    const model = await this.ds.getRepository(RegisteredModel).findOneByOrFail({ id: registeredModelId });
    if (!model.autoDeployAliases.includes(alias)) return { ...move, deployment_id: null };
    // Deployed as an approved transition would be, and recorded as one.
    const request = await this.requestTransition(actor, versionId, 'production', `auto-deploy: alias ${alias} moved`);
    const approved = await this.decide(actor, versionId, request.id, 'approve', `auto-deploy: alias ${alias} moved`);
    return { ...move, deployment_id: approved.deploymentId };
  }

  requestTransition(actor: RegistryActor, versionId: string, toStage: TransitionTarget, comment?: string): Promise<RegistryTransition> {
    return this.tx(async (em, owed) => this.transitions.request(em, owed, actor, await this.versions.mustGet(em, versionId), toStage, comment ?? null));
  }

  async approveTransition(actor: RegistryActor, requestId: string, comment?: string): Promise<RegistryTransition> {
    return this.decide(actor, await this.versionOfRequest(requestId), requestId, 'approve', comment);
  }

  async rejectTransition(actor: RegistryActor, requestId: string, comment?: string): Promise<RegistryTransition> {
    return this.decide(actor, await this.versionOfRequest(requestId), requestId, 'reject', comment);
  }

  async markProduction(actor: RegistryActor, versionId: string, deploymentId: string): Promise<RegistryVersion> {
    await this.tx(async (em, owed) => this.transitions.markProduction(em, owed, actor, await this.versions.mustGet(em, versionId), deploymentId));
    return (await this.versions.byId(versionId)) as RegistryVersion;
  }

  recordEvent(projectId: string, registeredModelId: string | null, kind: string, details: Record<string, unknown>, actor: RegistryActor = null): Promise<RegistryEvent> {
    return this.tx((em, owed) => this.events.append(em, { projectId, registeredModelId, kind, actorId: actor, details }, owed));
  }

  async versionOfModel(modelId: string, registeredModelId?: string): Promise<RegistryVersion | null> {
    const qb = this.ds.getRepository(RegistryVersion).createQueryBuilder('v').where('v.model_id = :modelId', { modelId });
    if (registeredModelId) qb.andWhere('v.registered_model_id = :registeredModelId', { registeredModelId });
    return qb.orderBy('v.created_at', 'DESC').getOne();
  }

  async versionByAlias(registeredModelId: string, alias: string): Promise<RegistryVersion | null> {
    const [row]: { version_id: string }[] = await this.ds.query('SELECT version_id FROM registry_aliases WHERE registered_model_id = $1 AND alias = $2', [registeredModelId, alias]);
    return row ? this.versions.byId(row.version_id) : null;
  }

  getVersion(versionId: string): Promise<RegistryVersion | null> {
    return this.versions.byId(versionId);
  }

  // --- internals

  private decide(actor: RegistryActor, versionId: string, requestId: string, decision: 'approve' | 'reject', comment?: string): Promise<RegistryTransition> {
    return this.tx(async (em, owed) => {
      const t = await this.transitions.lockPending(em, versionId, requestId);
      return decision === 'approve' ? this.transitions.approve(em, owed, actor, t, comment ?? null) : this.transitions.reject(em, owed, actor, t, comment ?? null);
    });
  }

  private async versionOfRequest(requestId: string): Promise<string> {
    const t = await this.ds.getRepository(RegistryTransition).findOneBy({ id: requestId });
    if (!t) throw new NotFoundError(TRANSITION_NOT_FOUND);
    return t.versionId;
  }

  /** One transaction with its events; their notifications are handed to delivery once it committed. */
  private async tx<T>(body: (em: EntityManager, owed: Owed) => Promise<T>): Promise<T> {
    const owed = new Owed();
    const out = await this.ds.transaction((em) => body(em, owed));
    await this.events.dispatch(owed);
    return out;
  }
}

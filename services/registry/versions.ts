import type { DataSource, EntityManager } from 'typeorm';
import { Experiment, Model, RegisteredModel, RegistryAlias, RegistryVersion } from '../../entities';
import { NotFoundError, ValidationError } from '../errors';
import type { Page, PageQuery } from '../lists';
import { REGISTERED_MODEL_NOT_FOUND, REGISTRY_VERSION_NOT_FOUND } from '../access';
import type { Owed, RegistryEvents } from './events';
import { versionAliases } from './models';

export interface NewVersion {
  description?: string;
  tags?: Record<string, string>;
}

/** A version with the aliases pointing at it, as the API shows it. */
export interface VersionView {
  version: RegistryVersion;
  aliases: string[];
}

/** Where an alias moved: the version numbers before (null: new alias) and after. */
export interface AliasMove {
  alias: string;
  from_version: number | null;
  to_version: number;
  version_id: string;
}

/**
 * Registry versions and aliases: numbering under the registered model's row lock (1, 2, ... never reused), the
 * model's metrics snapshot, and alias moves recorded as events.
 */
export class RegistryVersions {
  constructor(
    private readonly ds: DataSource,
    private readonly events: RegistryEvents,
  ) {}

  /** A new version of `registered` pointing at `modelId` (a model of the same project). */
  async register(em: EntityManager, owed: Owed, actor: string | null, registeredModelId: string, modelId: string, p: NewVersion): Promise<RegistryVersion> {
    const registered = await em.getRepository(RegisteredModel).findOne({ where: { id: registeredModelId }, lock: { mode: 'pessimistic_write' } });
    if (!registered) throw new NotFoundError(REGISTERED_MODEL_NOT_FOUND);
    const model = await em.getRepository(Model).findOneBy({ id: modelId });
    if (!model || model.projectId !== registered.projectId) throw ValidationError.field(['body', 'model_id'], 'model_id must belong to project');
    const experiment = await em.getRepository(Experiment).findOneBy({ id: model.experimentId });
    const number = registered.latestVersion + 1;
    const version = em.getRepository(RegistryVersion).create({
      registeredModelId: registered.id,
      projectId: registered.projectId,
      version: number,
      modelId: model.id,
      experimentId: model.experimentId,
      datasetVersionId: experiment?.datasetVersionId ?? null,
      metrics: JSON.parse(JSON.stringify(model.metrics ?? {})),
      stage: 'none',
      tags: p.tags ?? {},
      description: p.description ?? '',
      deploymentId: null,
      createdBy: actor,
    });
    await em.getRepository(RegistryVersion).insert(version);
    await em.getRepository(RegisteredModel).update({ id: registered.id }, { latestVersion: number, updatedAt: new Date() });
    await this.events.append(
      em,
      { projectId: registered.projectId, registeredModelId: registered.id, versionId: version.id, kind: 'version_created', actorId: actor, details: { version: number, model_id: model.id } },
      owed,
    );
    return version;
  }

  async list(registeredModelId: string, q: PageQuery): Promise<Page<VersionView>> {
    const [rows, total] = await this.ds.getRepository(RegistryVersion).findAndCount({ where: { registeredModelId }, order: { version: 'DESC' }, skip: q.offset, take: q.limit });
    return { items: await this.views(this.ds.manager, rows), total, limit: q.limit, offset: q.offset };
  }

  async view(version: RegistryVersion, em: EntityManager = this.ds.manager): Promise<VersionView> {
    return (await this.views(em, [version]))[0];
  }

  /** Tags and description are what may change of a version. */
  async update(em: EntityManager, owed: Owed, actor: string, version: RegistryVersion, p: NewVersion): Promise<RegistryVersion> {
    const changes: Partial<RegistryVersion> = {};
    if (p.tags !== undefined) changes.tags = p.tags;
    if (p.description !== undefined) changes.description = p.description;
    if (!Object.keys(changes).length) return version;
    await em.getRepository(RegistryVersion).update({ id: version.id }, changes);
    await this.events.append(
      em,
      { projectId: version.projectId, registeredModelId: version.registeredModelId, versionId: version.id, kind: 'version_updated', actorId: actor, details: { fields: Object.keys(changes).sort() } },
      owed,
    );
    return { ...version, ...changes } as RegistryVersion;
  }

  /** Points `alias` at `versionId` (a version of the registered model), recorded as an `alias_moved` event. */
  async moveAlias(em: EntityManager, owed: Owed, actor: string | null, registeredModelId: string, alias: string, versionId: string): Promise<AliasMove> {
    const registered = await em.getRepository(RegisteredModel).findOne({ where: { id: registeredModelId }, lock: { mode: 'pessimistic_write' } });
    if (!registered) throw new NotFoundError(REGISTERED_MODEL_NOT_FOUND);
    const target = await em.getRepository(RegistryVersion).findOneBy({ id: versionId });
    if (!target || target.registeredModelId !== registeredModelId) throw ValidationError.field(['body', 'version_id'], 'version_id must be a version of this registered model');
    const current = await em.getRepository(RegistryAlias).findOneBy({ registeredModelId, alias });
    const from = current ? await em.getRepository(RegistryVersion).findOneBy({ id: current.versionId }) : null;
    await em.getRepository(RegistryAlias).upsert({ registeredModelId, alias, versionId, updatedBy: actor, updatedAt: new Date() }, ['registeredModelId', 'alias']);
    const move = { alias, from_version: from?.version ?? null, to_version: target.version, version_id: target.id };
    await this.events.append(em, { projectId: registered.projectId, registeredModelId, versionId: target.id, kind: 'alias_moved', actorId: actor, details: { ...move } }, owed);
    return move;
  }

  /** Removes an alias (404 when there is none), recorded as an `alias_deleted` event. */
  async deleteAlias(em: EntityManager, owed: Owed, actor: string, registered: RegisteredModel, alias: string): Promise<void> {
    const current = await em.getRepository(RegistryAlias).findOneBy({ registeredModelId: registered.id, alias });
    if (!current) throw new NotFoundError('Alias not found');
    const from = await em.getRepository(RegistryVersion).findOneBy({ id: current.versionId });
    await em.getRepository(RegistryAlias).delete({ registeredModelId: registered.id, alias });
    await this.events.append(
      em,
      {
        projectId: registered.projectId,
        registeredModelId: registered.id,
        versionId: current.versionId,
        kind: 'alias_deleted',
        actorId: actor,
        details: { alias, from_version: from?.version ?? null },
      },
      owed,
    );
  }

  /** A version by id, without access checks (for trusted callers). */
  byId(id: string, em: EntityManager = this.ds.manager): Promise<RegistryVersion | null> {
    return em.getRepository(RegistryVersion).findOneBy({ id });
  }

  /** The version with `id`, or 404 with the registry's text. */
  async mustGet(em: EntityManager, id: string): Promise<RegistryVersion> {
    const v = await em.getRepository(RegistryVersion).findOneBy({ id });
    if (!v) throw new NotFoundError(REGISTRY_VERSION_NOT_FOUND);
    return v;
  }

  private async views(em: EntityManager, rows: RegistryVersion[]): Promise<VersionView[]> {
    const aliases = await versionAliases(
      em,
      rows.map((r) => r.id),
    );
    return rows.map((version) => ({ version, aliases: aliases.get(version.id) ?? [] }));
  }
}

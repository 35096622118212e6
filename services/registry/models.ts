import type { DataSource, EntityManager } from 'typeorm';
import { RegisteredModel, RegistryAlias, RegistryVersion } from '../../entities';
import type { Access } from '../access';
import { ConflictError } from '../errors';
import { likePattern, type ListQuery, type Page, sqlDirection } from '../lists';
import type { Owed, RegistryEvents } from './events';

export interface NewRegisteredModel {
  name: string;
  description?: string;
  tags?: Record<string, string>;
}

export interface RegisteredModelPatch {
  name?: string;
  description?: string;
  tags?: Record<string, string>;
  auto_deploy_aliases?: string[];
}

/** A registered model with its aliases (alias → version number), as the API shows it. */
export interface RegisteredModelView {
  model: RegisteredModel;
  aliases: Record<string, number>;
}

export const REGISTRY_SORT_FIELDS = ['updated_at', 'name', 'created_at'] as const;
export type RegistrySortField = (typeof REGISTRY_SORT_FIELDS)[number];

const SORT_COLUMNS: Record<RegistrySortField, string> = { updated_at: 'r.updated_at', name: 'r.name', created_at: 'r.created_at' };

/** The unique index on (project_id, name): a concurrent create or rename with the same name. */
const NAME_INDEX = 'uq_registered_models_name';
const DUPLICATE_NAME = 'A registered model with this name already exists in the project';

/** Registered models: create, list, read, change and delete, each change a registry event. */
export class RegisteredModels {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly events: RegistryEvents,
  ) {}

  async create(em: EntityManager, owed: Owed, actor: string, projectId: string, p: NewRegisteredModel): Promise<RegisteredModel> {
    const repo = em.getRepository(RegisteredModel);
    if (await repo.existsBy({ projectId, name: p.name })) throw new ConflictError(DUPLICATE_NAME);
    const model = repo.create({ projectId, name: p.name, description: p.description ?? '', tags: p.tags ?? {}, autoDeployAliases: [], createdBy: actor });
    await uniqueName(() => repo.insert(model));
    await this.events.append(em, { projectId, registeredModelId: model.id, kind: 'model_created', actorId: actor, details: { name: model.name } }, owed);
    return model;
  }

  async list(userId: string, projectId: string, q: ListQuery<RegistrySortField>): Promise<Page<RegisteredModelView>> {
    await this.access.project(userId, projectId);
    const qb = this.ds.getRepository(RegisteredModel).createQueryBuilder('r').where('r.project_id = :projectId', { projectId });
    if (q.search) qb.andWhere("r.name ILIKE :pattern ESCAPE '\\'", { pattern: likePattern(q.search) });
    const [rows, total] = await qb.orderBy(SORT_COLUMNS[q.sort_field], sqlDirection(q.sort_direction)).addOrderBy('r.id', 'ASC').skip(q.offset).take(q.limit).getManyAndCount();
    const aliases = await aliasMaps(
      this.ds.manager,
      rows.map((r) => r.id),
    );
    return { items: rows.map((model) => ({ model, aliases: aliases.get(model.id) ?? {} })), total, limit: q.limit, offset: q.offset };
  }

  async view(model: RegisteredModel, em: EntityManager = this.ds.manager): Promise<RegisteredModelView> {
    return { model, aliases: (await aliasMaps(em, [model.id])).get(model.id) ?? {} };
  }

  /** Changes what is sent; renames keep the name unique in the project. */
  async update(em: EntityManager, owed: Owed, actor: string, model: RegisteredModel, p: RegisteredModelPatch): Promise<RegisteredModel> {
    const repo = em.getRepository(RegisteredModel);
    if (p.name !== undefined && p.name !== model.name && (await repo.existsBy({ projectId: model.projectId, name: p.name }))) throw new ConflictError(DUPLICATE_NAME);
    const changes: Partial<RegisteredModel> = {};
    if (p.name !== undefined) changes.name = p.name;
    if (p.description !== undefined) changes.description = p.description;
    if (p.tags !== undefined) changes.tags = p.tags;
    if (p.auto_deploy_aliases !== undefined) changes.autoDeployAliases = [...new Set(p.auto_deploy_aliases)];
    if (!Object.keys(changes).length) return model;
    await uniqueName(() => repo.update({ id: model.id }, { ...changes, updatedAt: new Date() }));
    const updated = await repo.findOneByOrFail({ id: model.id });
    await this.events.append(em, { projectId: model.projectId, registeredModelId: model.id, kind: 'model_updated', actorId: actor, details: { fields: Object.keys(p).sort() } }, owed);
    return updated;
  }

  /** Deletes a registered model with its versions, aliases, requests and events; refused while a version is in production. */
  async delete(em: EntityManager, owed: Owed, actor: string, model: RegisteredModel): Promise<void> {
    const locked = await em.getRepository(RegisteredModel).findOne({ where: { id: model.id }, lock: { mode: 'pessimistic_write' } });
    if (!locked) return;
    if (await em.getRepository(RegistryVersion).existsBy({ registeredModelId: model.id, stage: 'production' })) {
      throw new ConflictError('A version of this registered model is in production: archive it first');
    }
    await em.getRepository(RegisteredModel).delete({ id: model.id });
    // The model's own events go with it; the project keeps a record that it was deleted.
    await this.events.append(em, { projectId: model.projectId, registeredModelId: null, kind: 'model_deleted', actorId: actor, details: { registered_model_id: model.id, name: model.name } }, owed);
  }
}

/** Aliases by registered model: alias → version number. */
export async function aliasMaps(em: EntityManager, registeredModelIds: string[]): Promise<Map<string, Record<string, number>>> {
  const out = new Map<string, Record<string, number>>();
  if (!registeredModelIds.length) return out;
  const rows: { registered_model_id: string; alias: string; version: number }[] = await em.query(
    `SELECT a.registered_model_id, a.alias, v.version FROM registry_aliases a JOIN registry_versions v ON v.id = a.version_id
      WHERE a.registered_model_id = ANY($1) ORDER BY a.alias`,
    [registeredModelIds],
  );
  for (const r of rows) {
    const m = out.get(r.registered_model_id) ?? {};
    m[r.alias] = r.version;
    out.set(r.registered_model_id, m);
  }
  return out;
}

/** The aliases pointing at each version. */
export async function versionAliases(em: EntityManager, versionIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!versionIds.length) return out;
  const rows = await em.getRepository(RegistryAlias).createQueryBuilder('a').where('a.version_id IN (:...ids)', { ids: versionIds }).orderBy('a.alias').getMany();
  for (const r of rows) out.set(r.versionId, [...(out.get(r.versionId) ?? []), r.alias]);
  return out;
}

/** A write that may meet a concurrent one with the same name in the unique index: 409, never a 500. */
async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const e = err as { code?: string; constraint?: string; driverError?: { constraint?: string } };
    if (e.code === '23505' && (e.constraint ?? e.driverError?.constraint) === NAME_INDEX) throw new ConflictError(DUPLICATE_NAME);
    throw err;
  }
}

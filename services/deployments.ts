import type { DataSource, EntityManager } from 'typeorm';
import { Deployment, DeploymentStage, DeploymentTransition, JsonMap, Model } from '../entities';
import { setOwn } from '../engine/own-keys';
import { piiTypes } from '../engine/privacy';
import { TtlCache } from '../platform/ttl-cache';
import { Access, DEPLOYMENT_NOT_FOUND } from './access';
import { ConflictError, FieldIssue, NotFoundError, ValidationError } from './errors';
import type { DatasetVersions } from './dataset-versions';
import { DeploymentPredictOptions, predictDeployment, routeRequest, RoutedRequest } from './deployment-predictions';
import type { Page, PageQuery } from './lists';
import type { InputRow, ModelServing } from './model-serving';
import { TrainingExample, TrainingExamples } from './training-example';

/** The partial unique index that allows one active production deployment per project. */
const ONE_PRODUCTION_INDEX = 'uq_deployments_one_production';
const TARGET_CACHE_MS = 5_000;

/**
 * The spec's privacy options of a deployment (services/payload-privacy.ts): `privacy_column_map`
 * masks mapped columns in stored payloads; `privacy_anonymize_logs` also redacts the PII the
 * engine finds (at `privacy_threshold` or above) in the other text values and predictions it
 * keeps, written off the request path; `privacy_anonymize_response` redacts it in predicted text.
 * With `privacy_policy_id` (a policy of the project) the policy's rules decide what is done to each
 * type found in what logs keep; types it leaves alone are still redacted there.
 */
export interface PrivacyOptions {
  privacy_policy_id?: string | null;
  privacy_anonymize_logs?: boolean;
  privacy_anonymize_response?: boolean;
  /** Input column → PII type. */
  privacy_column_map?: Record<string, string>;
  privacy_threshold?: number;
}

/** What a deployment's `config` holds besides its name and traffic share. */
export interface DeploymentOptions extends PrivacyOptions {
  /** Default of the predict option `store_payload`: keep the request's rows in its inference log. */
  store_payload?: boolean;
}

export interface CreateDeployment extends DeploymentOptions {
  model_id: string;
  name: string;
  stage: string;
  traffic_percent: number;
}

export interface RollbackTarget {
  to_deployment_id?: string;
  to_model_id?: string;
  reason?: string;
}

/**
 * What serves a predict request addressed to a deployment: the deployment and its model, and,
 * for a production deployment, the staging deployment of the project that takes a share of its
 * traffic (if any).
 */
export interface ServingTarget {
  deployment: Deployment;
  model: Model;
  canary: { deployment: Deployment; model: Model } | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The engine's PII type ids, by their lower-case spelling (a map names `EMAIL` or `email` alike). */
const PII_TYPE_IDS = new Map(piiTypes().map((t) => [t.id.toLowerCase(), t.id]));

const OPTION_KEYS: (keyof DeploymentOptions)[] = ['privacy_policy_id', 'privacy_anonymize_logs', 'privacy_anonymize_response', 'privacy_column_map', 'privacy_threshold', 'store_payload'];

/**
 * Deployments: the stage machine of the spec (create, promote, rollback, deactivate), each move
 * written as an append-only transition row in the same transaction, and the models'
 * is_production / is_staging flags kept in step. The database allows one active production
 * deployment per project; a move that loses a race against another gets a 409, never two
 * production deployments.
 */
export class DeploymentService {
  /**
   * (user, deployment) → what serves it, for TARGET_CACHE_MS: predict pays no database round
   * trip. Every transition made through this process forgets all entries at once; other API
   * processes notice within TARGET_CACHE_MS.
   */
  private readonly targets = new TtlCache<string, ServingTarget>(TARGET_CACHE_MS);
  private readonly examples: TrainingExamples;

  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly serving: ModelServing,
    datasetVersions: DatasetVersions,
  ) {
    serving.onForget(() => this.targets.clear());
    this.examples = new TrainingExamples(ds, serving, datasetVersions);
  }

  async create(userId: string, projectId: string, p: CreateDeployment): Promise<Deployment> {
    if (p.stage !== 'staging' && p.stage !== 'production') throw new ValidationError("stage must be 'staging' or 'production'");
    const stage: DeploymentStage = p.stage;
    await this.access.project(userId, projectId, 'editor');
    const model = await this.projectModel(projectId, p.model_id);
    const config = await this.checkedOptions(model, pickOptions(p));
    return this.transition(projectId, async (em) => {
      if (stage === 'production') await this.archiveProduction(em, projectId, userId, `replaced by new deployment ${p.name}`);
      const d = em.getRepository(Deployment).create({ projectId, modelId: model.id, name: p.name, stage, isActive: true, trafficPercent: p.traffic_percent, config, createdBy: userId });
      await em.getRepository(Deployment).insert(d);
      await this.record(em, d, null, userId, 'created');
      return d;
    });
  }

  async list(userId: string, projectId: string, q: PageQuery): Promise<Page<Deployment>> {
    await this.access.project(userId, projectId);
    const [items, total] = await this.ds.getRepository(Deployment).findAndCount({ where: { projectId }, order: { createdAt: 'DESC', id: 'DESC' }, skip: q.offset, take: q.limit });
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /** A deployment with its model (archived deployments too). */
  async get(userId: string, id: string): Promise<{ deployment: Deployment; model: Model }> {
    const deployment = await this.access.deployment(userId, id);
    const model = await this.ds.getRepository(Model).findOneByOrFail({ id: deployment.modelId });
    return { deployment, model };
  }

  /** staging → production; the project's production deployment, if any, is archived. */
  async promote(userId: string, id: string, toStage: string, reason?: string): Promise<Deployment> {
    if (toStage !== 'production') throw new ValidationError("to_stage must be 'production'");
    const found = await this.access.deployment(userId, id, 'editor');
    return this.transition(found.projectId, async (em) => {
      const d = await this.lockDeployment(em, id);
      if (d.stage === 'production') throw new ConflictError('Deployment is already in production');
      if (d.stage === 'archived') throw new ConflictError('An archived deployment returns to production by rollback (to_deployment_id), not by promote');
      await this.archiveProduction(em, d.projectId, userId, `replaced by promoted deployment ${d.name}`);
      const from = d.stage;
      await em.getRepository(Deployment).update({ id: d.id }, { stage: 'production', isActive: true });
      Object.assign(d, { stage: 'production', isActive: true });
      await this.record(em, d, from, userId, reason ?? 'promoted');
      return d;
    });
  }

  /**
   * Production goes back to an earlier deployment of the project (reactivated as it was) or to
   * a model of the project (a new production deployment with this deployment's options).
   */
  async rollback(userId: string, id: string, t: RollbackTarget): Promise<Deployment> {
    if (!t.to_deployment_id && !t.to_model_id) throw new ValidationError('Provide to_deployment_id or to_model_id');
    const current = await this.access.deployment(userId, id, 'editor');
    const projectId = current.projectId;
    if (t.to_deployment_id) {
      const toId = t.to_deployment_id;
      return this.transition(projectId, async (em) => {
        const target = await em.getRepository(Deployment).findOne({ where: { id: toId }, lock: { mode: 'pessimistic_write' } });
        if (!target || target.projectId !== projectId) throw new ValidationError('to_deployment_id must be a deployment of the same project');
        if (t.to_model_id && t.to_model_id !== target.modelId) throw new ValidationError('to_model_id does not match the model of to_deployment_id');
        if (target.stage === 'production') throw new ConflictError('Deployment is already in production');
        await this.archiveProduction(em, projectId, userId, `rolled back to deployment ${target.name}`);
        const from = target.stage;
        await em.getRepository(Deployment).update({ id: target.id }, { stage: 'production', isActive: true });
        Object.assign(target, { stage: 'production', isActive: true });
        await this.record(em, target, from, userId, t.reason ?? `rollback from deployment ${current.id}`);
        return target;
      });
    }
    const model = await this.projectModel(projectId, t.to_model_id as string);
    return this.transition(projectId, async (em) => {
      await this.archiveProduction(em, projectId, userId, `rolled back to model ${model.name}`);
      const d = em.getRepository(Deployment).create({
        projectId,
        modelId: model.id,
        name: `${current.name} (rollback to ${model.name})`,
        stage: 'production',
        isActive: true,
        trafficPercent: 100,
        config: current.config,
        createdBy: userId,
      });
      await em.getRepository(Deployment).insert(d);
      await this.record(em, d, null, userId, t.reason ?? `rollback from deployment ${current.id} to model ${model.id}`);
      return d;
    });
  }

  /** Stops serving: the deployment is archived and nothing replaces it. Deactivating twice is a no-op. */
  async deactivate(userId: string, id: string, reason?: string): Promise<void> {
    const found = await this.access.deployment(userId, id, 'editor');
    await this.transition(found.projectId, async (em) => {
      const d = await this.lockDeployment(em, id);
      if (!d.isActive) return d;
      const from = d.stage;
      await em.getRepository(Deployment).update({ id: d.id }, { stage: 'archived', isActive: false });
      Object.assign(d, { stage: 'archived', isActive: false });
      await this.record(em, d, from, userId, reason ?? 'deactivated');
      return d;
    });
  }

  /** Replaces the privacy options (and `store_payload`) of a deployment; what is not sent is kept. */
  async updatePrivacy(userId: string, id: string, options: DeploymentOptions): Promise<Deployment> {
    const d = await this.access.deployment(userId, id, 'editor');
    const model = await this.ds.getRepository(Model).findOneByOrFail({ id: d.modelId });
    const config = { ...d.config, ...(await this.checkedOptions(model, pickOptions(options))) };
    await this.ds.getRepository(Deployment).update({ id }, { config });
    this.targets.clear();
    d.config = config;
    return d;
  }

  /** A deployment's transitions, newest first. */
  async transitions(userId: string, id: string, q: PageQuery): Promise<Page<DeploymentTransition>> {
    await this.access.deployment(userId, id);
    const [items, total] = await this.ds.getRepository(DeploymentTransition).findAndCount({ where: { deploymentId: id }, order: { id: 'DESC' }, skip: q.offset, take: q.limit });
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /**
   * The project's transitions, newest first, and with `at`, which deployment (and model) served
   * production at that instant: the latest move into production at or before `at` whose
   * deployment had not left production by then. Moves of one transaction share a timestamp, so
   * order within it is the row id; times compare at the millisecond the API shows.
   */
  async projectHistory(userId: string, projectId: string, q: PageQuery & { at?: Date }) {
    await this.access.project(userId, projectId);
    const [items, total] = await this.ds.getRepository(DeploymentTransition).findAndCount({ where: { projectId }, order: { id: 'DESC' }, skip: q.offset, take: q.limit });
    let servedAt: { at: Date; deployment_id: string; model_id: string; since: Date } | null | undefined;
    if (q.at) {
      const [row] = await this.ds.query(
        `SELECT t.deployment_id, t.model_id, t.at FROM deployment_transitions t
          WHERE t.project_id = $1 AND t.to_stage = 'production' AND date_trunc('milliseconds', t.at) <= $2
            AND NOT EXISTS (SELECT 1 FROM deployment_transitions u
                             WHERE u.deployment_id = t.deployment_id AND u.id > t.id AND date_trunc('milliseconds', u.at) <= $2 AND u.from_stage = 'production')
          ORDER BY t.id DESC LIMIT 1`,
        [projectId, q.at],
      );
      servedAt = row ? { at: q.at, deployment_id: row.deployment_id, model_id: row.model_id, since: row.at } : null;
    }
    return { items, total, limit: q.limit, offset: q.offset, servedAt };
  }

  /**
   * What serves a predict request: an active deployment the user may use, from the short-lived
   * cache. 404 `Deployment not found or inactive` otherwise.
   */
  async target(userId: string, id: string): Promise<ServingTarget> {
    return this.targets.getOrLoad(`${userId}:${id}`, async () => {
      let deployment: Deployment;
      try {
        deployment = await this.access.deployment(userId, id);
      } catch (err) {
        if (err instanceof NotFoundError) throw new NotFoundError(DEPLOYMENT_NOT_FOUND);
        throw err;
      }
      if (!deployment.isActive) throw new NotFoundError(DEPLOYMENT_NOT_FOUND);
      const model = await this.ds.getRepository(Model).findOneByOrFail({ id: deployment.modelId });
      let canary: ServingTarget['canary'] = null;
      if (deployment.stage === 'production') {
        // The newest active staging deployment asking for a share (under 100%) takes it.
        const c = await this.ds
          .getRepository(Deployment)
          .createQueryBuilder('d')
          .where("d.project_id = :p AND d.stage = 'staging' AND d.is_active AND d.traffic_percent < 100", { p: deployment.projectId })
          .orderBy('d.created_at', 'DESC')
          .getOne();
        if (c) canary = { deployment: c, model: await this.ds.getRepository(Model).findOneByOrFail({ id: c.modelId }) };
      }
      return { deployment, model, canary };
    });
  }

  /** Which deployment serves this request (a staging deployment may take a share of production's). */
  route(t: ServingTarget, requestId: string): RoutedRequest {
    return routeRequest(t, requestId);
  }

  predict(r: RoutedRequest, rows: InputRow[], opts: DeploymentPredictOptions) {
    return predictDeployment(this.serving, r, rows, opts);
  }

  /** The deployment's example input (studio schema, API docs): see {@link TrainingExamples}. */
  trainingExample(deployment: Deployment, model: Model): Promise<TrainingExample> {
    return this.examples.of(deployment, model);
  }

  /** An OpenAPI 3.1 fragment for this deployment's predict request, from the model's input schema. */
  async apiDocs(userId: string, id: string) {
    const { deployment, model } = await this.get(userId, id);
    const schema = await this.serving.schema(model);
    const example = await this.trainingExample(deployment, model);
    const properties = Object.fromEntries(schema.map((c) => [c.name, jsonSchemaOf(c.dtype)]));
    const row = { type: 'object', properties, additionalProperties: true };
    const path = `/api/mlops/deployments/${deployment.id}/predict`;
    return {
      openapi: '3.1.0',
      info: { title: `Deployment ${deployment.name}`, version: String(model.id) },
      paths: {
        [path]: {
          post: {
            summary: `Predict with ${model.name} (${model.algo})`,
            'x-required-scope': 'predict:deployments',
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['inputs'],
                    properties: {
                      inputs: { oneOf: [{ $ref: '#/components/schemas/InputRow' }, { type: 'array', items: { $ref: '#/components/schemas/InputRow' }, minItems: 1 }] },
                      options: {
                        type: 'object',
                        properties: {
                          include_contributions: { type: 'boolean', default: false },
                          store_payload: { type: 'boolean' },
                          privacy_policy_id: { type: 'string' },
                          anonymize_logs: { type: 'boolean' },
                          anonymize_response: { type: 'boolean' },
                        },
                      },
                    },
                  },
                  example: { inputs: example.row, options: { include_contributions: false } },
                },
              },
            },
            responses: {
              200: { description: '{predictions, decision_policy, contributions?}' },
              404: { description: 'Deployment not found or inactive' },
              422: { description: 'An input does not match the schema' },
            },
          },
        },
      },
      components: { schemas: { InputRow: row } },
      'x-example-source': example.source,
    };
  }

  /** Forget cached serving targets (a transition, a membership change). */
  forgetTargets(): void {
    this.targets.clear();
  }

  /** A model of the project, or 422 with the spec's text. */
  private async projectModel(projectId: string, modelId: string): Promise<Model> {
    const model = await this.ds.getRepository(Model).findOneBy({ id: modelId });
    if (!model || model.projectId !== projectId) throw new ValidationError('model_id must belong to project');
    return model;
  }

  /**
   * The options as stored: `privacy_column_map` keys must be input columns of the model and its values PII types of
   * the engine (stored as the engine spells them), a policy one of the project's.
   */
  private async checkedOptions(model: Model, options: DeploymentOptions): Promise<JsonMap> {
    if (options.privacy_policy_id) {
      const [policy] = UUID.test(options.privacy_policy_id)
        ? await this.ds.query('SELECT 1 FROM privacy_policies WHERE id = $1 AND project_id = $2', [options.privacy_policy_id, model.projectId])
        : [];
      if (!policy) throw ValidationError.field(['body', 'privacy_policy_id'], 'privacy_policy_id must be a privacy policy of the project');
    }
    const map = options.privacy_column_map;
    if (map) {
      const features = new Set((await this.serving.schema(model)).map((c) => c.name));
      const issues: FieldIssue[] = [];
      const types: Record<string, string> = {};
      for (const [column, type] of Object.entries(map)) {
        const loc = ['body', 'privacy_column_map', column];
        if (!features.has(column)) issues.push({ loc, msg: `${column} is not an input column of the model`, type: 'value_error' });
        // Stored as the engine's id: a policy's rule for the type must find it, and the mask names it.
        const known = PII_TYPE_IDS.get(type.toLowerCase());
        if (known) setOwn(types, column, known);
        else issues.push({ loc, msg: `Unknown PII type: ${type} (see GET /api/privacy/pii-types)`, type: 'value_error' });
      }
      if (issues.length) throw new ValidationError(issues);
      options = { ...options, privacy_column_map: types };
    }
    return options as JsonMap;
  }

  /**
   * Runs a stage change in one transaction, then keeps the project's models' flags in step and
   * forgets cached serving targets. A unique violation of the one-production index means another
   * move made a different deployment production first: 409 with a readable text.
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
      this.targets.clear();
    }
  }

  private async lockDeployment(em: EntityManager, id: string): Promise<Deployment> {
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
    for (const d of current) {
      await em.getRepository(Deployment).update({ id: d.id }, { stage: 'archived', isActive: false });
      Object.assign(d, { stage: 'archived', isActive: false });
      await this.record(em, d, 'production', actor, reason);
    }
  }

  private async record(em: EntityManager, d: Deployment, from: DeploymentStage | null, actor: string, reason: string): Promise<void> {
    await em.getRepository(DeploymentTransition).insert({ deploymentId: d.id, projectId: d.projectId, fromStage: from, toStage: d.stage, modelId: d.modelId, actorId: actor, reason });
  }
}

/** JSON Schema of an input column, by its dataset dtype. */
function jsonSchemaOf(dtype: string): Record<string, unknown> {
  if (dtype === 'int64') return { type: ['integer', 'null'] };
  if (dtype === 'float64') return { type: ['number', 'null'] };
  if (dtype === 'bool') return { type: ['boolean', 'null'] };
  if (dtype === 'datetime64') return { type: ['string', 'null'], format: 'date-time' };
  return { type: ['string', 'null'] };
}

function pickOptions(p: DeploymentOptions): DeploymentOptions {
  const out: Record<string, unknown> = {};
  for (const k of OPTION_KEYS) if (p[k] !== undefined) out[k] = p[k];
  return out as DeploymentOptions;
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

import { In, type DataSource } from 'typeorm';
import { ColumnSchema, Deployment, DeploymentStage, DeploymentTransition, JsonMap, Model } from '../entities';
import { setOwn } from '../engine/own-keys';
import { piiTypes } from '../engine/privacy';
import type { Access } from './access';
import { FieldIssue, ValidationError } from './errors';
import type { DatasetVersions } from './dataset-versions';
import { DeploymentPredictOptions, predictDeployment } from './deployment-predictions';
import { routeRequest, RoutedRequest } from './deployment-routing';
import { DeploymentStages } from './deployment-stages';
import { ServingTarget, ServingTargets } from './deployment-targets';
import type { Page, PageQuery } from './lists';
import type { InputRow, ModelServing } from './model-serving';
import { TrainingExample, TrainingExamples } from './training-example';

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The engine's PII type ids, by their lower-case spelling (a map names `EMAIL` or `email` alike). */
const PII_TYPE_IDS = new Map(piiTypes().map((t) => [t.id.toLowerCase(), t.id]));

const OPTION_KEYS: (keyof DeploymentOptions)[] = ['privacy_policy_id', 'privacy_anonymize_logs', 'privacy_anonymize_response', 'privacy_column_map', 'privacy_threshold', 'store_payload'];

/** What a deployment's predict documentation is made of (api/ renders it as an OpenAPI fragment). */
export interface PredictDocsSource {
  deployment: Deployment;
  model: Model;
  columns: ColumnSchema[];
  example: TrainingExample;
}

/**
 * Deployments: the commands and queries requests use. Stage moves go through the stage machine
 * ({@link DeploymentStages}), predict requests through the serving cache ({@link ServingTargets})
 * and the traffic split ({@link routeRequest}); this class checks access and input first.
 */
export class DeploymentService {
  private readonly targets: ServingTargets;
  /** The stage machine, for the moves rollouts make (services/rollouts.ts, activities/rollout/). */
  readonly stages: DeploymentStages;
  private readonly examples: TrainingExamples;

  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly serving: ModelServing,
    datasetVersions: DatasetVersions,
  ) {
    this.targets = new ServingTargets(ds, access);
    this.stages = new DeploymentStages(ds, () => this.targets.forget());
    serving.onForget(() => this.targets.forget());
    this.examples = new TrainingExamples(ds, serving, datasetVersions);
  }

  async create(userId: string, projectId: string, p: CreateDeployment): Promise<Deployment> {
    if (p.stage !== 'staging' && p.stage !== 'production') throw new ValidationError("stage must be 'staging' or 'production'");
    const stage: DeploymentStage = p.stage;
    await this.access.project(userId, projectId, 'editor');
    const model = await this.projectModel(projectId, p.model_id);
    const config = await this.checkedOptions(model, pickOptions(p));
    return this.stages.create(userId, { projectId, modelId: model.id, name: p.name, stage, trafficPercent: p.traffic_percent, config });
  }

  async list(userId: string, projectId: string, q: PageQuery): Promise<Page<Deployment> & { modelNames: Map<string, string> }> {
    await this.access.project(userId, projectId);
    const [items, total] = await this.ds.getRepository(Deployment).findAndCount({ where: { projectId }, order: { createdAt: 'DESC', id: 'DESC' }, skip: q.offset, take: q.limit });
    return { items, total, limit: q.limit, offset: q.offset, modelNames: await this.modelNames(items) };
  }

  /** The names of the models a page of rows names (one query), so lists print a model's name, not its id. */
  private async modelNames(rows: { modelId: string }[]): Promise<Map<string, string>> {
    const ids = [...new Set(rows.map((r) => r.modelId))];
    if (!ids.length) return new Map();
    const models = await this.ds.getRepository(Model).find({ where: { id: In(ids) }, select: { id: true, name: true } });
    return new Map(models.map((m) => [m.id, m.name]));
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
    return this.stages.promote(userId, found.projectId, id, reason);
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
      return this.stages.rollbackToDeployment(userId, projectId, t.to_deployment_id, t.to_model_id, t.reason ?? `rollback from deployment ${current.id}`);
    }
    const model = await this.projectModel(projectId, t.to_model_id as string);
    const fields = {
      projectId,
      modelId: model.id,
      modelName: model.name,
      name: `${current.name} (rollback to ${model.name})`,
      stage: 'production' as const,
      trafficPercent: 100,
      config: current.config,
    };
    return this.stages.rollbackToModel(userId, fields, t.reason ?? `rollback from deployment ${current.id} to model ${model.id}`);
  }

  /** Stops serving: the deployment is archived and nothing replaces it. Deactivating twice is a no-op. */
  async deactivate(userId: string, id: string, reason?: string): Promise<void> {
    const found = await this.access.deployment(userId, id, 'editor');
    await this.stages.deactivate(userId, found.projectId, id, reason);
  }

  /** Replaces the privacy options (and `store_payload`) of a deployment; what is not sent is kept. */
  async updatePrivacy(userId: string, id: string, options: DeploymentOptions): Promise<Deployment> {
    const d = await this.access.deployment(userId, id, 'editor');
    const model = await this.ds.getRepository(Model).findOneByOrFail({ id: d.modelId });
    const config = { ...d.config, ...(await this.checkedOptions(model, pickOptions(options))) };
    await this.ds.getRepository(Deployment).update({ id }, { config });
    this.targets.forget();
    d.config = config;
    return d;
  }

  /** A deployment's transitions, newest first. */
  async transitions(userId: string, id: string, q: PageQuery): Promise<Page<DeploymentTransition> & { modelNames: Map<string, string> }> {
    await this.access.deployment(userId, id);
    const [items, total] = await this.ds.getRepository(DeploymentTransition).findAndCount({ where: { deploymentId: id }, order: { id: 'DESC' }, skip: q.offset, take: q.limit });
    return { items, total, limit: q.limit, offset: q.offset, modelNames: await this.modelNames(items) };
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
    return { items, total, limit: q.limit, offset: q.offset, servedAt, modelNames: await this.modelNames(items) };
  }

  /**
   * What serves a predict request: an active deployment the user may use, from the short-lived
   * cache. 404 `Deployment not found or inactive` otherwise.
   */
  target(userId: string, id: string): Promise<ServingTarget> {
    return this.targets.get(userId, id);
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

  /** What the deployment's predict documentation shows: the model's input columns and an example row. */
  async predictDocs(userId: string, id: string): Promise<PredictDocsSource> {
    const { deployment, model } = await this.get(userId, id);
    const columns = await this.serving.schema(model);
    const example = await this.trainingExample(deployment, model);
    return { deployment, model, columns, example };
  }

  /** Forget cached serving targets (a transition, a membership change). */
  forgetTargets(): void {
    this.targets.forget();
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
}

function pickOptions(p: DeploymentOptions): DeploymentOptions {
  const out: Record<string, unknown> = {};
  for (const k of OPTION_KEYS) if (p[k] !== undefined) out[k] = p[k];
  return out as DeploymentOptions;
}

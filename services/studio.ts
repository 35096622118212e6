import type { DataSource, EntityManager } from 'typeorm';
import { Contribution, Deployment, Experiment, JsonMap, Model, StudioScenario, StudioSession } from '../entities';
import { getOwn } from '../engine/own-keys';
import { Access, DEPLOYMENT_NOT_FOUND } from './access';
import type { DeploymentService } from './deployments';
import { predictDeployment } from './deployment-predictions';
import { ConflictError, DataError, DomainError, FieldIssue, InternalError, NotFoundError, ValidationError } from './errors';
import type { Page, PageQuery } from './lists';
import type { ModelServing } from './model-serving';
import { scenarioDelta, ScenarioDelta } from './studio-compare';

/** A request's feature value: what a JSON scalar can be. */
export type FeatureValue = string | number | boolean | null;

export interface CreateSession {
  project_id: string;
  deployment_id: string;
  baseline_input: Record<string, FeatureValue>;
}

export interface CreateScenario {
  name: string;
  description?: string | null;
  changes: Record<string, FeatureValue>;
}

/**
 * Scenarios one session holds: its detail answer carries all of them, so it stays bounded
 * whatever a client creates.
 */
export const MAX_SCENARIOS_PER_SESSION = 100;
/** Unknown keys named in one answer. */
const MAX_KEY_ISSUES = 20;

export const BASELINE_PREDICTION_FAILED = 'Baseline prediction failed';
/** The 409 of a user at MAX_STUDIO_SESSIONS_PER_USER in a project. */
export const TOO_MANY_SESSIONS = (cap: number) => `You hold ${cap} studio sessions in this project, the most allowed; delete sessions you no longer need to start another`;
export const SCENARIO_PREDICTION_FAILED = 'Scenario prediction failed';

/** A deployment's inputs as the studio shows them, with an example input built from training statistics (services/training-example.ts). */
export interface DeploymentSchema {
  deployment: Deployment;
  model: Model;
  datasetVersionId: string | null;
  targetColumn: string | null;
  featureSchema: Record<string, string>;
  exampleInput: Record<string, unknown>;
  exampleSource: string;
}

export interface Comparison {
  baseline: { output: JsonMap; contributions: Contribution[] };
  scenarios: { id: string; name: string; output: JsonMap; delta: ScenarioDelta }[];
}

/**
 * The what-if studio: a session scores a baseline row with an active deployment's model, its
 * scenarios change some features of it and are scored the same way, and the comparison says
 * what moved. Scoring goes through the deployment predict path (same decision policy, same
 * contributions), addressed to the deployment itself: no traffic split applies, and studio
 * predictions are not inference logs, so what-if rows never feed the deployment's drift or
 * traffic figures.
 */
export class StudioService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly serving: ModelServing,
    private readonly deployments: DeploymentService,
    private readonly limits: { maxSessionsPerUser: number | null },
  ) {}

  /** The feature schema of an active deployment and its example input (never a training row). */
  async schema(userId: string, deploymentId: string): Promise<DeploymentSchema> {
    const deployment = await this.access.deployment(userId, deploymentId);
    const model = await this.servedModel(deployment);
    const example = await this.deployments.trainingExample(deployment, model);
    return {
      deployment,
      model,
      datasetVersionId: example.datasetVersionId,
      targetColumn: example.targetColumn,
      featureSchema: await this.featureSchema(model),
      exampleInput: example.row,
      exampleSource: example.source,
    };
  }

  /**
   * Scores the baseline and stores it with the schema it was scored against. Keys must be
   * features (the target column is accepted and dropped, so a training row can be pasted);
   * features not sent are missing values, which the model handles.
   */
  async createSession(userId: string, p: CreateSession): Promise<StudioSession> {
    await this.access.project(userId, p.project_id, 'editor');
    // Before the scoring, so a caller at the cap costs no prediction; checked again under the lock below.
    await this.ds.transaction((em) => this.assertBelowSessionCap(em, userId, p.project_id));
    const deployment = await this.ds.getRepository(Deployment).findOneBy({ id: p.deployment_id });
    if (!deployment || deployment.projectId !== p.project_id) throw new NotFoundError(DEPLOYMENT_NOT_FOUND);
    const model = await this.servedModel(deployment);
    const featureSchema = await this.featureSchema(model);
    const target = (await this.ds.getRepository(Experiment).findOneBy({ id: model.experimentId }))?.targetColumn ?? null;
    const unknown = Object.keys(p.baseline_input).filter((k) => !Object.hasOwn(featureSchema, k) && k !== target);
    if (unknown.length) throw keyIssues('baseline_input', unknown, target);
    const baselineInput = Object.fromEntries(Object.keys(featureSchema).map((f) => [f, getOwn(p.baseline_input, f) ?? null]));
    let scored: Scored;
    try {
      scored = await this.score(deployment, model, baselineInput);
    } catch (err) {
      throw baselineFailure(err);
    }
    const session = this.ds.getRepository(StudioSession).create({
      projectId: p.project_id,
      deploymentId: deployment.id,
      featureSchema,
      baselineInput,
      baselineOutput: scored.output,
      baselineContributions: scored.contributions,
      createdBy: userId,
    });
    await this.ds.transaction(async (em) => {
      await this.assertBelowSessionCap(em, userId, p.project_id);
      await em.getRepository(StudioSession).insert(session);
    });
    return session;
  }

  /** Deletes a session and its scenarios (editor). */
  async deleteSession(userId: string, sessionId: string): Promise<void> {
    const session = await this.access.studioSession(userId, sessionId, 'editor');
    await this.ds.getRepository(StudioSession).delete({ id: session.id });
  }

  /**
   * 409 once the user holds `maxSessionsPerUser` sessions in the project: sessions are stored
   * rows (baseline, schema, scenarios), and nothing else bounds how many a client creates. Per
   * user, so one member's sessions never use up another's. The lock (held to the end of `em`'s
   * transaction) makes concurrent creates count one another.
   */
  private async assertBelowSessionCap(em: EntityManager, userId: string, projectId: string): Promise<void> {
    const cap = this.limits.maxSessionsPerUser;
    if (cap === null) return;
    await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`studio-sessions:${projectId}:${userId}`]);
    const held = await em.getRepository(StudioSession).countBy({ projectId, createdBy: userId });
    if (held >= cap) throw new ConflictError(TOO_MANY_SESSIONS(cap));
  }

  /** The project's sessions, newest first, without their stored rows (lists show ids and times). */
  async listSessions(userId: string, projectId: string, q: PageQuery): Promise<Page<StudioSession>> {
    await this.access.project(userId, projectId);
    const [items, total] = await this.ds.getRepository(StudioSession).findAndCount({
      select: { id: true, projectId: true, deploymentId: true, createdAt: true },
      where: { projectId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: q.offset,
      take: q.limit,
    });
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /** A session with its scenarios, oldest first. */
  async getSession(userId: string, sessionId: string): Promise<{ session: StudioSession; scenarios: StudioScenario[] }> {
    const session = await this.access.studioSession(userId, sessionId);
    const scenarios = await this.ds.getRepository(StudioScenario).find({ where: { sessionId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return { session, scenarios };
  }

  /**
   * A pending scenario: the baseline with `changes` applied, fixed now (the baseline never
   * changes). Keys must be features of the session's schema; the session's deployment must
   * still serve, since only then can the scenario run.
   */
  async createScenario(userId: string, sessionId: string, p: CreateScenario): Promise<StudioScenario> {
    const found = await this.access.studioSession(userId, sessionId, 'editor');
    await this.linkedDeployment(found);
    const unknown = Object.keys(p.changes).filter((k) => !Object.hasOwn(found.featureSchema, k));
    if (unknown.length) throw keyIssues('changes', unknown, null);
    return this.ds.transaction(async (em) => {
      // The session row's lock makes the count and the insert one step for concurrent creates.
      const session = await em.getRepository(StudioSession).findOne({ where: { id: sessionId }, lock: { mode: 'pessimistic_write' } });
      if (!session) throw new NotFoundError('Studio session not found');
      const count = await em.getRepository(StudioScenario).countBy({ sessionId });
      if (count >= MAX_SCENARIOS_PER_SESSION) throw new ConflictError(`A studio session holds at most ${MAX_SCENARIOS_PER_SESSION} scenarios; start a new session`);
      const scenario = em.getRepository(StudioScenario).create({
        sessionId,
        projectId: session.projectId,
        name: p.name,
        description: p.description ?? null,
        changes: p.changes,
        status: 'pending',
        scenarioInput: { ...session.baselineInput, ...p.changes },
        output: null,
        contributions: null,
        error: null,
      });
      await em.getRepository(StudioScenario).insert(scenario);
      return scenario;
    });
  }

  /**
   * Scores a scenario's input: `running`, then `succeeded` with output and contributions, or
   * `failed` with the error it is answered with (an input the model cannot read is the user's
   * data: 422). The input is fixed, so running again gives the same result.
   */
  async runScenario(userId: string, scenarioId: string): Promise<StudioScenario> {
    const scenario = await this.access.studioScenario(userId, scenarioId, 'editor');
    const session = await this.ds.getRepository(StudioSession).findOneByOrFail({ id: scenario.sessionId });
    const { deployment, model } = await this.linkedDeployment(session);
    const repo = this.ds.getRepository(StudioScenario);
    await repo.update({ id: scenario.id }, { status: 'running', output: null, contributions: null, error: null });
    try {
      const scored = await this.score(deployment, model, scenario.scenarioInput);
      const done = { status: 'succeeded' as const, output: scored.output, contributions: scored.contributions, error: null };
      await repo.update({ id: scenario.id }, done);
      return Object.assign(scenario, done);
    } catch (err) {
      const failure = scenarioFailure(err);
      await repo.update({ id: scenario.id }, { status: 'failed', error: failure.message });
      throw failure;
    }
  }

  /** The baseline and every succeeded scenario (oldest first), with what each changed. */
  async compare(userId: string, sessionId: string): Promise<Comparison> {
    const session = await this.access.studioSession(userId, sessionId);
    const done = await this.ds.getRepository(StudioScenario).find({ where: { sessionId, status: 'succeeded' }, order: { createdAt: 'ASC', id: 'ASC' } });
    const baseline = { output: session.baselineOutput, contributions: session.baselineContributions };
    return {
      baseline,
      scenarios: done.map((s) => {
        const scored = { output: s.output ?? {}, contributions: s.contributions ?? [] };
        return { id: s.id, name: s.name, output: scored.output, delta: scenarioDelta(baseline, scored) };
      }),
    };
  }

  /** The session's deployment and model while it serves; 404 with the spec's text once it does not. */
  private async linkedDeployment(session: StudioSession): Promise<{ deployment: Deployment; model: Model }> {
    const deployment = await this.ds.getRepository(Deployment).findOneBy({ id: session.deploymentId });
    if (!deployment) throw new NotFoundError(DEPLOYMENT_NOT_FOUND);
    return { deployment, model: await this.servedModel(deployment) };
  }

  private async servedModel(deployment: Deployment): Promise<Model> {
    if (!deployment.isActive) throw new NotFoundError(DEPLOYMENT_NOT_FOUND);
    return this.ds.getRepository(Model).findOneByOrFail({ id: deployment.modelId });
  }

  private async featureSchema(model: Model): Promise<Record<string, string>> {
    return Object.fromEntries((await this.serving.schema(model)).map((c) => [c.name, c.dtype]));
  }

  /**
   * One row through the deployment predict path, with contributions where the model has them
   * (a StackedEnsemble has none: its sessions compare predictions only). Not logged as an
   * inference: what-if rows are not traffic and must not move drift.
   */
  private async score(deployment: Deployment, model: Model, row: JsonMap): Promise<Scored> {
    const explain = model.algo !== 'StackedEnsemble';
    const out = await predictDeployment(this.serving, { requested: deployment, deployment, model }, [row], { include_contributions: explain });
    return { output: { ...out.predictions[0] }, contributions: out.contributions?.[0] ?? [] };
  }
}

interface Scored {
  output: JsonMap;
  contributions: Contribution[];
}

/** 422 naming the keys that are not features (at most MAX_KEY_ISSUES of them). */
function keyIssues(field: string, keys: string[], target: string | null): ValidationError {
  const issues: FieldIssue[] = keys.slice(0, MAX_KEY_ISSUES).map((k) => ({
    loc: ['body', field, k],
    msg: k === target ? `${k} is the target column, not a feature` : `${k} is not a feature of the deployed model`,
    type: 'value_error',
  }));
  if (keys.length > MAX_KEY_ISSUES) issues.push({ loc: ['body', field], msg: `${keys.length - MAX_KEY_ISSUES} more keys are not features of the deployed model`, type: 'value_error' });
  return new ValidationError(issues);
}

/** A value the model cannot read is named at its place in the request; anything else is the spec's 500. */
function baselineFailure(err: unknown): unknown {
  if (err instanceof ValidationError && err.issues) {
    return new ValidationError(err.issues.map((i) => ({ ...i, loc: ['body', 'baseline_input', ...i.loc.slice(3)] })));
  }
  if (err instanceof DomainError && !(err instanceof InternalError)) return err;
  return new InternalError(BASELINE_PREDICTION_FAILED);
}

/**
 * The error a failed run is answered with, and stored as the scenario's `error`: the run's
 * request has no body, so an input the model cannot read is one sentence naming the features.
 */
function scenarioFailure(err: unknown): DomainError {
  if (err instanceof ValidationError) return new DataError(`${SCENARIO_PREDICTION_FAILED}: ${err.issues ? err.issues.map((i) => i.msg).join('; ') : err.message}`);
  if (err instanceof DomainError && !(err instanceof InternalError)) return err;
  return new InternalError(SCENARIO_PREDICTION_FAILED);
}

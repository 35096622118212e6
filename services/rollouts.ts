/**
 * Rollout strategies (canary, blue-green, shadow): the commands and queries requests and other services use.
 *
 * For the retraining service (no HTTP):
 *   startCanary(actor: string, deploymentId: string, input: CanaryInput): Promise<RolloutView>
 *   startShadow(actor: string, deploymentId: string, input: ShadowInput): Promise<RolloutView>
 *   startBlueGreen(actor: string, deploymentId: string, input: BlueGreenInput): Promise<RolloutView>
 *   get(rolloutId: string): Promise<RolloutView>        (no access check: the caller already holds the id)
 * `actor` must be an editor of the deployment's project; a rollout's final states are promoted, rolled_back, aborted,
 * completed and failed (RolloutView.state).
 */
import type { DataSource, EntityManager } from 'typeorm';
import { Deployment, Model, OPEN_ROLLOUT_STATES, Rollout, RolloutGate, RolloutKind, RolloutOptions, RolloutState, RolloutStep } from '../entities';
import type { Config } from '../platform/config';
import type { TemporalGateway } from '../platform/temporal-client';
import { ROLLOUT_STATE_QUERY, RolloutLiveState, RolloutSignal, rolloutWorkflowId } from '../workflows/rollout-input';
import type { Access, ProjectRole } from './access';
import { ConflictError, NotFoundError, UnavailableError, ValidationError } from './errors';
import type { Logger } from '../platform/logger';
import type { RoutedRequest } from './deployment-routing';
import type { RolloutMark, ServingTarget } from './deployment-targets';
import type { DeploymentService } from './deployments';
import type { InferenceLogs } from './inference-logs';
import type { Page, PageQuery } from './lists';
import { compareShadow, mirrorToShadow, type ShadowComparison } from './rollout-shadow';

/** The rollout's value types, for the workflow (which imports services as types only, entities not at all). */
export type { GateResult, RolloutState } from '../entities';

export const ROLLOUT_NOT_FOUND = 'Rollout not found';

/** The partial unique index that allows one open rollout per deployment. */
const ONE_OPEN_INDEX = 'uq_rollouts_one_open';

/** The candidate: a model of the project, or a registry version (its model). */
export interface CandidateRef {
  model_id?: string;
  version_id?: string;
}

export interface CanaryInput extends CandidateRef {
  steps: { traffic_percent: number; pause_secs: number; gates?: (Omit<RolloutGate, 'min_samples'> & { min_samples?: number })[] }[];
  /** 5-3600, default 60. */
  gate_interval_secs?: number;
  on_success?: 'promote' | 'hold';
}

export interface BlueGreenInput extends CandidateRef {
  /** 0-86400, default 600. */
  keep_previous_secs?: number;
  /** Warm-up predictions before the switch (default 1). */
  warmup_requests?: number;
}

export interface ShadowInput extends CandidateRef {
  /** 1-100, default 100. */
  sample_percent?: number;
  /** Mirror this long, then complete; absent: until promoted or aborted. */
  duration_secs?: number;
}

/** How a production deployment's requests are split (GET/PUT …/traffic). */
export interface TrafficSplit {
  stable: { deployment_id: string; traffic_percent: number };
  candidate: { deployment_id: string; traffic_percent: number; rollout_id: string | null } | null;
  shadow: { deployment_id: string; sample_percent: number; rollout_id: string | null } | null;
  rollout_id: string | null;
}

/** A rollout as answered: the row, its live fields from the workflow when it answers. */
export type RolloutView = Rollout;

export const DEFAULT_GATE_INTERVAL_SECS = 60;
export const DEFAULT_KEEP_PREVIOUS_SECS = 600;
/** Gates count no fewer observations than this unless told (a handful of requests decides nothing). */
export const DEFAULT_GATE_MIN_SAMPLES = 10;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Which signals each open state takes; the rest answer 409. */
const SIGNALS_IN: Record<'running' | 'paused', RolloutSignal[]> = {
  running: ['pause', 'abort', 'promote', 'rollback'],
  paused: ['resume', 'abort', 'promote', 'rollback'],
};

export class RolloutService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly temporal: TemporalGateway,
    private readonly config: Config,
    private readonly deployments: DeploymentService,
    private readonly inferenceLogs: InferenceLogs,
    private readonly log: Logger,
  ) {}

  startCanary(actor: string, deploymentId: string, input: CanaryInput): Promise<RolloutView> {
    if (!input.steps?.length || input.steps.length > 20) throw ValidationError.field(['body', 'steps'], 'steps must hold 1 to 20 steps');
    const steps: RolloutStep[] = input.steps.map((s) => ({
      traffic_percent: s.traffic_percent,
      pause_secs: s.pause_secs,
      gates: (s.gates ?? []).map((g) => ({ metric: g.metric, op: g.op, threshold: g.threshold, min_samples: g.min_samples ?? DEFAULT_GATE_MIN_SAMPLES })),
    }));
    const options: RolloutOptions = { gate_interval_secs: input.gate_interval_secs ?? DEFAULT_GATE_INTERVAL_SECS, on_success: input.on_success ?? 'promote' };
    return this.start(actor, deploymentId, 'canary', input, steps, options);
  }

  startBlueGreen(actor: string, deploymentId: string, input: BlueGreenInput): Promise<RolloutView> {
    const options: RolloutOptions = { keep_previous_secs: input.keep_previous_secs ?? DEFAULT_KEEP_PREVIOUS_SECS, warmup_requests: input.warmup_requests ?? 1 };
    return this.start(actor, deploymentId, 'blue_green', input, [], options);
  }

  startShadow(actor: string, deploymentId: string, input: ShadowInput): Promise<RolloutView> {
    const options: RolloutOptions = { sample_percent: input.sample_percent ?? 100, duration_secs: input.duration_secs ?? null };
    return this.start(actor, deploymentId, 'shadow', input, [], options);
  }

  /** A rollout by id, with its live state (no access check: for services that hold the id). */
  async get(rolloutId: string): Promise<RolloutView> {
    const r = UUID.test(rolloutId) ? await this.ds.getRepository(Rollout).findOneBy({ id: rolloutId }) : null;
    if (!r) throw new NotFoundError(ROLLOUT_NOT_FOUND);
    return this.withLiveState(r);
  }

  /** A rollout the user may see (another project's is 404). */
  async getFor(userId: string, rolloutId: string): Promise<RolloutView> {
    return this.withLiveState(await this.load(userId, rolloutId));
  }

  /** The deployment's rollouts (as stable), newest first. */
  async list(userId: string, deploymentId: string, q: PageQuery): Promise<Page<RolloutView>> {
    await this.access.deployment(userId, deploymentId);
    const [items, total] = await this.ds.getRepository(Rollout).findAndCount({ where: { deploymentId }, order: { createdAt: 'DESC', id: 'DESC' }, skip: q.offset, take: q.limit });
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /** Pause, resume, abort, promote or roll back an open rollout: a signal its workflow acts on. 409 once it ended. */
  async signal(userId: string, rolloutId: string, signal: RolloutSignal): Promise<RolloutView> {
    const r = await this.withLiveState(await this.load(userId, rolloutId, 'editor'));
    if (r.state !== 'running' && r.state !== 'paused') throw new ConflictError(`Rollout is ${r.state}`);
    if (!SIGNALS_IN[r.state].includes(signal)) throw new ConflictError(`Rollout is ${r.state}; ${signal} does not apply`);
    if (signal === 'rollback' && r.kind === 'shadow') throw new ConflictError('A shadow rollout serves nothing to roll back; abort it');
    try {
      const client = await this.temporal.get();
      await client.workflow.getHandle(r.workflowId).signal(signal, { by: userId });
    } catch (err) {
      if ((err as Error).name !== 'WorkflowNotFoundError') throw new UnavailableError('The rollout could not be reached; try again');
      await this.closeLost(r, userId);
      throw new ConflictError('Rollout has ended: its workflow is gone, so it was closed as failed and its candidate taken out of serving');
    }
    return r;
  }

  /**
   * An open rollout whose workflow Temporal no longer knows (a dev server restarted without its state): nothing will
   * move it again, so it is closed `failed` and its staging candidate stops serving, freeing the deployment.
   */
  private async closeLost(r: Rollout, userId: string): Promise<void> {
    const c = r.candidateDeploymentId ? await this.ds.getRepository(Deployment).findOneBy({ id: r.candidateDeploymentId }) : null;
    const reason = 'The rollout workflow was lost';
    if (c && c.isActive && c.stage === 'staging') await this.deployments.stages.deactivate(userId, r.projectId, c.id, `rollout ${r.id}: ${reason}`);
    await this.ds.query(`UPDATE rollouts SET state = 'failed', reason = $2, finished_at = now(), updated_at = now(), history = history || $3::jsonb WHERE id = $1 AND state IN ('running','paused')`, [
      r.id,
      reason,
      JSON.stringify([{ at: new Date().toISOString(), event: 'failed', detail: reason }]),
    ]);
  }

  /**
   * Mirrors a served request to the deployment's shadow candidate, if it has one: after the answer is sent (the
   * response's `finish`), so it never delays or changes it. Errors are logged, not thrown.
   */
  mirrorAfter(res: { once(event: 'finish', fn: () => void): unknown }, t: ServingTarget, served: RoutedRequest, e: Parameters<typeof mirrorToShadow>[3]): void {
    if (!t.shadow) return;
    res.once('finish', () => {
      mirrorToShadow({ deployments: this.deployments, inferenceLogs: this.inferenceLogs, log: this.log }, t, served, e).catch((err: Error) =>
        this.log.warn({ err: err.message }, 'shadow mirroring failed'),
      );
    });
  }

  /** The comparison of the deployment's latest shadow rollout (open or ended): 404 when it never had one. */
  async shadowComparison(userId: string, deploymentId: string, tolerance: number): Promise<ShadowComparison> {
    await this.access.deployment(userId, deploymentId);
    const r = await this.ds.getRepository(Rollout).findOne({ where: { deploymentId, kind: 'shadow' }, order: { createdAt: 'DESC', id: 'DESC' } });
    if (!r || !r.candidateDeploymentId) throw new NotFoundError('No shadow rollout for this deployment');
    await this.inferenceLogs.flush();
    return compareShadow(this.ds, { stableId: deploymentId, shadowId: r.candidateDeploymentId, rolloutId: r.id, since: r.createdAt, tolerance });
  }

  /** How the deployment's requests are split now: the stable, the canary share and the shadow sample. */
  async trafficSplit(userId: string, deploymentId: string): Promise<TrafficSplit> {
    const d = await this.access.deployment(userId, deploymentId);
    return this.split(d);
  }

  /**
   * A canary share set by hand on the deployment (production): `candidate_deployment_id` (an active staging deployment
   * of the project; default: the one taking its traffic now) takes `traffic_percent` (100: none, the existing meaning),
   * recorded in the candidate's rollback history. While a canary rollout runs its steps own the share (409); paused, a
   * share set here holds until it resumes and its next step sets its own.
   */
  async setTraffic(userId: string, deploymentId: string, p: { candidate_deployment_id?: string; traffic_percent: number }): Promise<TrafficSplit> {
    const d = await this.access.deployment(userId, deploymentId, 'editor');
    if (!d.isActive || d.stage !== 'production') throw new ConflictError('Traffic is split from an active production deployment');
    const open = await this.openFor(d.id);
    if (open && open.kind === 'canary' && open.state === 'running') throw new ConflictError('A canary rollout is running on this deployment; pause it first');
    let candidateId = p.candidate_deployment_id;
    if (!candidateId) {
      candidateId = (await this.split(d)).candidate?.deployment_id;
      if (!candidateId) throw ValidationError.field(['body', 'candidate_deployment_id'], 'candidate_deployment_id is required: no staging deployment takes traffic of this deployment');
    }
    const c = UUID.test(candidateId) ? await this.ds.getRepository(Deployment).findOneBy({ id: candidateId }) : null;
    if (!c || c.projectId !== d.projectId || c.stage !== 'staging' || !c.isActive) {
      throw ValidationError.field(['body', 'candidate_deployment_id'], 'candidate_deployment_id must be an active staging deployment of the same project');
    }
    await this.deployments.stages.setTraffic(userId, d.projectId, c.id, p.traffic_percent, `set by hand on deployment ${d.name}`);
    if (open && open.candidateDeploymentId === c.id) {
      await this.ds.query(`UPDATE rollouts SET current_traffic_percent = $2, history = history || $3::jsonb, updated_at = now() WHERE id = $1`, [
        open.id,
        p.traffic_percent,
        JSON.stringify([{ at: new Date().toISOString(), event: 'traffic_set', detail: `traffic set by hand to ${p.traffic_percent}%` }]),
      ]);
    }
    return this.split(d);
  }

  private async split(d: Deployment): Promise<TrafficSplit> {
    const open = await this.openFor(d.id);
    if (d.stage !== 'production' || !d.isActive) return { stable: { deployment_id: d.id, traffic_percent: d.isActive ? 100 : 0 }, candidate: null, shadow: null, rollout_id: open?.id ?? null };
    const staging = await this.ds
      .getRepository(Deployment)
      .createQueryBuilder('d')
      .where("d.project_id = :p AND d.stage = 'staging' AND d.is_active", { p: d.projectId })
      .orderBy('d.created_at', 'DESC')
      .getMany();
    const mark = (x: Deployment) => (x.config as { rollout?: RolloutMark }).rollout;
    // As services/deployment-targets.ts routes: the newest staging deployment under 100% (or a canary candidate).
    const canary = staging.find((x) => x.trafficPercent < 100 || mark(x)?.role === 'canary');
    const shadow = staging.find((x) => mark(x)?.role === 'shadow' && mark(x)?.of === d.id);
    const share = canary ? canary.trafficPercent : 0;
    return {
      stable: { deployment_id: d.id, traffic_percent: 100 - share },
      candidate: canary ? { deployment_id: canary.id, traffic_percent: share, rollout_id: mark(canary)?.rollout_id ?? null } : null,
      shadow: shadow ? { deployment_id: shadow.id, sample_percent: mark(shadow)?.sample_percent ?? 100, rollout_id: mark(shadow)?.rollout_id ?? null } : null,
      rollout_id: open?.id ?? null,
    };
  }

  /** The open rollout of a deployment (as stable), if any. */
  openFor(deploymentId: string, em: EntityManager = this.ds.manager): Promise<Rollout | null> {
    return em.getRepository(Rollout).createQueryBuilder('r').where('r.deployment_id = :deploymentId AND r.state IN (:...open)', { deploymentId, open: OPEN_ROLLOUT_STATES }).getOne();
  }

  private async start(actor: string, deploymentId: string, kind: RolloutKind, ref: CandidateRef, steps: RolloutStep[], options: RolloutOptions): Promise<RolloutView> {
    const stable = await this.access.deployment(actor, deploymentId, 'editor');
    if (!stable.isActive || stable.stage !== 'production') throw new ConflictError('A rollout starts from an active production deployment');
    const { modelId, versionId } = await this.candidate(stable, ref);
    const row = this.ds.getRepository(Rollout).create({
      projectId: stable.projectId,
      deploymentId: stable.id,
      candidateModelId: modelId,
      versionId,
      candidateDeploymentId: null,
      kind,
      state: 'running',
      stepIndex: 0,
      steps,
      options: options as Rollout['options'],
      currentTrafficPercent: 0,
      gatesLast: [],
      history: [{ at: new Date().toISOString(), event: 'started', detail: `${kind} of model ${modelId} against deployment ${stable.name}` }],
      reason: null,
      createdBy: actor,
      finishedAt: null,
    });
    row.workflowId = rolloutWorkflowId(this.queuePrefix(), row.id);
    try {
      await this.ds.getRepository(Rollout).insert(row);
    } catch (err) {
      const e = err as { code?: string; constraint?: string; driverError?: { constraint?: string } };
      if (e.code === '23505' && (e.constraint ?? e.driverError?.constraint) === ONE_OPEN_INDEX) throw new ConflictError('The deployment already has an open rollout');
      throw err;
    }
    try {
      const client = await this.temporal.get();
      await client.workflow.start('rolloutWorkflow', { workflowId: row.workflowId, taskQueue: this.config.taskQueues.io, args: [{ rolloutId: row.id }] });
    } catch {
      // Nothing was changed yet: the row is closed so the deployment is free for another try.
      await this.ds.getRepository(Rollout).update({ id: row.id }, { state: 'failed', reason: 'The rollout could not be started (Temporal unreachable)', finishedAt: new Date() });
      throw new UnavailableError('The rollout could not be started; try again');
    }
    return this.ds.getRepository(Rollout).findOneByOrFail({ id: row.id });
  }

  /** The candidate model: `model_id` of the project, or the model of a registry `version_id` of the project. */
  private async candidate(stable: Deployment, ref: CandidateRef): Promise<{ modelId: string; versionId: string | null }> {
    if (!ref.model_id === !ref.version_id) throw new ValidationError('Provide model_id or version_id (one of them)');
    let modelId = ref.model_id;
    if (ref.version_id) {
      const rows: { model_id: string }[] = await this.ds
        .query('SELECT model_id FROM registry_versions WHERE id = $1 AND project_id = $2', [ref.version_id, stable.projectId])
        // Before the registry's table exists there is no version to name.
        .catch(() => []);
      if (!rows.length) throw ValidationError.field(['body', 'version_id'], 'version_id must be a registry version of the project');
      modelId = rows[0].model_id;
    }
    const model = await this.ds.getRepository(Model).findOneBy({ id: modelId });
    if (!model || model.projectId !== stable.projectId) throw ValidationError.field(['body', 'model_id'], 'model_id must belong to project');
    if (model.id === stable.modelId) throw ValidationError.field(['body', 'model_id'], 'The candidate is the model the deployment already serves');
    return { modelId: model.id, versionId: ref.version_id ?? null };
  }

  private async load(userId: string, rolloutId: string, minRole: ProjectRole = 'viewer'): Promise<Rollout> {
    const r = await this.ds.getRepository(Rollout).findOneBy({ id: rolloutId });
    if (!r) throw new NotFoundError(ROLLOUT_NOT_FOUND);
    await this.access.role(userId, r.projectId, ROLLOUT_NOT_FOUND, minRole);
    return r;
  }

  /**
   * An open rollout's state as its workflow holds it (a pause shows at once, before the workflow's next write);
   * the row alone when the workflow does not answer within a moment.
   */
  private async withLiveState(r: Rollout): Promise<Rollout> {
    if (!OPEN_ROLLOUT_STATES.includes(r.state)) return r;
    try {
      const client = await this.temporal.get();
      const live = await client.withDeadline(Date.now() + 1500, () => client.workflow.getHandle(r.workflowId).query<RolloutLiveState>(ROLLOUT_STATE_QUERY));
      // The row may already say more (a final state written after the query was answered).
      const fresh = await this.ds.getRepository(Rollout).findOneByOrFail({ id: r.id });
      if (!OPEN_ROLLOUT_STATES.includes(fresh.state)) return fresh;
      // Step, share and gate results are written to the row by the activity that makes the move, before the
      // workflow learns the move is done: the row is never behind the query there, and may be ahead of it.
      return Object.assign(fresh, { state: live.state as RolloutState });
    } catch {
      return r;
    }
  }

  private queuePrefix(): string {
    return this.config.taskQueues.io.slice(0, -'io'.length);
  }
}

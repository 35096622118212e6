import type { DataSource } from 'typeorm';
import { Deployment, Model, OPEN_ROLLOUT_STATES, Rollout, RolloutEvent, RolloutState } from '../../entities';
import type { RolloutMark } from '../../services/deployment-targets';
import type { DeploymentService } from '../../services/deployments';
import { ConflictError, NotFoundError } from '../../services/errors';
import type { RegistryNotes } from './registry-notes';

/**
 * The moves a rollout makes, each idempotent (an activity may run again after a worker died in it): deployments move
 * through the stage machine (services/deployment-stages.ts: one transaction each, a `deployment_transitions` row
 * each), then the rollout row records the outcome with a history entry.
 */
export class RolloutSteps {
  constructor(
    private readonly ds: DataSource,
    private readonly deployments: DeploymentService,
    private readonly registry: RegistryNotes,
  ) {}

  async row(id: string): Promise<Rollout> {
    const r = await this.ds.getRepository(Rollout).findOneBy({ id });
    if (!r) throw new NotFoundError('Rollout not found');
    return r;
  }

  /** Writes fields of the row and appends one history entry, in one statement. */
  async record(
    id: string,
    fields: Partial<Pick<Rollout, 'state' | 'stepIndex' | 'currentTrafficPercent' | 'gatesLast' | 'reason' | 'candidateDeploymentId' | 'finishedAt'>>,
    event?: Omit<RolloutEvent, 'at'>,
  ): Promise<void> {
    const set: Record<string, unknown> = { ...fields, updatedAt: () => 'now()' };
    if (event) set.history = () => 'history || :entry::jsonb';
    const qb = this.ds
      .createQueryBuilder()
      .update(Rollout)
      .set(set as never)
      .where('id = :id', { id });
    if (event) qb.setParameter('entry', JSON.stringify([{ at: new Date().toISOString(), ...event }]));
    await qb.execute();
  }

  /**
   * The candidate's staging deployment, created once: a retry finds the one an earlier attempt made by its mark.
   * It keeps the stable's options (privacy, store_payload) and is named after the rollout.
   */
  async createCandidate(id: string, trafficPercent: number, sample?: number): Promise<Deployment> {
    const r = await this.row(id);
    const existing = await this.ds.getRepository(Deployment).createQueryBuilder('d').where("d.project_id = :p AND d.config->'rollout'->>'rollout_id' = :id", { p: r.projectId, id }).getOne();
    if (existing) {
      if (!r.candidateDeploymentId) await this.record(id, { candidateDeploymentId: existing.id });
      return existing;
    }
    const stable = await this.ds.getRepository(Deployment).findOneByOrFail({ id: r.deploymentId });
    if (!stable.isActive || stable.stage !== 'production') throw new ConflictError(`Deployment ${stable.name} is no longer in production`);
    const model = await this.ds.getRepository(Model).findOneByOrFail({ id: r.candidateModelId });
    const mark: RolloutMark = { rollout_id: id, role: r.kind, of: stable.id, ...(r.kind === 'shadow' ? { sample_percent: sample ?? 100 } : {}) };
    const d = await this.deployments.stages.create(actorOf(r, null), {
      projectId: r.projectId,
      modelId: model.id,
      name: `${stable.name} ${r.kind.replace('_', '-')} ${model.name}`,
      stage: 'staging',
      trafficPercent,
      config: { ...stable.config, rollout: mark as never },
    });
    const share = r.kind === 'canary' ? trafficPercent : 0;
    await this.record(id, { candidateDeploymentId: d.id, currentTrafficPercent: share }, { event: 'candidate_created', detail: `candidate deployment ${d.id} (${d.name})` });
    await this.registry.tell({ ...r, candidateDeploymentId: d.id }, 'started', { actor: r.createdBy, detail: `${r.kind} against deployment ${stable.name}` });
    return d;
  }

  /** The candidate takes the step's share (a transition when it changes). */
  async setStep(id: string, stepIndex: number, trafficPercent: number, actor: string | null): Promise<void> {
    const r = await this.row(id);
    const c = await this.candidate(r);
    if (c.trafficPercent !== trafficPercent) await this.deployments.stages.setTraffic(actorOf(r, actor), r.projectId, c.id, trafficPercent, `rollout ${id} step ${stepIndex + 1}`);
    if (r.stepIndex === stepIndex && r.currentTrafficPercent === trafficPercent && r.history.some((h) => h.event === `step_${stepIndex + 1}`)) return;
    await this.record(
      id,
      { stepIndex, currentTrafficPercent: trafficPercent, gatesLast: [] },
      { event: `step_${stepIndex + 1}`, detail: `step ${stepIndex + 1} of ${r.steps.length}: ${trafficPercent}% of traffic` },
    );
  }

  /** candidate → production; the stable is archived (both recorded). Done already: nothing. */
  async promote(id: string, reason: string, actor: string | null, final: RolloutState): Promise<void> {
    const r = await this.row(id);
    const c = await this.candidate(r);
    if (c.stage !== 'production') {
      if (!c.isActive) throw new ConflictError('The candidate deployment is no longer active');
      await this.deployments.stages.promote(actorOf(r, actor), r.projectId, c.id, `rollout ${id}: ${reason}`);
    }
    const closing = !OPEN_ROLLOUT_STATES.includes(final);
    await this.record(
      id,
      { state: final, currentTrafficPercent: 100, reason: closing ? reason : r.reason, ...(closing ? { finishedAt: new Date() } : {}) },
      { event: final === 'promoted' ? 'promoted' : 'switched', detail: reason },
    );
    await this.registry.tell(r, final === 'promoted' ? 'promoted' : 'switched', { actor, detail: reason, production: { modelId: c.modelId, deploymentId: c.id, versionId: r.versionId } });
  }

  /**
   * Takes the candidate out of serving. Before a switch: the candidate is archived. After a blue-green switch (the
   * candidate is production): the previous deployment is restored to production, which archives the candidate.
   */
  async rollBack(id: string, final: RolloutState, reason: string, actor: string | null): Promise<void> {
    const r = await this.row(id);
    const who = actorOf(r, actor);
    let restored: { modelId: string; deploymentId: string } | undefined;
    if (r.candidateDeploymentId) {
      const c = await this.candidate(r);
      if (c.stage === 'production' && c.isActive) {
        const stable = await this.deployments.stages.rollbackToDeployment(who, r.projectId, r.deploymentId, undefined, `rollout ${id}: ${reason}`);
        restored = { modelId: stable.modelId, deploymentId: stable.id };
      } else if (c.isActive) await this.deployments.stages.deactivate(who, r.projectId, c.id, `rollout ${id}: ${reason}`);
    }
    await this.record(id, { state: final, currentTrafficPercent: 0, reason, finishedAt: new Date() }, { event: final, detail: reason });
    await this.registry.tell(r, final, { actor, detail: reason, production: restored });
  }

  /** Ends a rollout whose candidate no longer needs to serve beside the stable (a shadow's end; a blue-green's window). */
  async complete(id: string, reason: string, actor: string | null): Promise<void> {
    const r = await this.row(id);
    if (r.kind === 'shadow' && r.candidateDeploymentId) {
      const c = await this.candidate(r);
      if (c.isActive && c.stage === 'staging') await this.deployments.stages.deactivate(actorOf(r, actor), r.projectId, c.id, `rollout ${id}: ${reason}`);
    }
    await this.record(id, { state: 'completed', reason, finishedAt: new Date() }, { event: 'completed', detail: reason });
    await this.registry.tell(r, 'completed', { actor, detail: reason });
  }

  /** A step that could not be made: the candidate leaves serving where it still can, and the rollout ends `failed`. */
  async fail(id: string, reason: string): Promise<void> {
    const r = await this.row(id);
    if (r.candidateDeploymentId) {
      const c = await this.ds.getRepository(Deployment).findOneBy({ id: r.candidateDeploymentId });
      if (c && c.isActive && c.stage === 'staging') await this.deployments.stages.deactivate(actorOf(r, null), r.projectId, c.id, `rollout ${id} failed: ${reason}`);
    }
    await this.record(id, { state: 'failed', reason, finishedAt: new Date() }, { event: 'failed', detail: reason });
    await this.registry.tell(r, 'failed', { actor: null, detail: reason });
  }

  async candidate(r: Rollout): Promise<Deployment> {
    const c = r.candidateDeploymentId ? await this.ds.getRepository(Deployment).findOneBy({ id: r.candidateDeploymentId }) : null;
    if (!c) throw new ConflictError('The rollout has no candidate deployment');
    return c;
  }
}

/** Who a move is recorded for: the user who steered it, else the rollout's creator (null once that account is gone). */
function actorOf(r: Rollout, actor: string | null): string {
  return (actor ?? r.createdBy) as string;
}

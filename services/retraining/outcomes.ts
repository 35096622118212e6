import type { DataSource } from 'typeorm';
import { Deployment, RegistryTransition, RetrainingJob, RetrainingPolicy, type RetrainingState } from '../../entities';
import type { Logger } from '../../platform/logger';
import { ConflictError } from '../errors';
import { ROLLOUT_FINAL_STATES, type CanarySpec, type RetrainingRegistry, type RetrainingRollouts } from './ports';
import { effectiveState } from './states';

/** How long a shadow outcome mirrors traffic to the challenger (the comparison is readable meanwhile and after). */
const SHADOW_SECS = 3600;

/**
 * What happens to a challenger once evaluated: the policy's outcome (registered, a transition request awaiting
 * approval, an automatic promotion, a canary or shadow rollout), a person's decision on a request, and a rollout's
 * end. A promotion moves the registered model's `champion` alias onto the challenger; every end is a registry event.
 */
export class RetrainingOutcomes {
  constructor(
    private readonly ds: DataSource,
    private readonly registry: RetrainingRegistry,
    private readonly rollouts: RetrainingRollouts,
    private readonly log: Logger,
  ) {}

  /** Applies the policy's outcome to a job whose challenger passed the gate; the rollout to follow, if one started. */
  async apply(rjId: string): Promise<{ rolloutId: string | null }> {
    const rj = await this.ds.getRepository(RetrainingJob).findOneByOrFail({ id: rjId });
    if (rj.state !== 'evaluating') return { rolloutId: null };
    const policy = await this.ds.getRepository(RetrainingPolicy).findOneByOrFail({ id: rj.policyId });
    const challenger = rj.challengerVersionId as string;
    // A retried attempt after the rollout started follows it (a canary) or goes on to the request (a shadow).
    if (rj.rolloutId && policy.outcome === 'canary') return { rolloutId: rj.rolloutId };
    if (rj.rolloutId && policy.outcome === 'shadow') {
      await this.awaitApproval(rj, challenger);
      return { rolloutId: null };
    }
    switch (policy.outcome) {
      case 'register':
        await this.finish(rj, 'registered', 'Registered as the challenger; promote it through the registry');
        return { rolloutId: null };
      case 'auto_promote': {
        const request = await this.registry.requestTransition(null, challenger, 'production', `Retraining ${rj.id}: passed its gate (auto_promote)`);
        await this.registry.approveTransition(null, request.id, 'Approved by the retraining policy (auto_promote)');
        await this.ds.getRepository(RetrainingJob).update({ id: rj.id }, { transitionRequestId: request.id });
        await this.promoted(rj, null, 'Promoted automatically (auto_promote)');
        return { rolloutId: null };
      }
      case 'approval':
        await this.awaitApproval(rj, challenger);
        return { rolloutId: null };
      case 'shadow': {
        const rollout = await this.rollouts.startShadow(this.actorOf(rj), await this.stableDeploymentId(rj), { version_id: challenger, sample_percent: 100, duration_secs: SHADOW_SECS });
        await this.ds.getRepository(RetrainingJob).update({ id: rj.id }, { rolloutId: rollout.id });
        await this.awaitApproval(rj, challenger);
        return { rolloutId: null };
      }
      case 'canary': {
        const spec = policy.canary as CanarySpec;
        const rollout = await this.rollouts.startCanary(this.actorOf(rj), await this.stableDeploymentId(rj), { ...spec, version_id: challenger, on_success: 'promote' });
        await this.ds.getRepository(RetrainingJob).update({ id: rj.id }, { rolloutId: rollout.id });
        await this.event(rj, 'retraining_rollout_started', { rollout_id: rollout.id, kind: 'canary' });
        return { rolloutId: rollout.id };
      }
    }
  }

  /** Follows a canary rollout: null while it runs; at its end, promoted (it promoted) or rejected (it rolled back). */
  async followRollout(rjId: string): Promise<RetrainingState | null> {
    const rj = await this.ds.getRepository(RetrainingJob).findOneByOrFail({ id: rjId });
    if (rj.state !== 'evaluating' || !rj.rolloutId) return rj.state;
    const rollout = await this.rollouts.get(rj.rolloutId);
    if (!ROLLOUT_FINAL_STATES.includes(rollout.state)) return null;
    if (rollout.state === 'promoted') {
      if (rollout.candidateDeploymentId) await this.registry.markProduction(null, rj.challengerVersionId as string, rollout.candidateDeploymentId);
      await this.promoted(rj, null, 'The canary rollout passed its gates and promoted the challenger');
      return 'promoted';
    }
    await this.rejected(rj, `The canary rollout ended ${rollout.state}${rollout.reason ? `: ${rollout.reason}` : ''}; production is unchanged`);
    return 'rejected';
  }

  /** A person's approval (the caller checked the role): the transition request approved, the challenger in production. */
  async approve(userId: string, rj: RetrainingJob, comment: string | undefined): Promise<void> {
    this.assertAwaiting(rj);
    await this.registry.approveTransition(userId, rj.transitionRequestId as string, comment);
    await this.promoted(rj, userId, comment ? `Approved: ${comment}` : 'Approved');
  }

  async reject(userId: string, rj: RetrainingJob, comment: string | undefined): Promise<void> {
    this.assertAwaiting(rj);
    await this.registry.rejectTransition(userId, rj.transitionRequestId as string, comment);
    await this.rejected(rj, comment ? `Rejected: ${comment}` : 'Rejected');
  }

  /** The gate failed: rejected, production untouched. */
  async gateFailed(rjId: string, reason: string): Promise<void> {
    const rj = await this.ds.getRepository(RetrainingJob).findOneByOrFail({ id: rjId });
    if (rj.state === 'evaluating') await this.rejected(rj, reason);
  }

  /**
   * A job awaiting approval whose transition request was decided in the registry itself (its own approve or reject
   * route) follows that decision; any other job is returned as it is.
   */
  async settleFromRegistry(rj: RetrainingJob): Promise<RetrainingJob> {
    if (rj.state !== 'awaiting_approval' || !rj.transitionRequestId) return rj;
    const t = await this.ds.getRepository(RegistryTransition).findOneBy({ id: rj.transitionRequestId });
    if (!t || t.status === 'pending') return rj;
    const note = t.decisionComment ? `: ${t.decisionComment}` : '';
    const settle = t.status === 'approved' ? this.promoted(rj, t.decidedBy, `Approved in the registry${note}`) : this.rejected(rj, `Rejected in the registry${note}`);
    // A concurrent settle or decision got there first: the row says what happened.
    await settle.catch((err: unknown) => {
      if (!(err instanceof ConflictError)) throw err;
    });
    return this.ds.getRepository(RetrainingJob).findOneByOrFail({ id: rj.id });
  }

  private assertAwaiting(rj: RetrainingJob): void {
    if (effectiveState(rj) !== 'awaiting_approval' || !rj.transitionRequestId) throw new ConflictError(`Retraining job is ${effectiveState(rj)}, not awaiting approval`);
  }

  private async awaitApproval(rj: RetrainingJob, challenger: string): Promise<void> {
    const request = await this.registry.requestTransition(rj.createdBy, challenger, 'production', `Retraining ${rj.id}: the challenger passed its gate`);
    await this.ds.getRepository(RetrainingJob).update({ id: rj.id }, { transitionRequestId: request.id });
    await this.finish(rj, 'awaiting_approval', 'The challenger passed its gate; awaiting approval of its transition to production');
  }

  /** Moves the job from the open state it was read in, once: a concurrent decision finds it moved (409). */
  private async finish(rj: RetrainingJob, state: RetrainingState, reason: string): Promise<boolean> {
    const from = rj.state === 'awaiting_approval' ? ['awaiting_approval'] : ['evaluating'];
    const r = await this.ds
      .createQueryBuilder()
      .update(RetrainingJob)
      .set({ state, reason, updatedAt: () => 'now()' })
      .where('id = :id AND state IN (:...from)', { id: rj.id, from })
      .execute();
    if (!r.affected) throw new ConflictError('Retraining job was decided meanwhile');
    await this.event(rj, `retraining_${state}`, { reason });
    return true;
  }

  private async promoted(rj: RetrainingJob, actor: string | null, reason: string): Promise<void> {
    await this.registry.moveAlias(actor, rj.registeredModelId, 'champion', rj.challengerVersionId as string);
    await this.finish(rj, 'promoted', reason);
  }

  private async rejected(rj: RetrainingJob, reason: string): Promise<void> {
    await this.finish(rj, 'rejected', reason);
  }

  /** Who starts a rollout (an editor of the project): the person the retraining runs for. */
  private actorOf(rj: RetrainingJob): string {
    if (!rj.createdBy) throw new ConflictError("Nobody to start the rollout as: the retraining's user no longer exists");
    return rj.createdBy;
  }

  /** The project's production deployment: the stable a rollout starts from. */
  private async stableDeploymentId(rj: RetrainingJob): Promise<string> {
    const d = await this.ds.getRepository(Deployment).findOneBy({ projectId: rj.projectId, stage: 'production', isActive: true });
    if (!d) throw new ConflictError('The project has no production deployment to roll the challenger out against');
    return d.id;
  }

  private async event(rj: RetrainingJob, kind: string, details: Record<string, unknown>): Promise<void> {
    await this.registry
      .recordEvent(rj.projectId, rj.registeredModelId, kind, { retraining_job_id: rj.id, policy_id: rj.policyId, challenger_version_id: rj.challengerVersionId, ...details }, null)
      .catch((err: unknown) => this.log.warn({ err, retrainingJobId: rj.id }, 'could not record the retraining event'));
  }
}

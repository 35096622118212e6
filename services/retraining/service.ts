import { randomInt } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { Alert, DatasetVersion, Deployment, DriftResult, type Job, RetrainingJob, RetrainingPolicy, RetrainingTrigger, type JsonMap, type RetrainingTriggerKind } from '../../entities';
import type { Logger } from '../../platform/logger';
import { MEMBER_PROJECTS_SQL, type Access } from '../access';
import { ConflictError, NotFoundError } from '../errors';
import type { JobService } from '../jobs';
import type { Page, PageQuery } from '../lists';
import { championLineage, championOf, sliceOrigin } from './champion';
import type { RetrainingOutcomes } from './outcomes';
import type { RetrainingRegistry } from './ports';
import { POLICY_NOT_FOUND } from './policies';
import { OPEN_JOB_SQL } from './states';

export const RETRAINING_JOB_NOT_FOUND = 'Retraining job not found';
export const NO_CHAMPION = 'The registered model has no champion: alias a version `champion` (or move one to production) first';
export const JOB_OPEN = 'A retraining job of this policy is already open';

export interface RetrainingJobFilter extends PageQuery {
  project_id?: string;
  policy_id?: string;
}

/** What a trigger did: the job it started, or why it was skipped. */
export type TriggerOutcome = { job: RetrainingJob; skipped: null } | { job: null; skipped: string };

/**
 * Retraining jobs: starting one (by hand or by a trigger, under the policy's cooldown and one open job per policy),
 * reading them, and the decision on one that awaits approval. The work itself is the `retraining_run` job
 * (activities/retraining-run/); what it decides lands through `RetrainingOutcomes`.
 */
export class RetrainingService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly jobs: JobService,
    private readonly registry: RetrainingRegistry,
    private readonly outcomes: RetrainingOutcomes,
    private readonly log: Logger,
  ) {}

  /** A manual run (editor or above): 409 while a job of the policy is open or without a champion; the cooldown does not apply. */
  async run(userId: string, policyId: string): Promise<RetrainingJob> {
    const policy = await this.ds.getRepository(RetrainingPolicy).findOneBy({ id: policyId });
    if (!policy) throw new NotFoundError(POLICY_NOT_FOUND);
    await this.access.role(userId, policy.projectId, POLICY_NOT_FOUND, 'editor');
    const out = await this.trigger(policy.id, 'manual', { user_id: userId }, userId);
    if (!out.job) throw new ConflictError(out.skipped);
    return out.job;
  }

  /**
   * A trigger of the policy: under the policy's lock, skipped (and recorded) when the policy is disabled, a job of it is
   * open, its cooldown since the last job has not passed or the model has no champion; otherwise a job is written and
   * its workflow started. `manualBy`: a person's run, which the cooldown does not hold back and whose refusal is theirs.
   */
  async trigger(policyId: string, kind: RetrainingTriggerKind, detail: JsonMap, manualBy: string | null = null): Promise<TriggerOutcome> {
    // A job awaiting a request decided in the registry is no longer open.
    for (const waiting of await this.ds.getRepository(RetrainingJob).findBy({ policyId, state: 'awaiting_approval' })) await this.outcomes.settleFromRegistry(waiting);
    const champion = await this.championFor(policyId);
    const { out, job } = await this.ds.transaction(async (em) => {
      const [policy] = (await em.query('SELECT id FROM retraining_policies WHERE id = $1 FOR UPDATE', [policyId])) as { id: string }[];
      if (!policy) throw new NotFoundError(POLICY_NOT_FOUND);
      const p = await em.getRepository(RetrainingPolicy).findOneByOrFail({ id: policyId });
      const skip = async (reason: string): Promise<{ out: TriggerOutcome; job: null }> => {
        await this.record(em, p, kind, detail, 'skipped', reason, null);
        return { out: { job: null, skipped: reason }, job: null };
      };
      if (!p.enabled && !manualBy) return skip('the policy is disabled');
      const [open] = (await em.query(`SELECT j.id FROM retraining_jobs j WHERE j.policy_id = $1 AND ${OPEN_JOB_SQL} LIMIT 1`, [p.id])) as { id: string }[];
      if (open) return skip(`${JOB_OPEN} (${open.id})`);
      if (!champion) return skip(NO_CHAMPION);
      if (!manualBy) {
        const [last] = (await em.query('SELECT created_at FROM retraining_jobs WHERE policy_id = $1 ORDER BY created_at DESC LIMIT 1', [p.id])) as { created_at: Date }[];
        const left = last ? p.cooldownSecs - Math.floor((Date.now() - new Date(last.created_at).getTime()) / 1000) : 0;
        if (left > 0) return skip(`cooldown: ${left}s left of ${p.cooldownSecs}s since the last retraining`);
      }
      const rj = em.getRepository(RetrainingJob).create({
        policyId: p.id,
        projectId: p.projectId,
        registeredModelId: p.registeredModelId,
        trigger: { kind, detail },
        state: 'queued',
        status: 'queued',
        error: null,
        startedAt: null,
        finishedAt: null,
        jobId: null,
        experimentId: null,
        datasetVersionId: null,
        trainingVersionId: null,
        holdoutSeed: randomInt(1, 2 ** 31 - 1),
        holdoutRows: null,
        championVersionId: champion.id,
        challengerVersionId: null,
        rolloutId: null,
        transitionRequestId: null,
        evaluation: null,
        reason: null,
        createdBy: manualBy ?? p.createdBy,
      });
      await em.getRepository(RetrainingJob).insert(rj);
      const job = await this.jobs.create(em, { kind: 'retraining_run', projectId: p.projectId, entityId: rj.id, createdBy: rj.createdBy, input: { retrainingJobId: rj.id } });
      await em.getRepository(RetrainingJob).update({ id: rj.id }, { jobId: job.id });
      rj.jobId = job.id;
      await this.record(em, p, kind, detail, 'started', null, rj.id);
      return { out: { job: rj, skipped: null } as TriggerOutcome, job };
    });
    if (job && out.job) await this.started(out.job, job);
    return out;
  }

  private async started(rj: RetrainingJob, job: Job): Promise<void> {
    await this.jobs.start(job);
    await this.registry
      .recordEvent(
        rj.projectId,
        rj.registeredModelId,
        'retraining_started',
        { retraining_job_id: rj.id, policy_id: rj.policyId, trigger: rj.trigger, champion_version_id: rj.championVersionId },
        rj.createdBy,
      )
      .catch((err: unknown) => this.log.warn({ err, retrainingJobId: rj.id }, 'could not record the retraining event'));
  }

  private async record(
    em: EntityManager,
    p: RetrainingPolicy,
    kind: RetrainingTriggerKind,
    detail: JsonMap,
    outcome: 'started' | 'skipped',
    reason: string | null,
    jobId: string | null,
  ): Promise<void> {
    await em.getRepository(RetrainingTrigger).insert({ policyId: p.id, projectId: p.projectId, kind, detail, outcome, reason, retrainingJobId: jobId });
  }

  private async championFor(policyId: string) {
    const p = await this.ds.getRepository(RetrainingPolicy).findOneBy({ id: policyId });
    return p ? championOf(this.ds, this.registry, p.registeredModelId) : null;
  }

  async list(userId: string, q: RetrainingJobFilter): Promise<Page<RetrainingJob>> {
    if (q.project_id) await this.access.project(userId, q.project_id);
    if (q.policy_id) {
      const p = await this.ds.getRepository(RetrainingPolicy).findOneBy({ id: q.policy_id });
      if (!p) throw new NotFoundError(POLICY_NOT_FOUND);
      await this.access.role(userId, p.projectId, POLICY_NOT_FOUND);
    }
    const qb = this.ds.getRepository(RetrainingJob).createQueryBuilder('j').where(`j.project_id IN (${MEMBER_PROJECTS_SQL})`, { userId });
    if (q.project_id) qb.andWhere('j.project_id = :projectId', { projectId: q.project_id });
    if (q.policy_id) qb.andWhere('j.policy_id = :policyId', { policyId: q.policy_id });
    const [rows, total] = await qb.orderBy('j.created_at', 'DESC').addOrderBy('j.id', 'DESC').skip(q.offset).take(q.limit).getManyAndCount();
    const items: RetrainingJob[] = [];
    for (const rj of rows) items.push(await this.outcomes.settleFromRegistry(rj));
    return { items, total, limit: q.limit, offset: q.offset };
  }

  async get(userId: string, id: string, minRole: 'viewer' | 'admin' = 'viewer'): Promise<RetrainingJob> {
    const rj = await this.ds.getRepository(RetrainingJob).findOneBy({ id });
    if (!rj) throw new NotFoundError(RETRAINING_JOB_NOT_FOUND);
    await this.access.role(userId, rj.projectId, RETRAINING_JOB_NOT_FOUND, minRole);
    return this.outcomes.settleFromRegistry(rj);
  }

  /**
   * A person's decision on a job awaiting approval: admin or owner of the project (403 otherwise), 409 unless the job
   * awaits approval. Approving approves its registry transition request (the challenger deployed to production, the
   * alias `champion` moved); rejecting rejects it, and production is untouched.
   */
  async decide(userId: string, id: string, decision: 'approve' | 'reject', comment?: string): Promise<RetrainingJob> {
    const rj = await this.get(userId, id);
    await this.access.role(userId, rj.projectId, RETRAINING_JOB_NOT_FOUND, 'admin');
    if (decision === 'approve') await this.outcomes.approve(userId, rj, comment);
    else await this.outcomes.reject(userId, rj, comment);
    return this.ds.getRepository(RetrainingJob).findOneByOrFail({ id: rj.id });
  }

  /** A cron run of the policy's schedule (services/retraining/schedule.ts). */
  async startScheduled(policyId: string): Promise<string | null> {
    const p = await this.ds.getRepository(RetrainingPolicy).findOneBy({ id: policyId });
    if (!p || !p.triggers.schedule_cron) return null;
    return (await this.trigger(p.id, 'schedule', { cron: p.triggers.schedule_cron })).job?.id ?? null;
  }

  /**
   * After a drift result of a production deployment: each enabled policy with a drift trigger whose champion that
   * deployment serves counts the results since its last retraining, newest first; `consecutive` of them above the
   * threshold trigger it.
   */
  async afterDriftResult(deploymentId: string): Promise<void> {
    const d = await this.ds.getRepository(Deployment).findOneBy({ id: deploymentId });
    if (!d || d.stage !== 'production' || !d.isActive) return;
    const policies: RetrainingPolicy[] = await this.ds
      .getRepository(RetrainingPolicy)
      .createQueryBuilder('p')
      .where("p.project_id = :projectId AND p.enabled AND p.triggers->'drift' IS NOT NULL AND p.triggers->'drift' <> 'null'::jsonb", { projectId: d.projectId })
      .getMany();
    for (const p of policies) {
      const drift = p.triggers.drift;
      const champion = drift && (await championOf(this.ds, this.registry, p.registeredModelId));
      if (!drift || !champion || champion.modelId !== d.modelId) continue;
      const [last] = (await this.ds.query('SELECT created_at FROM retraining_jobs WHERE policy_id = $1 ORDER BY created_at DESC LIMIT 1', [p.id])) as { created_at: Date }[];
      const qb = this.ds.getRepository(DriftResult).createQueryBuilder('r').where('r.deployment_id = :id', { id: d.id });
      if (last) qb.andWhere('r.computed_at > :since', { since: last.created_at });
      const recent = await qb.orderBy('r.computed_at', 'DESC').addOrderBy('r.id', 'DESC').take(drift.consecutive).getMany();
      if (recent.length < drift.consecutive || recent.some((r) => !(r.maxPsi > drift.threshold))) continue;
      await this.trigger(p.id, 'drift', {
        deployment_id: d.id,
        threshold: drift.threshold,
        consecutive: drift.consecutive,
        max_psi: recent.map((r) => r.maxPsi),
        drift_result_ids: recent.map((r) => String(r.id)),
      });
    }
  }

  /** After a new dataset version: policies with `new_dataset_version` whose champion was trained on that dataset. */
  async afterDatasetVersion(version: DatasetVersion): Promise<void> {
    if (sliceOrigin(version)) return;
    const policies: RetrainingPolicy[] = await this.ds
      .getRepository(RetrainingPolicy)
      .createQueryBuilder('p')
      .where("p.enabled AND (p.triggers->>'new_dataset_version')::boolean IS TRUE")
      .andWhere('p.project_id = (SELECT d.project_id FROM datasets d WHERE d.id = :datasetId)', { datasetId: version.datasetId })
      .getMany();
    for (const p of policies) {
      const champion = await championOf(this.ds, this.registry, p.registeredModelId);
      const lineage = champion && (await championLineage(this.ds, champion));
      if (lineage?.datasetId !== version.datasetId) continue;
      await this.trigger(p.id, 'new_dataset_version', { dataset_id: version.datasetId, dataset_version_id: version.id, version: version.version });
    }
  }

  /** After an alert evaluation at `now`: the listed rules' alerts that began firing then trigger their policies. */
  async afterAlertEvaluation(projectId: string, now: Date): Promise<void> {
    const policies: RetrainingPolicy[] = await this.ds
      .getRepository(RetrainingPolicy)
      .createQueryBuilder('p')
      .where("p.project_id = :projectId AND p.enabled AND jsonb_array_length(coalesce(p.triggers->'alert_rule_ids', '[]'::jsonb)) > 0", { projectId })
      .getMany();
    for (const p of policies) {
      const alerts = await this.ds
        .getRepository(Alert)
        .createQueryBuilder('a')
        .where("a.rule_id IN (:...ids) AND a.state = 'firing' AND a.metric = 'accuracy_degradation' AND a.first_seen_at >= :now", { ids: p.triggers.alert_rule_ids, now })
        .getMany();
      for (const a of alerts) await this.trigger(p.id, 'alert', { alert_id: a.id, rule_id: a.ruleId, deployment_id: a.deploymentId, value: a.value });
    }
  }
}

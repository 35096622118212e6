import { type DataSource, type EntityManager, In } from 'typeorm';
import { AlertRule, type JsonMap, RegisteredModel, RetrainingJob, RetrainingPolicy, RetrainingTrigger, type RetrainingOutcome, type RetrainingTriggers, OPEN_RETRAINING_STATES } from '../../entities';
import type { Access, ProjectRole } from '../access';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { Page, PageQuery } from '../lists';
import type { CanarySpec } from './ports';

export const POLICY_NOT_FOUND = 'Retraining policy not found';
export const REGISTERED_MODEL_NOT_FOUND = 'Registered model not found';

/** Defaults of a policy's fields (the design's). */
export const POLICY_DEFAULTS = { driftThreshold: 0.2, driftConsecutive: 1, cooldownSecs: 3600, outcome: 'approval' as RetrainingOutcome };

/** A policy as a request gives it (the routes' schemas parse it; what they cannot see is checked here). */
export interface PolicyFields {
  name: string;
  enabled: boolean;
  triggers: { schedule_cron?: string | null; drift?: { threshold?: number; consecutive?: number } | null; new_dataset_version?: boolean; alert_rule_ids?: string[] };
  experiment: Record<string, unknown>;
  gate: { metric?: string | null; min_improvement?: number };
  outcome: RetrainingOutcome;
  canary: CanarySpec | null;
  cooldown_secs: number;
}

export interface NewPolicy extends Partial<PolicyFields> {
  project_id: string;
  registered_model_id: string;
  name: string;
}

/** What a policy's schedule follows: called after every change that may add, alter or remove its cron. */
export type PolicyScheduleSync = (policyId: string) => Promise<void>;

/**
 * Retraining policies: per registered model, the triggers that start a retraining, the experiment's overrides, the
 * gate and the outcome. Members read them, editors change them; another project's policy is a 404.
 */
export class RetrainingPolicyService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
    private readonly syncSchedule: PolicyScheduleSync,
  ) {}

  async create(userId: string, body: NewPolicy): Promise<RetrainingPolicy> {
    await this.access.project(userId, body.project_id, 'editor');
    const model = await this.ds.getRepository(RegisteredModel).findOneBy({ id: body.registered_model_id });
    if (!model || model.projectId !== body.project_id) throw new NotFoundError(REGISTERED_MODEL_NOT_FOUND);
    const fields = normalized(body);
    await this.checkAgainstProject(body.project_id, fields);
    const repo = this.ds.getRepository(RetrainingPolicy);
    const policy = repo.create({ projectId: body.project_id, registeredModelId: model.id, ...toColumns(fields), sliceDatasetId: null, createdBy: userId });
    await repo.insert(policy);
    await this.syncSchedule(policy.id);
    return policy;
  }

  async list(userId: string, projectId: string, q: PageQuery): Promise<Page<RetrainingPolicy>> {
    await this.access.project(userId, projectId);
    const [items, total] = await this.ds.getRepository(RetrainingPolicy).findAndCount({ where: { projectId }, order: { createdAt: 'DESC', id: 'DESC' }, skip: q.offset, take: q.limit });
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /** The policy the user may see (another project's is 404), with the role asked for. */
  async get(userId: string, policyId: string, minRole: ProjectRole = 'viewer', em: EntityManager = this.ds.manager): Promise<RetrainingPolicy> {
    const policy = await em.getRepository(RetrainingPolicy).findOneBy({ id: policyId });
    if (!policy) throw new NotFoundError(POLICY_NOT_FOUND);
    await this.access.role(userId, policy.projectId, POLICY_NOT_FOUND, minRole, em);
    return policy;
  }

  /** Changes what is given; the rest keeps its value (`triggers`, `gate` and `canary` are replaced whole). */
  async update(userId: string, policyId: string, patch: Partial<PolicyFields>): Promise<RetrainingPolicy> {
    const policy = await this.get(userId, policyId, 'editor');
    const current = fieldsOf(policy);
    const fields = normalized({ ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) });
    await this.checkAgainstProject(policy.projectId, fields);
    await this.ds.getRepository(RetrainingPolicy).update({ id: policy.id }, { ...toColumns(fields), updatedAt: new Date() });
    await this.syncSchedule(policy.id);
    return this.ds.getRepository(RetrainingPolicy).findOneByOrFail({ id: policy.id });
  }

  /** Deletes a policy with its jobs' records; refused (409) while one of its jobs is open. */
  async delete(userId: string, policyId: string): Promise<void> {
    const policy = await this.get(userId, policyId, 'editor');
    await this.ds.transaction(async (em) => {
      await em.query('SELECT id FROM retraining_policies WHERE id = $1 FOR UPDATE', [policy.id]);
      const open = await em.getRepository(RetrainingJob).exists({ where: { policyId: policy.id, state: In([...OPEN_RETRAINING_STATES]), status: In(['queued', 'running', 'succeeded']) } });
      if (open) throw new ConflictError('The policy has an open retraining job: wait for it, or reject it, first');
      await em.getRepository(RetrainingPolicy).delete({ id: policy.id });
    });
    await this.syncSchedule(policy.id);
  }

  /** The triggers the policy received, newest first: what each started, or why it was skipped. */
  async triggers(userId: string, policyId: string, q: PageQuery): Promise<Page<RetrainingTrigger>> {
    const policy = await this.get(userId, policyId);
    const [items, total] = await this.ds.getRepository(RetrainingTrigger).findAndCount({ where: { policyId: policy.id }, order: { id: 'DESC' }, skip: q.offset, take: q.limit });
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /** The listed alert rules are the project's `accuracy_degradation` rules; a canary outcome names its steps. */
  private async checkAgainstProject(projectId: string, f: PolicyFields): Promise<void> {
    const ids = f.triggers.alert_rule_ids ?? [];
    if (ids.length) {
      const rules = await this.ds.getRepository(AlertRule).findBy({ id: In(ids), projectId });
      if (rules.length !== new Set(ids).size) throw new NotFoundError('Alert rule not found');
      const other = rules.find((r) => r.metric !== 'accuracy_degradation');
      if (other) throw ValidationError.field(['body', 'triggers', 'alert_rule_ids'], `Alert rule ${other.id} watches ${other.metric}: only accuracy_degradation rules trigger a retraining`);
    }
    if (f.outcome === 'canary' && !f.canary) throw ValidationError.field(['body', 'canary'], 'The canary outcome needs canary: {steps}');
  }
}

/** The request's fields with every default filled in. */
function normalized(f: Partial<PolicyFields> & { name: string }): PolicyFields {
  const t = f.triggers ?? {};
  return {
    name: f.name,
    enabled: f.enabled ?? true,
    triggers: {
      schedule_cron: t.schedule_cron ?? null,
      drift: t.drift ? { threshold: t.drift.threshold ?? POLICY_DEFAULTS.driftThreshold, consecutive: t.drift.consecutive ?? POLICY_DEFAULTS.driftConsecutive } : null,
      new_dataset_version: t.new_dataset_version ?? false,
      alert_rule_ids: [...new Set(t.alert_rule_ids ?? [])],
    },
    experiment: f.experiment ?? {},
    gate: { metric: f.gate?.metric ?? null, min_improvement: f.gate?.min_improvement ?? 0 },
    outcome: f.outcome ?? POLICY_DEFAULTS.outcome,
    canary: f.canary ?? null,
    cooldown_secs: f.cooldown_secs ?? POLICY_DEFAULTS.cooldownSecs,
  };
}

function toColumns(f: PolicyFields) {
  return {
    name: f.name,
    enabled: f.enabled,
    triggers: f.triggers as RetrainingTriggers,
    experiment: f.experiment as JsonMap,
    gate: { metric: f.gate.metric ?? null, min_improvement: f.gate.min_improvement ?? 0 },
    outcome: f.outcome,
    canary: f.canary as JsonMap | null,
    cooldownSecs: f.cooldown_secs,
  };
}

function fieldsOf(p: RetrainingPolicy): PolicyFields {
  return { name: p.name, enabled: p.enabled, triggers: p.triggers, experiment: p.experiment, gate: p.gate, outcome: p.outcome, canary: p.canary as CanarySpec | null, cooldown_secs: p.cooldownSecs };
}

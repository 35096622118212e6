import type { DataSource, EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { isAction, piiTypes, type ActionId } from '../../engine/privacy';
import { JsonMap, PolicyStatus, PrivacyPolicy, PrivacyProfile, PrivacyRule } from '../../entities';
import { Access, MEMBER_PROJECTS_SQL } from '../access';
import { NotFoundError, ValidationError } from '../errors';
import type { Page, PageQuery } from '../lists';
import { complianceFigures, type ComplianceFigures, type PolicyCounts, privacyCounts } from './finding-counts';
import { checkRuleConfig } from './rule-config';

export const RULE_NOT_FOUND = 'Rule not found';
/** Rules one policy holds: its detail answer lists all of them. */
export const MAX_RULES_PER_POLICY = 500;

export interface CreatePolicy {
  project_id: string;
  name: string;
  description?: string | null;
  profile?: PrivacyProfile;
  status?: PolicyStatus;
  settings?: JsonMap;
}

export type UpdatePolicy = Partial<Omit<CreatePolicy, 'project_id'>>;

export interface CreateRule {
  pii_type: string;
  action: string;
  is_enabled?: boolean;
  priority?: number;
  config?: Record<string, unknown>;
}

export type UpdateRule = Partial<CreateRule>;

/** A policy with what lists and details show beside it. */
export interface PolicyView {
  policy: PrivacyPolicy;
  projectName: string;
  rulesCount: number;
  figures: ComplianceFigures;
  /** The counts of its latest detected session (finding-counts.ts). */
  counts: PolicyCounts;
}

const KNOWN_TYPES = new Set(piiTypes().map((t) => t.id));

/**
 * Privacy policies and their rules. A policy belongs to a project; reading needs membership,
 * changing it the editor role. Its compliance figures are the counts of its latest detected session
 * measured against its current rules (see finding-counts.ts).
 */
export class PrivacyPolicyService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
  ) {}

  async create(userId: string, p: CreatePolicy): Promise<PrivacyPolicy> {
    await this.access.project(userId, p.project_id, 'editor');
    const repo = this.ds.getRepository(PrivacyPolicy);
    const policy = repo.create({
      projectId: p.project_id,
      name: p.name,
      description: p.description ?? null,
      profile: p.profile ?? 'custom',
      status: p.status ?? 'draft',
      settings: p.settings ?? {},
      createdBy: userId,
    });
    await repo.insert(policy);
    return policy;
  }

  /** Policies of one project, or of every project the user is a member of; newest first. */
  async list(userId: string, q: PageQuery & { project_id?: string; status?: PolicyStatus }): Promise<Page<PolicyView>> {
    if (q.project_id) await this.access.project(userId, q.project_id);
    const qb = this.ds.getRepository(PrivacyPolicy).createQueryBuilder('p').where(`p.project_id IN (${MEMBER_PROJECTS_SQL})`, { userId });
    if (q.project_id) qb.andWhere('p.project_id = :projectId', { projectId: q.project_id });
    if (q.status) qb.andWhere('p.status = :status', { status: q.status });
    const [items, total] = await qb.orderBy('p.created_at', 'DESC').addOrderBy('p.id', 'DESC').skip(q.offset).take(q.limit).getManyAndCount();
    return { items: await this.views(items), total, limit: q.limit, offset: q.offset };
  }

  async get(userId: string, id: string): Promise<{ view: PolicyView; rules: PrivacyRule[] }> {
    const policy = await this.access.privacyPolicy(userId, id);
    const [view] = await this.views([policy]);
    return { view, rules: await this.rulesOf(id) };
  }

  async update(userId: string, id: string, p: UpdatePolicy): Promise<void> {
    await this.access.privacyPolicy(userId, id, 'editor');
    const patch: Partial<PrivacyPolicy> = {};
    if (p.name !== undefined) patch.name = p.name;
    if (p.description !== undefined) patch.description = p.description;
    if (p.profile !== undefined) patch.profile = p.profile;
    if (p.status !== undefined) patch.status = p.status;
    if (p.settings !== undefined) patch.settings = p.settings;
    if (Object.keys(patch).length) await this.ds.getRepository(PrivacyPolicy).update({ id }, patch);
  }

  /** Deletes the policy with its rules and sessions (their outputs stay artifacts of the project). */
  async delete(userId: string, id: string): Promise<void> {
    await this.access.privacyPolicy(userId, id, 'editor');
    await this.ds.getRepository(PrivacyPolicy).delete({ id });
  }

  async addRule(userId: string, policyId: string, p: CreateRule): Promise<PrivacyRule> {
    const checked = checkRule(p);
    return this.ds.transaction(async (em) => {
      await this.access.privacyPolicy(userId, policyId, 'editor', em);
      // The policy row's lock makes the count and the insert one step for concurrent adds.
      const policy = await em.getRepository(PrivacyPolicy).findOne({ where: { id: policyId }, lock: { mode: 'pessimistic_write' } });
      if (!policy) throw new NotFoundError('Policy not found');
      if ((await em.getRepository(PrivacyRule).countBy({ policyId })) >= MAX_RULES_PER_POLICY) throw new ValidationError(`A policy holds at most ${MAX_RULES_PER_POLICY} rules`);
      const rule = em.getRepository(PrivacyRule).create({
        policyId,
        projectId: policy.projectId,
        piiType: checked.pii_type,
        action: checked.action,
        isEnabled: p.is_enabled ?? true,
        priority: p.priority ?? 0,
        config: checked.config,
      });
      await em.getRepository(PrivacyRule).insert(rule);
      return rule;
    });
  }

  async listRules(userId: string, policyId: string): Promise<PrivacyRule[]> {
    await this.access.privacyPolicy(userId, policyId);
    return this.rulesOf(policyId);
  }

  /** Changes the given fields of a rule; a new action's config is checked against it (the stored one when none is sent). */
  async updateRule(userId: string, policyId: string, ruleId: string, p: UpdateRule): Promise<PrivacyRule> {
    await this.access.privacyPolicy(userId, policyId, 'editor');
    const rule = await this.rule(this.ds.manager, policyId, ruleId);
    const checked = checkRule({ pii_type: p.pii_type ?? rule.piiType, action: p.action ?? rule.action, config: p.config ?? (p.action && p.action !== rule.action ? {} : rule.config) });
    const patch = {
      piiType: checked.pii_type,
      action: checked.action,
      config: checked.config,
      ...(p.is_enabled !== undefined ? { isEnabled: p.is_enabled } : {}),
      ...(p.priority !== undefined ? { priority: p.priority } : {}),
    };
    await this.ds.getRepository(PrivacyRule).update({ id: rule.id }, patch);
    return Object.assign(rule, patch);
  }

  async deleteRule(userId: string, policyId: string, ruleId: string): Promise<void> {
    await this.access.privacyPolicy(userId, policyId, 'editor');
    const rule = await this.rule(this.ds.manager, policyId, ruleId);
    await this.ds.getRepository(PrivacyRule).delete({ id: rule.id });
  }

  /** A policy's rules, highest priority first (the order they apply in). */
  rulesOf(policyId: string, em: EntityManager = this.ds.manager): Promise<PrivacyRule[]> {
    return em.getRepository(PrivacyRule).find({ where: { policyId }, order: { priority: 'DESC', createdAt: 'ASC', id: 'ASC' } });
  }

  private async rule(em: EntityManager, policyId: string, ruleId: string): Promise<PrivacyRule> {
    const rule = await em.getRepository(PrivacyRule).findOneBy({ id: ruleId, policyId });
    if (!rule) throw new NotFoundError(RULE_NOT_FOUND);
    return rule;
  }

  /** Project names, rule counts and compliance figures of some policies, in a few queries. */
  private async views(policies: PrivacyPolicy[]): Promise<PolicyView[]> {
    if (!policies.length) return [];
    const ids = policies.map((p) => p.id);
    const projects: { id: string; name: string }[] = await this.ds.query('SELECT id, name FROM projects WHERE id = ANY($1)', [[...new Set(policies.map((p) => p.projectId))]]);
    const rules = await this.ds.getRepository(PrivacyRule).find({ select: { id: true, policyId: true }, where: { policyId: In(ids) } });
    const { policies: counts } = await privacyCounts(this.ds, { policyIds: ids });
    return policies.map((policy) => {
      const pc = counts.get(policy.id) ?? { session_id: null, counts: null };
      return {
        policy,
        projectName: projects.find((p) => p.id === policy.projectId)?.name ?? '',
        rulesCount: rules.filter((r) => r.policyId === policy.id).length,
        figures: complianceFigures(pc),
        counts: pc,
      };
    });
  }
}

/** A rule's type must be an engine type and its config must fit its action (422 naming the field otherwise). */
function checkRule(p: { pii_type: string; action: string; config?: Record<string, unknown> }): { pii_type: string; action: ActionId; config: JsonMap } {
  if (!KNOWN_TYPES.has(p.pii_type)) throw ValidationError.field(['body', 'pii_type'], `Unknown pii_type: ${p.pii_type} (see GET /api/privacy/pii-types)`);
  if (!isAction(p.action)) throw ValidationError.field(['body', 'action'], `Unknown action: ${p.action}`);
  return { pii_type: p.pii_type, action: p.action, config: checkRuleConfig(p.action, p.config ?? {}) };
}

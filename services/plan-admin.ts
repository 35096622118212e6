import type { DataSource, EntityManager } from 'typeorm';
import { Plan, Team, User } from '../entities';
import type { Config } from '../platform/config';
import { readSettings } from './admin/settings';
import { ConflictError, NotFoundError } from './errors';
import { configuredLimits, resolveLimits, type PlanLimits, type ResolvedLimits } from './plan-limits';
import { SELF_HOSTED_PLAN } from './plans';

/** A plan as admins see it: what it stores, what that resolves to, and who holds it. */
export interface PlanRecord {
  plan: Plan;
  /** Every limit resolved (a key the plan leaves out: the configured value). */
  effective: ResolvedLimits;
  users_count: number;
  teams_count: number;
  /** True when the instance settings' `default_plan` names it. */
  is_default: boolean;
}

export interface PlanInput {
  name: string;
  display_name: string;
  limits: PlanLimits;
}

/** Plans for the admin area: define, change, delete (only when nobody holds it), assign to users and teams. */
export class PlanAdmin {
  constructor(
    private readonly ds: DataSource,
    private readonly config: Config,
  ) {}

  /** Every stored plan by name, and the built-in one that applies where none does. */
  async list(): Promise<{ items: PlanRecord[]; built_in: { name: string; display_name: string; limits: ResolvedLimits }; default_plan: string | null }> {
    const plans = await this.ds.getRepository(Plan).find({ order: { name: 'ASC' } });
    const counts = await this.holders(
      this.ds.manager,
      plans.map((p) => p.id),
    );
    const defaultPlan = (await readSettings(this.ds.manager)).default_plan;
    return {
      items: plans.map((p) => this.record(p, counts.get(p.id), defaultPlan)),
      built_in: { ...SELF_HOSTED_PLAN, limits: configuredLimits(this.config) },
      default_plan: defaultPlan,
    };
  }

  async get(planId: string): Promise<PlanRecord> {
    const plan = await this.load(this.ds.manager, planId);
    const counts = await this.holders(this.ds.manager, [plan.id]);
    return this.record(plan, counts.get(plan.id), (await readSettings(this.ds.manager)).default_plan);
  }

  /** 409 when the name is taken (or is the built-in plan's). */
  async create(input: PlanInput): Promise<PlanRecord> {
    if (input.name === SELF_HOSTED_PLAN.name) throw new ConflictError(`The plan name ${SELF_HOSTED_PLAN.name} is the built-in plan's`);
    return this.ds.transaction(async (em) => {
      if (await em.getRepository(Plan).existsBy({ name: input.name })) throw new ConflictError(`A plan named ${input.name} already exists`);
      const plan = em.getRepository(Plan).create({ name: input.name, displayName: input.display_name, limits: input.limits });
      await em.getRepository(Plan).save(plan);
      return this.record(plan, undefined, null);
    });
  }

  /** Replaces the display name and the limits; the name stays (settings and billing know the plan by it). */
  async update(planId: string, input: Omit<PlanInput, 'name'>): Promise<PlanRecord> {
    const plan = await this.ds.transaction(async (em) => {
      const found = await this.load(em, planId, true);
      found.displayName = input.display_name;
      found.limits = input.limits;
      return em.getRepository(Plan).save(found);
    });
    return this.get(plan.id);
  }

  /** 409 while users or teams hold it, or while it is the instance's default plan. */
  async delete(planId: string): Promise<void> {
    await this.ds.transaction(async (em) => {
      const plan = await this.load(em, planId, true);
      const held = (await this.holders(em, [plan.id])).get(plan.id);
      if (held && (held.users || held.teams)) {
        throw new ConflictError(`Plan ${plan.name} is in use by ${held.users} user(s) and ${held.teams} team(s); assign them another plan first`);
      }
      if ((await readSettings(em)).default_plan === plan.name) throw new ConflictError(`Plan ${plan.name} is the instance's default plan; change the default plan first`);
      await em.getRepository(Plan).remove(plan);
    });
  }

  /** 404 `User not found` unless the user exists. */
  async assertUser(userId: string): Promise<void> {
    if (!(await this.ds.getRepository(User).existsBy({ id: userId }))) throw new NotFoundError('User not found');
  }

  /** A user's own plan (null: none of their own; their teams' or the default applies). */
  async assignToUser(userId: string, planId: string | null): Promise<User> {
    return this.ds.transaction(async (em) => {
      const user = await em.getRepository(User).findOne({ where: { id: userId }, lock: { mode: 'pessimistic_write' } });
      if (!user) throw new NotFoundError('User not found');
      user.planId = planId === null ? null : (await this.load(em, planId)).id;
      return em.getRepository(User).save(user);
    });
  }

  /** A team's plan: its members without a plan of their own get the most generous of their teams' plans. */
  async assignToTeam(teamId: string, planId: string | null): Promise<Team> {
    return this.ds.transaction(async (em) => {
      const team = await em.getRepository(Team).findOne({ where: { id: teamId }, lock: { mode: 'pessimistic_write' } });
      if (!team) throw new NotFoundError('Team not found');
      team.planId = planId === null ? null : (await this.load(em, planId)).id;
      return em.getRepository(Team).save(team);
    });
  }

  /** 404 `Plan not found`; `lock` takes the row for a change (a delete and an assignment at once cannot both pass). */
  private async load(em: EntityManager, planId: string, lock = false): Promise<Plan> {
    const plan = await em.getRepository(Plan).findOne({ where: { id: planId }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
    if (!plan) throw new NotFoundError('Plan not found');
    return plan;
  }

  private async holders(em: EntityManager, planIds: string[]): Promise<Map<string, { users: number; teams: number }>> {
    if (!planIds.length) return new Map();
    const rows: { id: string; users: number; teams: number }[] = await em.query(
      `SELECT p.id, (SELECT count(*) FROM users u WHERE u.plan_id = p.id)::int AS users, (SELECT count(*) FROM teams t WHERE t.plan_id = p.id)::int AS teams
         FROM unnest($1::uuid[]) AS p(id)`,
      [planIds],
    );
    return new Map(rows.map((r) => [r.id, { users: r.users, teams: r.teams }]));
  }

  private record(plan: Plan, held: { users: number; teams: number } | undefined, defaultPlan: string | null): PlanRecord {
    return {
      plan,
      effective: resolveLimits(plan.limits, configuredLimits(this.config)),
      users_count: held?.users ?? 0,
      teams_count: held?.teams ?? 0,
      is_default: defaultPlan === plan.name,
    };
  }
}

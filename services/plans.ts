import type { DataSource, EntityManager } from 'typeorm';
import { Plan, User, type ProjectRole } from '../entities';
import { loadConfig, type Config } from '../platform/config';
import { readSettings } from './admin/settings';
import { projectRolesOfUserSql } from './access';
import { NotFoundError } from './errors';
import { OPEN_JOBS_OF_USER } from './jobs';
import { configuredLimits, mostGenerous, resolveLimits, type PlanLimits, type ResolvedLimits } from './plan-limits';

/** The built-in plan: the operator's configuration, for accounts no admin-defined plan reaches. */
export const SELF_HOSTED_PLAN = { name: 'self_hosted', display_name: 'Self-hosted' } as const;

/** Most projects `GET /api/auth/tenant-info` lists in its one answer (`GET /api/projects` pages through all). */
export const TENANT_PROJECTS_MAX = 500;

/** What an account may use; null: no limit. */
export interface Quotas {
  /** The cap on an experiment's `max_models` (a larger request is a 422; an omitted one defaults to min(20, cap)). */
  max_models: number;
  /** The cap on an experiment's `max_runtime_secs` (a larger request is a 422). */
  max_runtime_secs: number;
  max_upload_bytes: number;
  /** Instance-wide (MAX_DATASET_COLUMNS): not a plan's. */
  max_dataset_columns: number;
  /** Projects the user may own. */
  max_projects: number | null;
  /** Jobs the user may have queued or running at once (an upload's own `dataset_profile` job is not counted); the plan's `max_concurrent_jobs`. */
  max_concurrent_jobs: number | null;
  /** The same as `max_concurrent_jobs`, under the name this answer had before plans existed. */
  max_open_jobs: number | null;
  /** Jobs one project may have queued or running at once, whoever started them. */
  max_open_jobs_per_project: number | null;
  /** The user's jobs of the kinds that hold an ml-cpu slot (profiling, drift, privacy, synthgen) that run at once; the rest wait their turn. */
  max_running_jobs: number | null;
  /** Predict requests the user may send a minute, over every deployment. */
  predictions_per_minute: number | null;
  /** Bytes the projects the user owns may hold (datasets, models, reports, exports); uploads and jobs past it are 403. */
  max_storage_bytes: number | null;
  /** Bytes one project may hold. */
  max_storage_bytes_per_project: number | null;
  /** Rows one synthgen generation may ask for (instance-wide, SYNTHGEN_MAX_ROWS: not a plan's). */
  max_synthgen_rows: number;
}

/** Where a user's plan came from. */
export type PlanSource = 'user' | 'team' | 'default' | 'built_in';

/** The plan a user works under, its limits resolved. */
export interface EffectivePlan {
  /** The `plans` row; null for the built-in `self_hosted` plan. */
  id: string | null;
  name: string;
  display_name: string;
  source: PlanSource;
  /** With `source: 'team'`: the names of the teams' plans whose most generous limits apply. */
  team_plans: string[];
  limits: ResolvedLimits;
}

/** The configuration of each data source's service, for callers that have only a manager (billing). */
const configBySource = new WeakMap<DataSource, Config>();
let fallbackConfig: Config | undefined;

function configOf(manager: EntityManager): Config {
  return configBySource.get(manager.connection) ?? (fallbackConfig ??= loadConfig());
}

interface PlanRow {
  id: string;
  name: string;
  display_name: string;
  limits: PlanLimits;
}

const PLAN_COLUMNS = 'p.id, p.name, p.display_name, p.limits';

/**
 * The plan a user works under: their own, else the most generous of their teams' plans (limit by limit: see
 * `mostGenerous`), else the instance's default plan (settings' `default_plan`), else the built-in `self_hosted` plan of
 * the configuration. Every quota check reads the user's limits from here (services/quotas.ts and the callers).
 */
export async function planOfUser(manager: EntityManager, userId: string): Promise<EffectivePlan> {
  const configured = configuredLimits(configOf(manager));
  const own: PlanRow[] = await manager.query(`SELECT ${PLAN_COLUMNS} FROM users u JOIN plans p ON p.id = u.plan_id WHERE u.id = $1`, [userId]);
  if (own[0]) return effective(own[0], 'user', configured);
  const teams: PlanRow[] = await manager.query(
    `SELECT DISTINCT ${PLAN_COLUMNS} FROM team_members tm JOIN teams t ON t.id = tm.team_id JOIN plans p ON p.id = t.plan_id WHERE tm.user_id = $1 ORDER BY p.name`,
    [userId],
  );
  if (teams.length) {
    return {
      ...effective(teams[0], 'team', configured),
      team_plans: teams.map((t) => t.name),
      limits: mostGenerous(teams.map((t) => resolveLimits(t.limits, configured))),
    };
  }
  const defaultName = (await readSettings(manager)).default_plan;
  if (defaultName) {
    const [byDefault]: PlanRow[] = await manager.query(`SELECT ${PLAN_COLUMNS} FROM plans p WHERE p.name = $1`, [defaultName]);
    if (byDefault) return effective(byDefault, 'default', configured);
  }
  return { id: null, ...SELF_HOSTED_PLAN, source: 'built_in', team_plans: [], limits: configured };
}

function effective(row: PlanRow, source: PlanSource, configured: ResolvedLimits): EffectivePlan {
  return { id: row.id, name: row.name, display_name: row.display_name, source, team_plans: [], limits: resolveLimits(row.limits, configured) };
}

/** The limits of the user's plan, as a quota check reads them. */
export async function limitsOfUser(manager: EntityManager, userId: string): Promise<ResolvedLimits> {
  return (await planOfUser(manager, userId)).limits;
}

/**
 * Gives a user a plan of their own by name (billing, after a subscription changes), or takes it away (null: back to
 * their teams' plan or the default). 404 `Plan not found` / `User not found`. Written through the entity, so the
 * audit log records the change.
 */
export async function assignPlan(manager: EntityManager, userId: string, planName: string | null): Promise<void> {
  let planId: string | null = null;
  if (planName !== null) {
    const plan = await manager.getRepository(Plan).findOneBy({ name: planName });
    if (!plan) throw new NotFoundError('Plan not found');
    planId = plan.id;
  }
  const users = manager.getRepository(User);
  const user = await users.findOneBy({ id: userId });
  if (!user) throw new NotFoundError('User not found');
  user.planId = planId;
  await users.save(user);
}

/** A plan's limits as the account answers show them (`quotas`), with the instance-wide limits beside them. */
export function quotasOf(limits: ResolvedLimits, config: Config): Quotas {
  return {
    ...limits,
    max_open_jobs: limits.max_concurrent_jobs,
    max_dataset_columns: config.limits.maxDatasetColumns,
    max_synthgen_rows: config.synthgen.maxRows,
  };
}

/** What the account uses: the projects it owns and what they hold, and its open jobs. */
export interface Usage {
  projects_owned: number;
  projects_member: number;
  datasets: number;
  experiments: number;
  models: number;
  /** Bytes of the artifacts (dataset files, models, reports, exports...) of the projects the user owns. */
  storage_bytes: number;
  open_jobs: number;
  /** Predict requests the user sent in the current minute (what `predictions_per_minute` counts). */
  predictions_this_minute: number;
}

/** The rate-limit window `predictions_per_minute` counts in (api/app.ts), per user, one minute long. */
export const PREDICTIONS_WINDOW = { secs: 60, key: (userId: string) => `plan_predictions:user:${userId}` } as const;

/** A plan as the account answers show it: who it came from, its quotas and the usage. */
export type PlanView = Omit<EffectivePlan, 'limits'> & { quotas: Quotas; usage: Usage };

export interface TenantProject {
  id: string;
  name: string;
  role: ProjectRole;
  created_at: Date;
}

/** The account's plan, quotas and usage (`GET /api/auth/plan`), and the tenant summary (`GET /api/auth/tenant-info`). */
export class Plans {
  constructor(
    private readonly ds: DataSource,
    private readonly config: Config,
  ) {
    configBySource.set(ds, config);
  }

  /** The plan the user works under (see {@link planOfUser}); `em` inside a transaction that counts against it. */
  of(userId: string, em: EntityManager = this.ds.manager): Promise<EffectivePlan> {
    return planOfUser(em, userId);
  }

  /** The plan with its quotas and what the user uses of them. */
  async plan(userId: string): Promise<PlanView> {
    const { limits, ...plan } = await planOfUser(this.ds.manager, userId);
    return { ...plan, quotas: quotasOf(limits, this.config), usage: await this.usage(userId) };
  }

  /** The account, its projects with the user's role in each (at most {@link TENANT_PROJECTS_MAX}, by name), its quotas, usage and rate limits. */
  async tenant(user: User) {
    const projects: TenantProject[] = await this.ds.query(
      `SELECT p.id, p.name, m.role, p.created_at FROM projects p JOIN (${projectRolesOfUserSql('$1')}) m ON m.project_id = p.id
        ORDER BY lower(p.name), p.id LIMIT ${TENANT_PROJECTS_MAX}`,
      [user.id],
    );
    const usage = await this.usage(user.id);
    const { limits, ...plan } = await planOfUser(this.ds.manager, user.id);
    const { windowSecs, ...rateLimits } = this.config.rateLimits;
    return {
      user,
      plan,
      projects,
      projects_total: usage.projects_member,
      quotas: quotasOf(limits, this.config),
      usage,
      rate_limits: { window_secs: windowSecs, ...rateLimits },
    };
  }

  /** What the user uses: the projects they own and what those hold, their open jobs and this minute's predictions. */
  async usage(userId: string): Promise<Usage> {
    const [row] = await this.ds.query(
      `WITH owned AS (SELECT project_id FROM project_members WHERE user_id = $1 AND role = 'owner')
       SELECT (SELECT count(*) FROM owned)::int AS projects_owned,
              (SELECT count(DISTINCT project_id) FROM project_access WHERE user_id = $1)::int AS projects_member,
              (SELECT count(*) FROM datasets WHERE project_id IN (SELECT project_id FROM owned))::int AS datasets,
              (SELECT count(*) FROM experiments WHERE project_id IN (SELECT project_id FROM owned))::int AS experiments,
              (SELECT count(*) FROM models WHERE project_id IN (SELECT project_id FROM owned))::int AS models,
              (SELECT coalesce(sum(size_bytes), 0) FROM artifacts WHERE project_id IN (SELECT project_id FROM owned))::text AS storage_bytes,
              (SELECT count(*) FROM ${OPEN_JOBS_OF_USER})::int AS open_jobs,
              (SELECT coalesce(sum(count), 0) FROM rate_limit_windows
                WHERE bucket_key = $2 AND window_start = to_timestamp(floor(extract(epoch FROM now()) / ${PREDICTIONS_WINDOW.secs}) * ${PREDICTIONS_WINDOW.secs}))::int AS predictions_this_minute`,
      [userId, PREDICTIONS_WINDOW.key(userId)],
    );
    return { ...row, storage_bytes: Number(row.storage_bytes) };
  }
}

import type { DataSource } from 'typeorm';
import type { ProjectRole, User } from '../entities';
import { CONFIG_LIMITS } from '../engine/automl';
import type { Config } from '../platform/config';
import { OPEN_JOBS_OF_USER } from './jobs';

/** This service is self-hosted: every account has the one plan, its quotas set by the operator's config. */
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
  max_dataset_columns: number;
  /** Projects the user may own. */
  max_projects: number | null;
  /** Jobs the user may have queued or running at once (an upload's own `dataset_profile` job is not counted). */
  max_open_jobs: number | null;
  /** Jobs one project may have queued or running at once, whoever started them. */
  max_open_jobs_per_project: number | null;
  /** The user's jobs of the kinds that hold an ml-cpu slot (profiling, drift, privacy, synthgen) that run at once; the rest wait their turn. */
  max_running_jobs: number | null;
  /** Bytes the projects the user owns may hold (datasets, models, reports, exports); uploads and jobs past it are 403. */
  max_storage_bytes: number | null;
  /** Bytes one project may hold. */
  max_storage_bytes_per_project: number | null;
  /** Rows one synthgen generation may ask for. */
  max_synthgen_rows: number;
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
}

export interface TenantProject {
  id: string;
  name: string;
  role: ProjectRole;
  created_at: Date;
}

/** The cap an experiment's `max_models` is held to: the account quota, within the engine's own cap. */
export function maxModelsCap(config: Config): number {
  return Math.min(CONFIG_LIMITS.max_models_cap, config.quotas.maxModelsPerExperiment);
}

/** The cap an experiment's `max_runtime_secs` is held to: the account quota, within the engine's own cap (7 days). */
export function maxRuntimeSecsCap(config: Config): number {
  return Math.min(CONFIG_LIMITS.max_runtime_secs_max, config.quotas.maxRuntimeSecsPerExperiment);
}

/** The quotas of the self-hosted plan, from the config. */
export function planQuotas(config: Config): Quotas {
  return {
    max_models: maxModelsCap(config),
    max_runtime_secs: maxRuntimeSecsCap(config),
    max_upload_bytes: config.limits.maxDatasetUploadBytes,
    max_dataset_columns: config.limits.maxDatasetColumns,
    max_projects: config.quotas.maxProjectsPerUser,
    max_open_jobs: config.quotas.maxOpenJobsPerUser,
    max_open_jobs_per_project: config.quotas.maxOpenJobsPerProject,
    max_running_jobs: config.quotas.maxRunningJobsPerUser,
    max_storage_bytes: config.quotas.maxStorageBytesPerUser,
    max_storage_bytes_per_project: config.quotas.maxStorageBytesPerProject,
    max_synthgen_rows: config.synthgen.maxRows,
  };
}

/** The account's plan, quotas and usage (`GET /api/auth/plan`), and the tenant summary (`GET /api/auth/tenant-info`). */
export class Plans {
  constructor(
    private readonly ds: DataSource,
    private readonly config: Config,
  ) {}

  /** The plan with its quotas and what the user uses of them. */
  async plan(userId: string): Promise<typeof SELF_HOSTED_PLAN & { quotas: Quotas; usage: Usage }> {
    return { ...SELF_HOSTED_PLAN, quotas: planQuotas(this.config), usage: await this.usage(userId) };
  }

  /** The account, its projects with the user's role in each (at most {@link TENANT_PROJECTS_MAX}, by name), its quotas, usage and rate limits. */
  async tenant(user: User) {
    const projects: TenantProject[] = await this.ds.query(
      `SELECT p.id, p.name, m.role, p.created_at FROM projects p JOIN project_members m ON m.project_id = p.id AND m.user_id = $1
        ORDER BY lower(p.name), p.id LIMIT ${TENANT_PROJECTS_MAX}`,
      [user.id],
    );
    const usage = await this.usage(user.id);
    const { windowSecs, ...rateLimits } = this.config.rateLimits;
    return {
      user,
      plan: SELF_HOSTED_PLAN,
      projects,
      projects_total: usage.projects_member,
      quotas: planQuotas(this.config),
      usage,
      rate_limits: { window_secs: windowSecs, ...rateLimits },
    };
  }

  private async usage(userId: string): Promise<Usage> {
    const [row] = await this.ds.query(
      `WITH owned AS (SELECT project_id FROM project_members WHERE user_id = $1 AND role = 'owner')
       SELECT (SELECT count(*) FROM owned)::int AS projects_owned,
              (SELECT count(*) FROM project_members WHERE user_id = $1)::int AS projects_member,
              (SELECT count(*) FROM datasets WHERE project_id IN (SELECT project_id FROM owned))::int AS datasets,
              (SELECT count(*) FROM experiments WHERE project_id IN (SELECT project_id FROM owned))::int AS experiments,
              (SELECT count(*) FROM models WHERE project_id IN (SELECT project_id FROM owned))::int AS models,
              (SELECT coalesce(sum(size_bytes), 0) FROM artifacts WHERE project_id IN (SELECT project_id FROM owned))::text AS storage_bytes,
              (SELECT count(*) FROM ${OPEN_JOBS_OF_USER})::int AS open_jobs`,
      [userId],
    );
    return { ...row, storage_bytes: Number(row.storage_bytes) };
  }
}

import type { DataSource, EntityManager, EntityTarget } from 'typeorm';
import {
  AbTest,
  Alert,
  AlertChannel,
  AlertRule,
  AlertSuppression,
  Artifact,
  Dataset,
  DatasetVersion,
  Deployment,
  Experiment,
  Job,
  Model,
  PrivacyPolicy,
  PrivacySession,
  Project,
  PROJECT_ROLES,
  ProjectRole,
  RegisteredModel,
  RegistryVersion,
  Report,
  StudioScenario,
  StudioSession,
  SynthgenJob,
  SynthgenModel,
} from '../entities';
import { ForbiddenError, NotFoundError } from './errors';

export type { ProjectRole };

export function roleRank(role: ProjectRole): number {
  return PROJECT_ROLES.indexOf(role);
}

/**
 * Who may give a role in a project (adding a member, changing a role, inviting): nobody assigns a role above
 * their own, and only owners manage members. The first rule is checked first, so its refusal names it.
 */
export function assertCanGrantRole(callerRole: ProjectRole, role: ProjectRole): void {
  if (roleRank(role) > roleRank(callerRole)) throw new ForbiddenError('Cannot assign a role above your own');
  if (callerRole !== 'owner') throw new ForbiddenError('Only the project owner can manage members');
}

/** A project-owned row: every resource below a project carries its project id. */
interface ProjectOwned {
  id: string;
  projectId: string;
}

/**
 * The access loaders: each loads one resource for a user, or throws. A resource the user cannot
 * reach (no such row, or not a member of its project) is the resource's own 404 text, so an
 * answer never reveals that something exists; a member with too small a role gets 403.
 * Every method takes an optional EntityManager so a transaction can load under its own locks.
 */
export class Access {
  constructor(private readonly ds: DataSource) {}

  /**
   * The project and the user's effective role in it (the highest of their own membership and their teams' grants);
   * 404 `Project not found` for users with neither. Read afresh on every call: a removal counts at the next request.
   */
  async project(userId: string, projectId: string, minRole: ProjectRole = 'viewer', em: EntityManager = this.ds.manager): Promise<{ project: Project; role: ProjectRole }> {
    // One query on every request: the project and the highest of the user's own and their teams' roles in it.
    const row = await em.getRepository(Project).createQueryBuilder('p').addSelect(`(${EFFECTIVE_ROLE_SQL})`, 'member_role').where('p.id = :projectId', { projectId, userId }).getRawAndEntities();
    const project = row.entities[0];
    const role = row.raw[0]?.member_role as ProjectRole | null | undefined;
    if (!project || !role) throw new NotFoundError('Project not found');
    if (roleRank(role) < roleRank(minRole)) throw new ForbiddenError(`This action requires the ${minRole} role in the project`);
    return { project, role };
  }

  /** The user's role in a project, with the resource's own 404 text for non-members. */
  async role(userId: string, projectId: string, notFoundText: string, minRole: ProjectRole = 'viewer', em: EntityManager = this.ds.manager): Promise<ProjectRole> {
    try {
      return (await this.project(userId, projectId, minRole, em)).role;
    } catch (err) {
      if (err instanceof NotFoundError) throw new NotFoundError(notFoundText);
      throw err;
    }
  }

  dataset(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<Dataset> {
    return this.owned(Dataset, id, 'Dataset not found', userId, minRole, em);
  }

  experiment(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<Experiment> {
    return this.owned(Experiment, id, 'Experiment not found', userId, minRole, em);
  }

  model(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<Model> {
    return this.owned(Model, id, 'Model not found', userId, minRole, em);
  }

  /** Any deployment of the user's projects, archived ones included (predict adds its own activity check). */
  deployment(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<Deployment> {
    return this.owned(Deployment, id, DEPLOYMENT_NOT_FOUND, userId, minRole, em);
  }

  /** A job of one of the user's projects; an instance-wide job (no project: `retention`) is no member's, so 404 here. */
  async job(userId: string, id: string, minRole: ProjectRole = 'viewer', em: EntityManager = this.ds.manager): Promise<Job & { projectId: string }> {
    const job = await em.getRepository(Job).findOneBy({ id });
    if (!job?.projectId) throw new NotFoundError('Job not found');
    await this.role(userId, job.projectId, 'Job not found', minRole, em);
    return job as Job & { projectId: string };
  }

  artifact(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<Artifact> {
    return this.owned(Artifact, id, 'Artifact not found', userId, minRole, em);
  }

  /** A dataset version (reached through its dataset's project) with its dataset. */
  async version(userId: string, versionId: string, minRole: ProjectRole = 'viewer', em: EntityManager = this.ds.manager): Promise<{ version: DatasetVersion; dataset: Dataset }> {
    const version = await em.getRepository(DatasetVersion).findOneBy({ id: versionId });
    const dataset = version ? await em.getRepository(Dataset).findOneBy({ id: version.datasetId }) : null;
    if (!version || !dataset) throw new NotFoundError('Dataset version not found');
    await this.role(userId, dataset.projectId, 'Dataset version not found', minRole, em);
    return { version, dataset };
  }

  studioSession(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<StudioSession> {
    return this.owned(StudioSession, id, 'Studio session not found', userId, minRole, em);
  }

  studioScenario(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<StudioScenario> {
    return this.owned(StudioScenario, id, 'Scenario not found', userId, minRole, em);
  }

  report(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<Report> {
    return this.owned(Report, id, 'Report not found', userId, minRole, em);
  }

  privacyPolicy(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<PrivacyPolicy> {
    return this.owned(PrivacyPolicy, id, POLICY_NOT_FOUND, userId, minRole, em);
  }

  privacySession(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<PrivacySession> {
    return this.owned(PrivacySession, id, SESSION_NOT_FOUND, userId, minRole, em);
  }

  /** A synthgen model: the spec's `Model not found` for missing and other users' ids alike. */
  synthgenModel(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<SynthgenModel> {
    return this.owned(SynthgenModel, id, 'Model not found', userId, minRole, em);
  }

  synthgenJob(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<SynthgenJob> {
    return this.owned(SynthgenJob, id, 'Job not found', userId, minRole, em);
  }

  alertChannel(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<AlertChannel> {
    return this.owned(AlertChannel, id, 'Channel not found', userId, minRole, em);
  }

  alertRule(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<AlertRule> {
    return this.owned(AlertRule, id, 'Alert rule not found', userId, minRole, em);
  }

  alert(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<Alert> {
    return this.owned(Alert, id, 'Alert not found', userId, minRole, em);
  }

  alertSuppression(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<AlertSuppression> {
    return this.owned(AlertSuppression, id, 'Suppression not found', userId, minRole, em);
  }

  registeredModel(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<RegisteredModel> {
    return this.owned(RegisteredModel, id, REGISTERED_MODEL_NOT_FOUND, userId, minRole, em);
  }

  registryVersion(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<RegistryVersion> {
    return this.owned(RegistryVersion, id, REGISTRY_VERSION_NOT_FOUND, userId, minRole, em);
  }

  abTest(userId: string, id: string, minRole: ProjectRole = 'viewer', em?: EntityManager): Promise<AbTest> {
    return this.owned(AbTest, id, AB_TEST_NOT_FOUND, userId, minRole, em);
  }

  private async owned<T extends ProjectOwned>(entity: EntityTarget<T>, id: string, notFoundText: string, userId: string, minRole: ProjectRole, em: EntityManager = this.ds.manager): Promise<T> {
    const row = (await em.getRepository(entity).findOneBy({ id } as never)) as T | null;
    if (!row) throw new NotFoundError(notFoundText);
    await this.role(userId, row.projectId, notFoundText, minRole, em);
    return row;
  }
}

/** The spec's one 404 text for deployments: missing, another user's, or (for predict) inactive. */
export const DEPLOYMENT_NOT_FOUND = 'Deployment not found or inactive';

/** The registry's 404 texts (issue 31). */
export const REGISTERED_MODEL_NOT_FOUND = 'Registered model not found';
export const REGISTRY_VERSION_NOT_FOUND = 'Version not found';

export const AB_TEST_NOT_FOUND = 'A/B test not found';

/** The spec's 404 texts of the privacy suite. */
export const POLICY_NOT_FOUND = 'Policy not found';
export const SESSION_NOT_FOUND = 'Session not found';

/**
 * SQL over the projects the caller can reach, by their own membership or a team's grant (the `project_access` view,
 * migration 1732472000000), for filtering lists of project-owned rows (`:userId` bound).
 */
export const MEMBER_PROJECTS_SQL = 'SELECT pm.project_id FROM project_access pm WHERE pm.user_id = :userId';

/** A role's rank in SQL (`viewer` 1 … `owner` 4), in the order of PROJECT_ROLES. */
export function roleRankSql(column: string): string {
  return `array_position(ARRAY[${PROJECT_ROLES.map((r) => `'${r}'`).join(',')}]::text[], ${column})`;
}

/** The user's effective role in project `p.id` (`:userId` bound), or null: served by the primary keys of the view's tables. */
const EFFECTIVE_ROLE_SQL = `SELECT a.role FROM project_access a WHERE a.project_id = p.id AND a.user_id = :userId ORDER BY ${roleRankSql('a.role')} DESC LIMIT 1`;

/**
 * The projects a user can reach with their effective role in each, as SQL for a FROM clause (`project_id`, `role`;
 * `userParam` is the placeholder of the user's id, `$1` or `:userId`): driven by the user-id indexes of the view's
 * tables, so it costs what the user's memberships cost, whatever the number of projects.
 */
export function projectRolesOfUserSql(userParam: string): string {
  return `SELECT a.project_id, (array_agg(a.role ORDER BY ${roleRankSql('a.role')} DESC))[1] AS role FROM project_access a WHERE a.user_id = ${userParam} GROUP BY a.project_id`;
}

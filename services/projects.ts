import { PassThrough, Writable } from 'node:stream';
import type { DataSource, EntityManager } from 'typeorm';
import { Project, ProjectInvitation, ProjectMember, ProjectRole, User } from '../entities';
import type { ArtifactStore } from '../platform/artifact-store';
import type { Config } from '../platform/config';
import { Access, assertCanGrantRole, projectRolesOfUserSql } from './access';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from './errors';
import { limitsOfUser } from './plans';
import { likePattern, ListQuery, Page, sqlDirection } from './lists';
import { ArchiveProgress, writeProjectArchive } from './project-archive';

/** Per-project counts as SQL expressions over `p`. */
const PROJECT_COUNTS: Record<'dataset_count' | 'experiment_count' | 'model_count', string> = {
  dataset_count: 'SELECT count(*) FROM datasets d WHERE d.project_id = p.id',
  experiment_count: 'SELECT count(*) FROM experiments e WHERE e.project_id = p.id',
  model_count: 'SELECT count(*) FROM models m WHERE m.project_id = p.id',
};

export const PROJECT_SORT_FIELDS = ['created_at', 'name', 'dataset_count', 'model_count', 'experiment_count'] as const;

/** A project as lists show it: with the caller's role and its counts. */
export interface ProjectSummary {
  id: string;
  name: string;
  description: string;
  status: string;
  created_at: Date;
  role: ProjectRole;
  dataset_count: number | string;
  experiment_count: number | string;
  model_count: number | string;
}

export interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: ProjectRole;
  created_at: Date;
}

export type TimelineEvent =
  | { id: string; type: 'dataset'; name: string; version: number; rows: number; columns: number; timestamp: string }
  | { id: string; type: 'experiment'; name: string; status: string; target_column: string; problem_type: string; best_model_type: string | null; duration: number | null; timestamp: string };

const SELECT_SUMMARY = `SELECT p.id, p.name, p.description, p.status, p.created_at, m.role,
  ${Object.entries(PROJECT_COUNTS)
    .map(([k, v]) => `(${v}) AS ${k}`)
    .join(', ')}
  FROM projects p JOIN (${projectRolesOfUserSql('$1')}) m ON m.project_id = p.id`;

export function cleanProjectName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new ValidationError('Project name must not be empty');
  return trimmed;
}

/** Projects: membership and roles, the timeline, deletion and exports (the export job starts through `JobService.startFor`). */
export class ProjectService {
  constructor(
    private readonly ds: DataSource,
    private readonly store: ArtifactStore,
    private readonly access: Access,
    private readonly config: Config,
  ) {}

  /** Projects the user is a member of: search on name and description, sort, page. */
  async list(userId: string, q: ListQuery<(typeof PROJECT_SORT_FIELDS)[number]>): Promise<Page<ProjectSummary>> {
    const params: unknown[] = [userId];
    let where = '';
    if (q.search) {
      params.push(likePattern(q.search));
      where = ` WHERE (p.name ILIKE $2 OR p.description ILIKE $2)`;
    }
    const order = q.sort_field === 'name' ? 'lower(name)' : q.sort_field;
    const dir = sqlDirection(q.sort_direction);
    // The page and the total in one round trip; a page past the end has no row to carry the total, so it counts apart.
    const rows: (ProjectSummary & { total_count: number })[] = await this.ds.query(
      `SELECT *, count(*) OVER ()::int AS total_count FROM (${SELECT_SUMMARY}${where}) p ORDER BY ${order} ${dir}, id ${dir} LIMIT ${q.limit} OFFSET ${q.offset}`,
      params,
    );
    let total = rows[0]?.total_count;
    if (total === undefined) [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM (${SELECT_SUMMARY}${where}) x`, params);
    const items = rows.map(({ total_count: _, ...item }) => item as ProjectSummary);
    return { items, total: Number(total), limit: q.limit, offset: q.offset };
  }

  /** A project by id, for jobs acting on it (no user: the job's creator was checked when it started). */
  async byId(projectId: string): Promise<Project> {
    const project = await this.ds.getRepository(Project).findOneBy({ id: projectId });
    if (!project) throw new NotFoundError(`Project ${projectId} no longer exists`);
    return project;
  }

  async summary(userId: string, projectId: string): Promise<ProjectSummary> {
    const rows: ProjectSummary[] = await this.ds.query(`${SELECT_SUMMARY} WHERE p.id = $2`, [userId, projectId]);
    if (!rows[0]) throw new NotFoundError('Project not found');
    return rows[0];
  }

  /**
   * A new project; the creator becomes its owner. A user who owns their plan's `max_projects` projects already
   * gets 409 (counted under a per-user lock, so two requests at once cannot both pass).
   */
  async create(ownerId: string, name: string, description: string): Promise<Project> {
    const cleanName = cleanProjectName(name);
    return this.ds.transaction(async (em) => {
      // The plan's max_projects (services/plans.ts); the message keeps its wording from before plans.
      const cap = (await limitsOfUser(em, ownerId)).max_projects;
      if (cap !== null) {
        await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`projects-owned:${ownerId}`]);
        const [{ n }] = await em.query(`SELECT count(*)::int AS n FROM project_members WHERE user_id = $1 AND role = 'owner'`, [ownerId]);
        if (n >= cap) throw new ConflictError(`Project quota reached: a user may own at most ${cap} projects`);
      }
      const project = em.getRepository(Project).create({ name: cleanName, description, ownerId, status: 'active' });
      await em.getRepository(Project).insert(project);
      await em.getRepository(ProjectMember).insert({ projectId: project.id, userId: ownerId, role: 'owner' });
      return project;
    });
  }

  /** Renames or describes a project (editor or above). */
  async update(userId: string, projectId: string, p: { name: string; description?: string }): Promise<Project> {
    const { project } = await this.access.project(userId, projectId, 'editor');
    project.name = cleanProjectName(p.name);
    if (p.description !== undefined) project.description = p.description;
    await this.ds.getRepository(Project).update({ id: project.id }, { name: project.name, description: project.description });
    return project;
  }

  /** Deletes a project and all it holds (owner only). */
  async delete(userId: string, projectId: string): Promise<void> {
    const { project } = await this.access.project(userId, projectId, 'owner');
    const files = await this.ds.transaction((em) => deleteProjectsData(em, [project.id]));
    await Promise.all(files.map((key) => this.store.remove(key)));
  }

  /**
   * Adds a registered user to the project by email, or changes a member's role (`POST …/members`): the user
   * has access at once. An email without an account is 404 `User not found` (invite it with
   * `POST /api/auth/invite` instead); the route's tight rate limit keeps this from being a fast way to probe
   * for accounts. Only owners manage members; nobody assigns a role above their own; the last owner cannot be
   * demoted. A pending invitation of the address into the project is spent: it has nothing left to grant.
   */
  async upsertMember(userId: string, projectId: string, emailRaw: string, role: ProjectRole): Promise<MemberRow> {
    const { role: callerRole } = await this.access.project(userId, projectId);
    assertCanGrantRole(callerRole, role);
    const email = emailRaw.trim().toLowerCase();
    return this.ds.transaction(async (em): Promise<MemberRow> => {
      await lockProject(em, projectId);
      const user = await em.getRepository(User).findOneBy({ email });
      if (!user) throw new NotFoundError('User not found');
      const members = em.getRepository(ProjectMember);
      const current = await members.findOneBy({ projectId, userId: user.id });
      if (!current) await members.insert({ projectId, userId: user.id, role });
      else if (current.role !== role) {
        if (current.role === 'owner') await assertAnotherOwner(em, projectId, user.id);
        await members.update({ projectId, userId: user.id }, { role });
      }
      await em.getRepository(ProjectInvitation).delete({ projectId, email });
      const saved = await members.findOneByOrFail({ projectId, userId: user.id });
      return { user_id: user.id, email: user.email, name: user.name, role: saved.role, created_at: saved.createdAt };
    });
  }

  /** Removes a member (owner only), or the caller leaves; a project keeps at least one owner. */
  async removeMember(userId: string, projectId: string, memberId: string): Promise<void> {
    const { role } = await this.access.project(userId, projectId);
    await this.ds.transaction(async (em) => {
      await lockProject(em, projectId);
      const self = userId === memberId;
      if (!self && role !== 'owner') throw new ForbiddenError('Only the project owner can manage members');
      const member = await em.getRepository(ProjectMember).findOneBy({ projectId, userId: memberId });
      if (!member) throw new NotFoundError('Member not found');
      if (member.role === 'owner') await assertAnotherOwner(em, projectId, memberId);
      await em.getRepository(ProjectMember).delete({ projectId, userId: memberId });
    });
  }

  /** Dataset and experiment events of the project, newest first. */
  async timeline(userId: string, projectId: string): Promise<TimelineEvent[]> {
    await this.access.project(userId, projectId);
    const datasetEvents: { id: string; name: string; version: number; rows: string; columns: number; timestamp: Date }[] = await this.ds.query(
      `SELECT v.id, d.name, v.version, v.row_count AS rows, v.column_count AS columns, v.created_at AS timestamp
         FROM dataset_versions v JOIN datasets d ON d.id = v.dataset_id WHERE d.project_id = $1`,
      [projectId],
    );
    const experimentEvents: {
      id: string;
      name: string;
      status: string;
      target_column: string;
      problem_type: string;
      best_model_type: string | null;
      started_at: Date | null;
      finished_at: Date | null;
      timestamp: Date;
    }[] = await this.ds.query(
      `SELECT e.id, e.name, e.status, e.target_column, e.problem_type, m.algo AS best_model_type, e.started_at, e.finished_at, e.created_at AS timestamp
         FROM experiments e LEFT JOIN models m ON m.id = e.best_model_id WHERE e.project_id = $1`,
      [projectId],
    );
    const events: TimelineEvent[] = [
      ...datasetEvents.map((e) => ({ id: e.id, type: 'dataset' as const, name: e.name, version: e.version, rows: Number(e.rows), columns: e.columns, timestamp: new Date(e.timestamp).toISOString() })),
      ...experimentEvents.map((e) => ({
        id: e.id,
        type: 'experiment' as const,
        name: e.name,
        status: e.status,
        target_column: e.target_column,
        problem_type: e.problem_type,
        best_model_type: e.best_model_type,
        duration: e.started_at && e.finished_at ? (new Date(e.finished_at).getTime() - new Date(e.started_at).getTime()) / 1000 : null,
        timestamp: new Date(e.timestamp).toISOString(),
      })),
    ];
    return events.sort((a, b) => b.timestamp.localeCompare(a.timestamp));
  }

  /**
   * The project's ZIP streamed to the caller. Missing files are found before the first byte
   * (a fault after the headers could only cut the stream): they reject the returned promise.
   */
  async archiveStream(userId: string, projectId: string, onLateError: (err: Error) => void): Promise<{ project: Project; body: PassThrough }> {
    const { project } = await this.access.project(userId, projectId);
    const body = new PassThrough();
    const done = this.writeArchive(project.id, body);
    await Promise.race([done, new Promise((r) => body.once('readable', r))]);
    done.catch((err: Error) => {
      onLateError(err);
      body.destroy(err);
    });
    return { project, body };
  }

  /** Writes the project's ZIP (manifest and every artifact) to `out`; the export job uses it too. */
  writeArchive(projectId: string, out: Writable, opts: { onProgress?: (p: ArchiveProgress) => void; signal?: AbortSignal } = {}) {
    return writeProjectArchive(this.ds, this.store, projectId, out, opts);
  }
}

/**
 * Membership changes of one project run one at a time: the owner count they check cannot change
 * under them (two owners leaving at once would otherwise both see the other one stay).
 */
async function lockProject(em: EntityManager, projectId: string): Promise<void> {
  const locked = await em.query('SELECT id FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
  if (!locked[0]) throw new NotFoundError('Project not found');
}

async function assertAnotherOwner(em: EntityManager, projectId: string, userId: string) {
  const others = await em.getRepository(ProjectMember).createQueryBuilder('m').where("m.project_id = :projectId AND m.role = 'owner' AND m.user_id <> :userId", { projectId, userId }).getCount();
  if (others === 0) throw new ConflictError('A project must keep at least one owner');
}

/**
 * Deletes projects and everything they hold, children before the rows they reference
 * (cascades alone would delete artifacts before the versions and models that point at them).
 * Returns the storage keys of the artifact files, to remove after the transaction commits.
 */
export async function deleteProjectsData(em: EntityManager, projectIds: string[]): Promise<string[]> {
  if (!projectIds.length) return [];
  const files: { storage_key: string }[] = await em.query('SELECT storage_key FROM artifacts WHERE project_id = ANY($1)', [projectIds]);
  await em.query('DELETE FROM models WHERE project_id = ANY($1)', [projectIds]);
  await em.query('DELETE FROM experiments WHERE project_id = ANY($1)', [projectIds]);
  await em.query('DELETE FROM synthgen_models WHERE project_id = ANY($1)', [projectIds]);
  await em.query('DELETE FROM dataset_versions v USING datasets d WHERE d.id = v.dataset_id AND d.project_id = ANY($1)', [projectIds]);
  await em.query('DELETE FROM datasets WHERE project_id = ANY($1)', [projectIds]);
  await em.query('DELETE FROM artifacts WHERE project_id = ANY($1)', [projectIds]);
  await em.query('DELETE FROM projects WHERE id = ANY($1)', [projectIds]);
  return files.map((f) => f.storage_key);
}

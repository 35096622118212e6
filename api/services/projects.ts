import type { DataSource, EntityManager } from 'typeorm';
import { Project, ProjectMember, ProjectRole, User } from '../../entities';
import { conflict, forbidden, notFound, unprocessable } from '../errors';
import { likePattern } from '../validation';
import { roleRank } from './access';

/** Per-project counts as SQL expressions over `p`. */
export const PROJECT_COUNTS: Record<'dataset_count' | 'experiment_count' | 'model_count', string> = {
  dataset_count: 'SELECT count(*) FROM datasets d WHERE d.project_id = p.id',
  experiment_count: 'SELECT count(*) FROM experiments e WHERE e.project_id = p.id',
  model_count: 'SELECT count(*) FROM models m WHERE m.project_id = p.id',
};

export const PROJECT_SORT_FIELDS = ['created_at', 'name', 'dataset_count', 'model_count', 'experiment_count'] as const;

export interface ProjectSummaryRow {
  id: string;
  name: string;
  description: string;
  status: string;
  created_at: Date;
  role: ProjectRole;
  dataset_count: number;
  experiment_count: number;
  model_count: number;
}

export function presentProject(r: ProjectSummaryRow) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    status: r.status,
    dataset_count: Number(r.dataset_count),
    experiment_count: Number(r.experiment_count),
    model_count: Number(r.model_count),
    role: r.role,
    created_at: new Date(r.created_at).toISOString(),
  };
}

const SELECT_SUMMARY = `SELECT p.id, p.name, p.description, p.status, p.created_at, m.role,
  ${Object.entries(PROJECT_COUNTS).map(([k, v]) => `(${v}) AS ${k}`).join(', ')}
  FROM projects p JOIN project_members m ON m.project_id = p.id AND m.user_id = $1`;

/** Projects the user is a member of: search on name and description, sort, page. */
export async function listProjects(
  ds: DataSource,
  userId: string,
  q: { limit: number; offset: number; search?: string; sort_field: (typeof PROJECT_SORT_FIELDS)[number]; sort_direction: 'asc' | 'desc' },
) {
  const params: unknown[] = [userId];
  let where = '';
  if (q.search) {
    params.push(likePattern(q.search));
    where = ` WHERE (p.name ILIKE $2 OR p.description ILIKE $2)`;
  }
  const order = q.sort_field === 'name' ? 'lower(p.name)' : q.sort_field === 'created_at' ? 'p.created_at' : q.sort_field;
  const dir = q.sort_direction === 'asc' ? 'ASC' : 'DESC';
  const rows: ProjectSummaryRow[] = await ds.query(
    `SELECT * FROM (${SELECT_SUMMARY}${where}) p ORDER BY ${order.replace('p.', '')} ${dir}, id ${dir} LIMIT ${q.limit} OFFSET ${q.offset}`,
    params,
  );
  const [{ total }] = await ds.query(`SELECT count(*)::int AS total FROM (${SELECT_SUMMARY}${where}) x`, params);
  return { items: rows.map(presentProject), total: Number(total), limit: q.limit, offset: q.offset };
}

export async function projectSummary(ds: DataSource, userId: string, projectId: string) {
  const rows: ProjectSummaryRow[] = await ds.query(`${SELECT_SUMMARY} WHERE p.id = $2`, [userId, projectId]);
  if (!rows[0]) throw notFound('Project not found');
  return presentProject(rows[0]);
}

export function cleanProjectName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw unprocessable('Project name must not be empty');
  return trimmed;
}

export async function createProject(ds: DataSource, ownerId: string, name: string, description: string): Promise<Project> {
  return ds.transaction(async (em) => {
    const project = em.getRepository(Project).create({ name: cleanProjectName(name), description, ownerId, status: 'active' });
    await em.getRepository(Project).insert(project);
    await em.getRepository(ProjectMember).insert({ projectId: project.id, userId: ownerId, role: 'owner' });
    return project;
  });
}

/**
 * Adds a member or changes a role. Only owners manage members; nobody assigns a role above
 * their own; the last owner cannot be demoted.
 */
export async function upsertMember(em: EntityManager, projectId: string, callerRole: ProjectRole, email: string, role: ProjectRole) {
  if (callerRole !== 'owner') throw forbidden('Only the project owner can manage members');
  if (roleRank(role) > roleRank(callerRole)) throw forbidden('Cannot assign a role above your own');
  const user = await em.getRepository(User).findOneBy({ email: email.trim().toLowerCase() });
  if (!user) throw unprocessable([{ loc: ['body', 'email'], msg: 'No registered user has this email', type: 'value_error' }]);
  const members = em.getRepository(ProjectMember);
  const existing = await members.findOneBy({ projectId, userId: user.id });
  if (existing?.role === 'owner' && role !== 'owner') await assertAnotherOwner(em, projectId, user.id);
  await members.upsert({ projectId, userId: user.id, role }, ['projectId', 'userId']);
  const saved = await members.findOneByOrFail({ projectId, userId: user.id });
  return { user_id: user.id, email: user.email, name: user.name, role: saved.role, created_at: saved.createdAt };
}

export async function removeMember(em: EntityManager, projectId: string, caller: { id: string; role: ProjectRole }, userId: string) {
  const self = caller.id === userId;
  if (!self && caller.role !== 'owner') throw forbidden('Only the project owner can manage members');
  const member = await em.getRepository(ProjectMember).findOneBy({ projectId, userId });
  if (!member) throw notFound('Member not found');
  if (member.role === 'owner') await assertAnotherOwner(em, projectId, userId);
  await em.getRepository(ProjectMember).delete({ projectId, userId });
}

async function assertAnotherOwner(em: EntityManager, projectId: string, userId: string) {
  const others = await em
    .getRepository(ProjectMember)
    .createQueryBuilder('m')
    .where("m.project_id = :projectId AND m.role = 'owner' AND m.user_id <> :userId", { projectId, userId })
    .getCount();
  if (others === 0) throw conflict('A project must keep at least one owner');
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
  await em.query('DELETE FROM dataset_versions v USING datasets d WHERE d.id = v.dataset_id AND d.project_id = ANY($1)', [projectIds]);
  await em.query('DELETE FROM datasets WHERE project_id = ANY($1)', [projectIds]);
  await em.query('DELETE FROM artifacts WHERE project_id = ANY($1)', [projectIds]);
  await em.query('DELETE FROM projects WHERE id = ANY($1)', [projectIds]);
  return files.map((f) => f.storage_key);
}

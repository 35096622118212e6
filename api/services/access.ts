import type { EntityManager } from 'typeorm';
import { Project, PROJECT_ROLES, ProjectMember, ProjectRole } from '../../entities';
import { forbidden, HttpError, notFound } from '../errors';

export function roleRank(role: ProjectRole): number {
  return PROJECT_ROLES.indexOf(role);
}

/**
 * Loads a project the user is a member of with at least `minRole`. Not a member (or no
 * such project): 404, the same answer; a member with too small a role: 403.
 */
export async function projectForUser(
  em: EntityManager,
  userId: string,
  projectId: string,
  minRole: ProjectRole = 'viewer',
): Promise<{ project: Project; role: ProjectRole }> {
  const row = await em
    .getRepository(Project)
    .createQueryBuilder('p')
    .innerJoin(ProjectMember, 'm', 'm.project_id = p.id AND m.user_id = :userId', { userId })
    .addSelect('m.role', 'member_role')
    .where('p.id = :projectId', { projectId })
    .getRawAndEntities();
  const project = row.entities[0];
  if (!project) throw notFound('Project not found');
  const role = row.raw[0].member_role as ProjectRole;
  if (roleRank(role) < roleRank(minRole)) throw forbidden(`This action requires the ${minRole} role in the project`);
  return { project, role };
}

/**
 * Access check for a resource that belongs to a project: a non-member gets the resource's
 * own 404 text (for example `Dataset not found`), never a hint that the project exists.
 */
export async function assertProjectAccess(em: EntityManager, userId: string, projectId: string, notFoundDetail: string, minRole: ProjectRole = 'viewer') {
  try {
    return await projectForUser(em, userId, projectId, minRole);
  } catch (err) {
    if (err instanceof HttpError && err.status === 404) throw notFound(notFoundDetail);
    throw err;
  }
}

/** Project ids the user can see, for filtering lists of project-owned resources. */
export function memberProjectsSubquery(alias = 'pm'): string {
  return `SELECT ${alias}.project_id FROM project_members ${alias} WHERE ${alias}.user_id = :userId`;
}

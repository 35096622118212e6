import type { Project, ProjectInvitation } from '../../entities';
import type { MemberRow, ProjectSummary } from '../../services/projects';
import type { Presented } from './common.schema';
import type { createdInvitationSchema, memberSchema, projectSchema, projectSummarySchema } from './project.schema';

/** A project in lists and `GET /api/projects/{id}`: with the caller's role and its counts. */
export function presentProjectSummary(r: ProjectSummary): Presented<typeof projectSummarySchema> {
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

/** A project as creation and updates answer it. */
export function presentProject(p: Project, withCreatedAt = true): Presented<typeof projectSchema> {
  return { id: p.id, name: p.name, description: p.description, ...(withCreatedAt ? { created_at: p.createdAt } : {}) };
}

/** A member as `POST …/members` answers it: the user and the role they now have. */
export function presentMember(m: MemberRow): Presented<typeof memberSchema> {
  return { user_id: m.user_id, email: m.email, name: m.name, role: m.role, created_at: new Date(m.created_at) };
}

/** An invitation as its owner sees it: the address and the role, nothing about an account behind it. */
export function presentInvitation(i: ProjectInvitation): Presented<typeof createdInvitationSchema> {
  return { id: i.id, email: i.email, role: i.role, project_id: i.projectId, created_at: i.createdAt.toISOString(), expires_at: i.expiresAt.toISOString() };
}

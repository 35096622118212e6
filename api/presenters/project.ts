import type { Project } from '../../entities';
import type { MemberChange, ProjectSummary } from '../../services/projects';

/** A project in lists and `GET /api/projects/{id}`: with the caller's role and its counts. */
export function presentProjectSummary(r: ProjectSummary) {
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
export function presentProject(p: Project, withCreatedAt = true) {
  return { id: p.id, name: p.name, description: p.description, ...(withCreatedAt ? { created_at: p.createdAt } : {}) };
}

/**
 * The answer to adding someone by email (`{member}` as the spec has it). A current member's
 * role change shows the member; an invitation shows only what the owner typed (`user_id` and
 * `name` are null), so registered and unknown addresses answer alike.
 */
export function presentMemberChange(c: MemberChange) {
  if (c.kind === 'member') return { ...c.member, status: 'member' as const };
  const i = c.invitation;
  return { user_id: null, email: i.email, name: null, role: i.role, status: 'invited' as const, invitation_id: i.id, expires_at: i.expiresAt };
}

import type { ProjectAccessRow, ProjectTeamRow } from '../../services/project-teams';
import type { MyTeamRow, TeamMemberRow, TeamProjectRow, TeamRow } from '../../services/teams';
import type { Presented } from './common.schema';
import type { projectMemberSchema } from './project.schema';
import type { myTeamSchema, projectTeamSchema, teamMemberSchema, teamProjectSchema, teamSchema } from './team.schema';

export function presentTeam(t: TeamRow): Presented<typeof teamSchema> {
  return { id: t.id, name: t.name, description: t.description, member_count: t.member_count, project_count: t.project_count, created_at: new Date(t.created_at), updated_at: new Date(t.updated_at) };
}

export function presentMyTeam(t: MyTeamRow): Presented<typeof myTeamSchema> {
  return { ...presentTeam(t), role: t.role };
}

export function presentTeamMember(m: TeamMemberRow): Presented<typeof teamMemberSchema> {
  return { user_id: m.user_id, email: m.email, name: m.name, role: m.role, created_at: new Date(m.created_at) };
}

export function presentTeamProject(p: TeamProjectRow): Presented<typeof teamProjectSchema> {
  return { project_id: p.project_id, project_name: p.project_name, role: p.role, created_at: new Date(p.created_at) };
}

export function presentProjectTeam(t: ProjectTeamRow): Presented<typeof projectTeamSchema> {
  return { team_id: t.team_id, name: t.name, description: t.description, role: t.role, member_count: t.member_count, created_at: new Date(t.created_at) };
}

/** A person with access to a project: the spec's member fields and how teams add to them. */
export function presentProjectMember(m: ProjectAccessRow): Presented<typeof projectMemberSchema> {
  return {
    user_id: m.user_id,
    email: m.email,
    name: m.name,
    role: m.role,
    created_at: new Date(m.created_at),
    via_team: m.via_team,
    effective_role: m.effective_role,
    teams: m.teams.map((g) => ({ team_id: g.team_id, name: g.name, role: g.role })),
  };
}

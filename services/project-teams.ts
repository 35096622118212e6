import type { DataSource } from 'typeorm';
import { PROJECT_ROLES, ProjectRole, ProjectTeam, ProjectTeamRole } from '../entities';
import { Access, roleRank, roleRankSql } from './access';
import { ForbiddenError, NotFoundError } from './errors';
import type { Page, PageQuery } from './lists';
import { TEAM_NOT_FOUND } from './teams';

export const TEAMS_MANAGERS_ONLY = 'Only project owners and admins can manage teams';

/** A team's grant in a project, as the project's members see it. */
export interface ProjectTeamRow {
  team_id: string;
  name: string;
  description: string;
  role: ProjectTeamRole;
  member_count: number;
  created_at: Date;
}

/** One team through which a member reaches the project. */
export interface MemberTeamGrant {
  team_id: string;
  name: string;
  role: ProjectTeamRole;
}

/**
 * A person with access to the project: the spec's member fields, where `role` is their own membership's role (or, for
 * someone who reaches the project only through teams, the highest of those teams' roles), plus how they got it.
 */
export interface ProjectAccessRow {
  user_id: string;
  email: string;
  name: string;
  role: ProjectRole;
  created_at: Date;
  /** True when the person has no membership of their own: every bit of their access comes from `teams`. */
  via_team: boolean;
  /** The highest of their own role and their teams' roles: what access checks use. */
  effective_role: ProjectRole;
  teams: MemberTeamGrant[];
}

/** Who is the caller towards the project's teams: superusers may grant any team, others only their own teams. */
export interface GrantingCaller {
  userId: string;
  superuser: boolean;
}

function highest(roles: ProjectRole[]): ProjectRole {
  return roles.reduce((a, b) => (roleRank(b) > roleRank(a) ? b : a));
}

/**
 * Teams in projects: granting a team a role (`POST /api/projects/{id}/teams`), revoking it, listing the grants, and
 * the members list with team-derived access. Owners and admins manage a project's teams, never giving a role above
 * their own (the spec's rule for members) and never `owner` (the schema and the table refuse it). A caller grants a
 * team they belong to (superusers: any team): team ids are not a directory of other people's groups.
 */
export class ProjectTeamService {
  constructor(
    private readonly ds: DataSource,
    private readonly access: Access,
  ) {}

  async list(userId: string, projectId: string): Promise<ProjectTeamRow[]> {
    await this.access.project(userId, projectId);
    return this.ds.query(
      `SELECT t.id AS team_id, t.name, t.description, pt.role, pt.created_at,
              (SELECT count(*) FROM team_members tm WHERE tm.team_id = t.id)::int AS member_count
         FROM project_teams pt JOIN teams t ON t.id = pt.team_id WHERE pt.project_id = $1 ORDER BY lower(t.name), t.id`,
      [projectId],
    );
  }

  /** Grants the team a role in the project, or changes its role. */
  async grant(caller: GrantingCaller, projectId: string, teamId: string, role: ProjectTeamRole): Promise<ProjectTeamRow> {
    const { role: callerRole } = await this.access.project(caller.userId, projectId);
    assertCanManageTeams(callerRole, role);
    await this.ds.transaction(async (em) => {
      const [team]: { id: string; in_team: boolean }[] = await em.query(
        'SELECT t.id, EXISTS (SELECT 1 FROM team_members m WHERE m.team_id = t.id AND m.user_id = $2) AS in_team FROM teams t WHERE t.id = $1 FOR SHARE',
        [teamId, caller.userId],
      );
      if (!team || (!team.in_team && !caller.superuser)) throw new NotFoundError(TEAM_NOT_FOUND);
      // Through the entity, so the audit log records the grant and a role change with its before and after.
      const grants = em.getRepository(ProjectTeam);
      const current = await grants.findOneBy({ projectId, teamId });
      if (!current) await grants.insert({ projectId, teamId, role });
      else if (current.role !== role) await grants.update({ projectId, teamId }, { role });
    });
    const row = (await this.list(caller.userId, projectId)).find((t) => t.team_id === teamId);
    if (!row) throw new NotFoundError(TEAM_NOT_FOUND);
    return row;
  }

  /** Takes the team's access away at once; a team the project has no grant for is 404 `Team not found`. */
  async revoke(userId: string, projectId: string, teamId: string): Promise<void> {
    const { role } = await this.access.project(userId, projectId);
    assertCanManageTeams(role, 'viewer');
    const r = await this.ds.getRepository(ProjectTeam).delete({ projectId, teamId });
    if (!r.affected) throw new NotFoundError(TEAM_NOT_FOUND);
  }

  /**
   * Everyone with access to the project: its own members first (in the order they joined, as before teams), then the
   * people who reach it only through teams. Each row says which teams give them what.
   */
  async members(userId: string, projectId: string, q: PageQuery): Promise<Page<ProjectAccessRow>> {
    await this.access.project(userId, projectId);
    const rows: (Omit<ProjectAccessRow, 'via_team' | 'effective_role' | 'role' | 'teams'> & { own_role: ProjectRole | null; teams: MemberTeamGrant[] | null; total: number })[] = await this.ds.query(
      `WITH own AS (SELECT user_id, role, created_at FROM project_members WHERE project_id = $1),
              via AS (SELECT tm.user_id, pt.team_id, t.name, pt.role, pt.created_at
                        FROM project_teams pt JOIN team_members tm ON tm.team_id = pt.team_id JOIN teams t ON t.id = pt.team_id
                       WHERE pt.project_id = $1),
              people AS (SELECT user_id FROM own UNION SELECT user_id FROM via)
         SELECT u.id AS user_id, u.email, u.name, o.role AS own_role,
                coalesce(o.created_at, (SELECT min(v.created_at) FROM via v WHERE v.user_id = u.id)) AS created_at,
                (SELECT json_agg(json_build_object('team_id', v.team_id, 'name', v.name, 'role', v.role) ORDER BY ${roleRankSql('v.role')} DESC, lower(v.name), v.team_id)
                   FROM via v WHERE v.user_id = u.id) AS teams,
                count(*) OVER ()::int AS total
           FROM people x JOIN users u ON u.id = x.user_id LEFT JOIN own o ON o.user_id = u.id
          ORDER BY (o.user_id IS NULL), created_at, u.id
          LIMIT ${q.limit} OFFSET ${q.offset}`,
      [projectId],
    );
    let total = rows[0]?.total;
    if (total === undefined) {
      [{ total }] = await this.ds.query(
        'SELECT count(*)::int AS total FROM (SELECT user_id FROM project_members WHERE project_id = $1 UNION SELECT tm.user_id FROM project_teams pt JOIN team_members tm ON tm.team_id = pt.team_id WHERE pt.project_id = $1) x',
        [projectId],
      );
    }
    const items = rows.map(({ own_role, teams, total: _, ...r }): ProjectAccessRow => {
      const grants = teams ?? [];
      const roles = [...(own_role ? [own_role] : []), ...grants.map((g) => g.role)];
      return { ...r, role: own_role ?? highest(grants.map((g) => g.role)), via_team: own_role === null, effective_role: highest(roles), teams: grants };
    });
    return { items, total, limit: q.limit, offset: q.offset };
  }
}

/**
 * Owners and admins manage a project's teams; nobody gives a role above their own. The role rule is checked first, so
 * an editor asking for `admin` hears which rule refused them (as with members).
 */
function assertCanManageTeams(callerRole: ProjectRole, role: ProjectRole): void {
  if (roleRank(role) > roleRank(callerRole)) throw new ForbiddenError('Cannot assign a role above your own');
  if (roleRank(callerRole) < PROJECT_ROLES.indexOf('admin')) throw new ForbiddenError(TEAMS_MANAGERS_ONLY);
}

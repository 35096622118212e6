import type { DataSource, EntityManager } from 'typeorm';
import { ProjectTeamRole, Team, TeamMember, TeamRole, User } from '../entities';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from './errors';
import { likePattern, Page, PageQuery } from './lists';

export const TEAM_NOT_FOUND = 'Team not found';
export const TEAM_NAME_TAKEN = 'A team with this name already exists';
export const TEAM_MAINTAINERS_ONLY = 'Only team maintainers can manage members';

/** Who acts on a team: superusers (the admin area) manage every team; anyone else only as the team's maintainer. */
export interface TeamActor {
  userId: string;
  superuser: boolean;
}

/** A team as lists and its page show it, with its counts. */
export interface TeamRow {
  id: string;
  name: string;
  description: string;
  member_count: number;
  project_count: number;
  created_at: Date;
  updated_at: Date;
}

export interface TeamMemberRow {
  user_id: string;
  email: string;
  name: string;
  role: TeamRole;
  created_at: Date;
}

/** A team the caller belongs to, with their role in it (`GET /api/auth/teams`). */
export interface MyTeamRow extends TeamRow {
  role: TeamRole;
}

/** The projects a team reaches and the role it has in each. */
export interface TeamProjectRow {
  project_id: string;
  project_name: string;
  role: ProjectTeamRole;
  created_at: Date;
}

/** Who a member is added as: one of email or user id. */
export type MemberRef = { email: string } | { user_id: string };

const TEAM_COLUMNS = `t.id, t.name, t.description, t.created_at, t.updated_at,
  (SELECT count(*) FROM team_members tm WHERE tm.team_id = t.id)::int AS member_count,
  (SELECT count(*) FROM project_teams pt WHERE pt.team_id = t.id)::int AS project_count`;

/**
 * The ids of the teams a user belongs to (plans take the most generous plan among them). Takes the caller's manager,
 * so it reads inside the caller's transaction.
 */
export async function teamIdsOfUser(manager: EntityManager, userId: string): Promise<string[]> {
  const rows: { team_id: string }[] = await manager.query('SELECT team_id FROM team_members WHERE user_id = $1 ORDER BY team_id', [userId]);
  return rows.map((r) => r.team_id);
}

/** A team name as stored: trimmed, not blank (the route's schema refuses blank names before this). */
function cleanTeamName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new ValidationError('Team name must not be empty');
  return trimmed;
}

/** PostgreSQL's unique violation on lower(name) becomes the readable 409. */
function isNameTaken(err: unknown): boolean {
  return (err as { code?: string }).code === '23505';
}

/**
 * Teams and their members. Superusers manage every team through `/api/admin/teams`; a team's maintainers add and
 * remove its members (and maintainers) through `/api/teams/{id}/members`; any member may leave. Changes count at the
 * caller's next request: access is read afresh each time (services/access.ts).
 */
export class TeamService {
  constructor(private readonly ds: DataSource) {}

  /** Every team (superusers), searched by name and description, by name. */
  async list(q: PageQuery & { search?: string }): Promise<Page<TeamRow>> {
    const params: unknown[] = [];
    let where = '';
    if (q.search) {
      params.push(likePattern(q.search));
      where = 'WHERE t.name ILIKE $1 OR t.description ILIKE $1';
    }
    const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM teams t ${where}`, params);
    const items: TeamRow[] = await this.ds.query(`SELECT ${TEAM_COLUMNS} FROM teams t ${where} ORDER BY lower(t.name), t.id LIMIT ${q.limit} OFFSET ${q.offset}`, params);
    return { items, total, limit: q.limit, offset: q.offset };
  }

  async create(p: { name: string; description: string }): Promise<TeamRow> {
    const team = this.ds.getRepository(Team).create({ name: cleanTeamName(p.name), description: p.description });
    try {
      await this.ds.getRepository(Team).insert(team);
    } catch (err) {
      if (isNameTaken(err)) throw new ConflictError(TEAM_NAME_TAKEN);
      throw err;
    }
    return this.get(team.id);
  }

  /** One team with its counts; 404 `Team not found`. */
  async get(teamId: string, em: EntityManager = this.ds.manager): Promise<TeamRow> {
    const [row]: TeamRow[] = await em.query(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.id = $1`, [teamId]);
    if (!row) throw new NotFoundError(TEAM_NOT_FOUND);
    return row;
  }

  async update(teamId: string, p: { name: string; description?: string }): Promise<TeamRow> {
    await this.get(teamId);
    try {
      await this.ds.getRepository(Team).update({ id: teamId }, { name: cleanTeamName(p.name), ...(p.description !== undefined ? { description: p.description } : {}) });
    } catch (err) {
      if (isNameTaken(err)) throw new ConflictError(TEAM_NAME_TAKEN);
      throw err;
    }
    return this.get(teamId);
  }

  /** Deletes a team: its members lose what the team gave them at once (grants and memberships cascade). */
  async delete(teamId: string): Promise<void> {
    const r = await this.ds.getRepository(Team).delete({ id: teamId });
    if (!r.affected) throw new NotFoundError(TEAM_NOT_FOUND);
  }

  /** The projects a team is granted (superusers). */
  async projects(teamId: string): Promise<TeamProjectRow[]> {
    await this.get(teamId);
    return this.ds.query(
      `SELECT pt.project_id, p.name AS project_name, pt.role, pt.created_at FROM project_teams pt JOIN projects p ON p.id = pt.project_id
        WHERE pt.team_id = $1 ORDER BY lower(p.name), p.id`,
      [teamId],
    );
  }

  /** The teams the user belongs to, with their role in each. */
  async teamsOf(userId: string): Promise<MyTeamRow[]> {
    return this.ds.query(`SELECT ${TEAM_COLUMNS}, m.role FROM teams t JOIN team_members m ON m.team_id = t.id AND m.user_id = $1 ORDER BY lower(t.name), t.id`, [userId]);
  }

  /** A team's members: superusers and the team's own members may read them; others get 404. */
  async members(actor: TeamActor, teamId: string, q: PageQuery): Promise<Page<TeamMemberRow>> {
    await this.authorize(actor, teamId, 'member');
    const [{ total }] = await this.ds.query('SELECT count(*)::int AS total FROM team_members WHERE team_id = $1', [teamId]);
    const items: TeamMemberRow[] = await this.ds.query(
      `SELECT m.user_id, u.email, u.name, m.role, m.created_at FROM team_members m JOIN users u ON u.id = m.user_id
        WHERE m.team_id = $1 ORDER BY m.created_at, m.user_id LIMIT ${q.limit} OFFSET ${q.offset}`,
      [teamId],
    );
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /**
   * Adds a registered user (by email or id) to the team with a role, or changes their role. Superusers and the team's
   * maintainers only. An unknown user is 404 `User not found`, as when adding a project member.
   */
  async upsertMember(actor: TeamActor, teamId: string, who: MemberRef, role: TeamRole): Promise<TeamMemberRow> {
    return this.ds.transaction(async (em) => {
      await this.authorize(actor, teamId, 'maintainer', em);
      const users = em.getRepository(User);
      const user = 'email' in who ? await users.findOneBy({ email: who.email.trim().toLowerCase() }) : await users.findOneBy({ id: who.user_id });
      if (!user) throw new NotFoundError('User not found');
      // Through the entity, so the audit log records the membership and a role change with its before and after.
      const members = em.getRepository(TeamMember);
      const current = await members.findOneBy({ teamId, userId: user.id });
      if (!current) await members.insert({ teamId, userId: user.id, role });
      else if (current.role !== role) await members.update({ teamId, userId: user.id }, { role });
      const saved = await members.findOneByOrFail({ teamId, userId: user.id });
      return { user_id: user.id, email: user.email, name: user.name, role: saved.role, created_at: saved.createdAt };
    });
  }

  /** Removes a member: superusers and maintainers remove anyone, a member may leave. */
  async removeMember(actor: TeamActor, teamId: string, memberId: string): Promise<void> {
    await this.ds.transaction(async (em) => {
      await this.authorize(actor, teamId, memberId === actor.userId ? 'member' : 'maintainer', em);
      const r = await em.getRepository(TeamMember).delete({ teamId, userId: memberId });
      if (!r.affected) throw new NotFoundError('Member not found');
    });
  }

  /**
   * Superusers may do anything to an existing team; others need `need` in it. A team the caller does not belong to is
   * its 404 (its existence is not revealed); a plain member asking a maintainer's action gets 403. The team row is
   * locked, so a delete cannot interleave with a member change.
   */
  private async authorize(actor: TeamActor, teamId: string, need: TeamRole, em: EntityManager = this.ds.manager): Promise<void> {
    const [row]: { role: TeamRole | null }[] = await em.query(
      `SELECT (SELECT m.role FROM team_members m WHERE m.team_id = t.id AND m.user_id = $2) AS role FROM teams t WHERE t.id = $1 FOR SHARE OF t`,
      [teamId, actor.userId],
    );
    if (!row || (!actor.superuser && !row.role)) throw new NotFoundError(TEAM_NOT_FOUND);
    if (actor.superuser || need === 'member' || row.role === 'maintainer') return;
    throw new ForbiddenError(TEAM_MAINTAINERS_ONLY);
  }
}

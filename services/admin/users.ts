import type { DataSource } from 'typeorm';
import { AuthSession, Project, User } from '../../entities';
import type { AccountActivity, RequestMeta } from '../account-activity';
import type { Accounts } from '../accounts';
import { ConflictError, NotFoundError } from '../errors';
import { likePattern, sqlDirection, type Page } from '../lists';
import { planOfUser } from '../plans';
import { LAST_SUPERUSER } from './superusers';

export const ADMIN_USER_SORT_FIELDS = ['created_at', 'email', 'name', 'last_login_at'] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORT_FIELDS)[number];

export interface AdminUserQuery {
  limit: number;
  offset: number;
  /** Substring of the email or the name, case-insensitive. */
  q?: string;
  suspended?: boolean;
  superuser?: boolean;
  sort_field: AdminUserSort;
  sort_direction: 'asc' | 'desc';
}

/** A user as the admin list shows it. */
export interface AdminUserRow {
  user: User;
  lastLoginAt: Date | null;
}

/** What an admin sees of one user beyond the row: what they own and hold. */
export interface AdminUserDetail extends AdminUserRow {
  projectsOwned: { id: string; name: string; created_at: Date }[];
  memberships: number;
  apiKeys: { live: number; total: number };
  liveSessions: number;
  /** The plan they work under and where it comes from (their own, a team's, the default, the built-in one). */
  plan: { name: string; display_name: string; source: string };
}

/** What deleting a user did with their data (the admin's answer states it). */
export interface UserDeletion {
  projectsDeleted: string[];
  projectsTransferred: string[];
}

const SORT_SQL: Record<AdminUserSort, string> = { created_at: 'u.created_at', email: 'u.email', name: 'u.name', last_login_at: 'last_login_at' };

/** Users as admins manage them: list and search, one user's holdings, suspension, deletion. */
export class AdminUsers {
  constructor(
    private readonly ds: DataSource,
    private readonly activity: AccountActivity,
    private readonly accounts: Accounts,
  ) {}

  async list(q: AdminUserQuery): Promise<Page<AdminUserRow>> {
    const qb = this.ds
      .getRepository(User)
      .createQueryBuilder('u')
      .addSelect((sub) => sub.select('max(s.created_at)').from(AuthSession, 's').where('s.user_id = u.id'), 'last_login_at');
    if (q.q) qb.andWhere('(u.email ILIKE :p OR u.name ILIKE :p)', { p: likePattern(q.q) });
    if (q.suspended !== undefined) qb.andWhere(q.suspended ? 'u.suspended_at IS NOT NULL' : 'u.suspended_at IS NULL');
    if (q.superuser !== undefined) qb.andWhere('u.is_superuser = :su', { su: q.superuser });
    const dir = sqlDirection(q.sort_direction);
    const total = await qb.getCount();
    const { entities, raw } = await qb.orderBy(SORT_SQL[q.sort_field], dir, 'NULLS LAST').addOrderBy('u.id', dir).offset(q.offset).limit(q.limit).getRawAndEntities();
    const lastLogin = new Map((raw as { u_id: string; last_login_at: Date | null }[]).map((r) => [r.u_id, r.last_login_at]));
    return { items: entities.map((user) => ({ user, lastLoginAt: lastLogin.get(user.id) ?? null })), total, limit: q.limit, offset: q.offset };
  }

  async detail(userId: string): Promise<AdminUserDetail> {
    const user = await this.found(userId);
    const [projectsOwned, memberships, keys, sessions, lastLogin, plan] = await Promise.all([
      this.ds.getRepository(Project).find({ where: { ownerId: userId }, order: { createdAt: 'DESC' }, take: 200 }),
      this.ds.query('SELECT count(*)::int AS n FROM project_members WHERE user_id = $1', [userId]) as Promise<{ n: number }[]>,
      this.ds.query('SELECT count(*)::int AS total, count(*) FILTER (WHERE revoked_at IS NULL)::int AS live FROM api_keys WHERE user_id = $1', [userId]) as Promise<{ total: number; live: number }[]>,
      this.ds.getRepository(AuthSession).createQueryBuilder('s').where('s.user_id = :userId AND s.revoked_at IS NULL AND s.expires_at > now()', { userId }).getCount(),
      this.ds.query('SELECT max(created_at) AS t FROM auth_sessions WHERE user_id = $1', [userId]) as Promise<{ t: Date | null }[]>,
      planOfUser(this.ds.manager, userId),
    ]);
    return {
      user,
      lastLoginAt: lastLogin[0]?.t ?? null,
      projectsOwned: projectsOwned.map((p) => ({ id: p.id, name: p.name, created_at: p.createdAt })),
      memberships: memberships[0].n,
      apiKeys: { live: keys[0].live, total: keys[0].total },
      liveSessions: sessions,
      plan: { name: plan.name, display_name: plan.display_name, source: plan.source },
    };
  }

  /**
   * Suspends a user: from their next request on, their sessions and API keys answer 401 and login refuses them
   * (nothing is revoked, so reactivation gives them back). An admin cannot suspend themselves.
   */
  async suspend(adminId: string, userId: string, meta: RequestMeta = {}): Promise<User> {
    if (adminId === userId) throw new ConflictError('You cannot suspend your own account');
    return this.ds.transaction(async (em) => {
      const r = await em
        .getRepository(User)
        .createQueryBuilder()
        .update()
        .set({ suspendedAt: () => 'now()' })
        .where('id = :userId AND suspended_at IS NULL', { userId })
        .execute();
      const user = await em.getRepository(User).findOneBy({ id: userId });
      if (!user) throw new NotFoundError('User not found');
      if (r.affected) await this.activity.record(em, userId, 'suspended', meta, { by: adminId });
      return user;
    });
  }

  /** Lifts a suspension: the user's sessions and keys that are still live work again. */
  async reactivate(adminId: string, userId: string, meta: RequestMeta = {}): Promise<User> {
    return this.ds.transaction(async (em) => {
      const r = await em.getRepository(User).createQueryBuilder().update().set({ suspendedAt: null }).where('id = :userId AND suspended_at IS NOT NULL', { userId }).execute();
      const user = await em.getRepository(User).findOneBy({ id: userId });
      if (!user) throw new NotFoundError('User not found');
      if (r.affected) await this.activity.record(em, userId, 'reactivated', meta, { by: adminId });
      return user;
    });
  }

  /**
   * Deletes a user the way their own `delete-account` does (Accounts.deleteUser): the projects they alone own go
   * with their data and files, the ones they share with other owners pass to them. Not oneself (that is
   * `delete-account`), and never the last superuser.
   */
  async remove(adminId: string, userId: string): Promise<{ user: User } & UserDeletion> {
    if (adminId === userId) throw new ConflictError('You cannot delete your own account here; use delete-account');
    const user = await this.found(userId);
    if (user.isSuperuser && (await this.ds.getRepository(User).countBy({ isSuperuser: true })) <= 1) throw new ConflictError(LAST_SUPERUSER);
    const fate = await this.accounts.deleteUser(userId);
    return { user, ...fate };
  }

  private async found(userId: string): Promise<User> {
    const user = await this.ds.getRepository(User).findOneBy({ id: userId });
    if (!user) throw new NotFoundError('User not found');
    return user;
  }
}

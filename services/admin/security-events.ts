import type { DataSource } from 'typeorm';
import { AccountEvent, AccountEventType, User } from '../../entities';
import { likePattern, type Page } from '../lists';

/** The account events an admin's security view lists unless asked for other types. */
export const SECURITY_EVENT_TYPES: readonly AccountEventType[] = [
  'login_failed',
  'lockout',
  'api_key_revoked',
  'password_reset_requested',
  'password_reset',
  'password_changed',
  'suspended',
  'reactivated',
  'superuser_granted',
  'superuser_revoked',
  'sso_login',
  'logout_all',
  'session_revoked',
];

export interface SecurityEventQuery {
  limit: number;
  offset: number;
  /** Event types; empty: {@link SECURITY_EVENT_TYPES}. */
  types: AccountEventType[];
  user_id?: string;
  /** Substring of the user's email. */
  q?: string;
  ip?: string;
  from?: Date;
  to?: Date;
}

export interface SecurityEventRow {
  event: AccountEvent;
  user: { id: string; email: string; name: string };
}

/** Security events of every account (`account_events`), newest first, for admins. */
export class SecurityEvents {
  constructor(private readonly ds: DataSource) {}

  async list(q: SecurityEventQuery): Promise<Page<SecurityEventRow>> {
    const qb = this.ds
      .getRepository(AccountEvent)
      .createQueryBuilder('e')
      .innerJoinAndMapOne('e.user', User, 'u', 'u.id = e.user_id')
      .where('e.type IN (:...types)', { types: q.types.length ? q.types : SECURITY_EVENT_TYPES });
    if (q.user_id) qb.andWhere('e.user_id = :userId', { userId: q.user_id });
    if (q.q) qb.andWhere('u.email ILIKE :p', { p: likePattern(q.q) });
    if (q.ip) qb.andWhere('e.ip = :ip', { ip: q.ip });
    if (q.from) qb.andWhere('e.created_at >= :from', { from: q.from });
    if (q.to) qb.andWhere('e.created_at < :to', { to: q.to });
    const [events, total] = await qb.orderBy('e.created_at', 'DESC').addOrderBy('e.id', 'DESC').offset(q.offset).limit(q.limit).getManyAndCount();
    const items = (events as (AccountEvent & { user: User })[]).map((e) => ({ event: e, user: { id: e.user.id, email: e.user.email, name: e.user.name } }));
    return { items, total, limit: q.limit, offset: q.offset };
  }
}

import type { DataSource } from 'typeorm';
import { ApiKey, User } from '../../entities';
import type { AccountActivity, RequestMeta } from '../account-activity';
import { ConflictError, NotFoundError } from '../errors';
import { likePattern, type Page } from '../lists';

export interface AdminKeyQuery {
  limit: number;
  offset: number;
  /** Substring of the key's name or prefix, or of its owner's email. */
  q?: string;
  user_id?: string;
  /** `live` (default), `revoked` or `all`. */
  status: 'live' | 'revoked' | 'all';
}

export interface AdminKeyRow {
  key: ApiKey;
  owner: { id: string; email: string; name: string };
}

/** Every user's API keys, as admins see them (never a secret: the hash is not even selected). */
export class AdminApiKeys {
  constructor(
    private readonly ds: DataSource,
    private readonly activity: AccountActivity,
  ) {}

  async list(q: AdminKeyQuery): Promise<Page<AdminKeyRow>> {
    const qb = this.ds.getRepository(ApiKey).createQueryBuilder('k').innerJoinAndMapOne('k.owner', User, 'u', 'u.id = k.user_id');
    if (q.status === 'live') qb.andWhere('k.revoked_at IS NULL');
    if (q.status === 'revoked') qb.andWhere('k.revoked_at IS NOT NULL');
    if (q.user_id) qb.andWhere('k.user_id = :userId', { userId: q.user_id });
    if (q.q) qb.andWhere('(k.name ILIKE :p OR k.prefix ILIKE :p OR u.email ILIKE :p)', { p: likePattern(q.q) });
    const [keys, total] = await qb.orderBy('k.created_at', 'DESC').addOrderBy('k.id', 'DESC').offset(q.offset).limit(q.limit).getManyAndCount();
    const items = (keys as (ApiKey & { owner: User })[]).map((k) => ({ key: k, owner: { id: k.owner.id, email: k.owner.email, name: k.owner.name } }));
    return { items, total, limit: q.limit, offset: q.offset };
  }

  /** Revokes any user's key (a security event of its owner's account, naming the admin); 409 when already revoked. */
  async revoke(adminId: string, keyId: string, meta: RequestMeta = {}): Promise<ApiKey> {
    return this.ds.transaction(async (em) => {
      const key = await em.getRepository(ApiKey).findOne({ where: { id: keyId }, lock: { mode: 'pessimistic_write' } });
      if (!key) throw new NotFoundError('API key not found');
      if (key.revokedAt) throw new ConflictError('API key already revoked');
      key.revokedAt = new Date();
      await em.getRepository(ApiKey).update({ id: key.id }, { revokedAt: key.revokedAt });
      await this.activity.record(em, key.userId, 'api_key_revoked', meta, { key_id: key.id, name: key.name, prefix: key.prefix, by_admin: adminId });
      return key;
    });
  }
}

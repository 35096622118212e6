import type { DataSource } from 'typeorm';
import { ApiKey, AuthSession, User } from '../entities';
import { sha256 } from '../platform/secrets';

/** Usage timestamps are written at most once a minute per key or session. */
const TOUCH_INTERVAL_MS = 60_000;

/** Who is calling: the lookups behind a Bearer key or a session cookie. */
export class Authentication {
  constructor(private readonly ds: DataSource) {}

  /** A live key by its public prefix, with its secret hash and its user; null when unknown or revoked. */
  async keyByPrefix(prefix: string): Promise<{ key: ApiKey; user: User } | null> {
    const key = await this.ds.getRepository(ApiKey).createQueryBuilder('k').addSelect('k.secretHash').where('k.prefix = :prefix', { prefix }).getOne();
    if (!key || key.revokedAt) return null;
    const user = await this.ds.getRepository(User).findOneBy({ id: key.userId });
    return user ? { key, user } : null;
  }

  /** Records a key's use (at most once a minute). */
  async touchKey(key: ApiKey): Promise<void> {
    if (key.lastUsedAt && Date.now() - key.lastUsedAt.getTime() <= TOUCH_INTERVAL_MS) return;
    key.lastUsedAt = new Date();
    await this.ds.getRepository(ApiKey).update({ id: key.id }, { lastUsedAt: key.lastUsedAt });
  }

  /** The live session a cookie token names, with its CSRF token and user (its use recorded); null otherwise. */
  async session(token: string): Promise<{ session: AuthSession; user: User } | null> {
    // One round trip for the session and its user: this runs before every cookie-authenticated request.
    const session = (await this.ds
      .getRepository(AuthSession)
      .createQueryBuilder('s')
      .addSelect('s.csrfToken')
      .innerJoinAndMapOne('s.user', User, 'u', 'u.id = s.user_id')
      .where('s.token_hash = :h', { h: sha256(token) })
      .andWhere('s.revoked_at IS NULL')
      .andWhere('s.expires_at > now()')
      .getOne()) as (AuthSession & { user: User }) | null;
    if (!session) return null;
    const { user } = session;
    if (!session.lastSeenAt || Date.now() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
      await this.ds.getRepository(AuthSession).update({ id: session.id }, { lastSeenAt: new Date() });
    }
    return { session, user };
  }
}

import type { DataSource } from 'typeorm';
import { ApiKey, AuthSession, User } from '../../entities';
import type { AppContext, Principal } from '../context';
import { forbidden, unauthorized } from '../errors';
import { safeEqualHex, sha256 } from '../../platform/secrets';
import { TtlCache } from '../../platform/ttl-cache';

export const SESSION_COOKIE = 'session_token';
export const CSRF_COOKIE = 'csrf_token';

/** Usage timestamps are written at most once a minute per key or session. */
const TOUCH_INTERVAL_MS = 60_000;

const KEY_CACHE_MS = 5_000;

/**
 * API-key principals (the key row with its secret hash, and its user) remembered for a few
 * seconds, so programmatic traffic (predictions) does not pay two lookups per request. A
 * revoke through this process forgets the key at once; other API processes notice within
 * KEY_CACHE_MS.
 */
export class KeyCache {
  private readonly entries = new TtlCache<string, Principal>(KEY_CACHE_MS);

  principal(prefix: string, load: () => Promise<Principal>): Promise<Principal> {
    return this.entries.getOrLoad(prefix, load);
  }

  forget(prefix: string): void {
    this.entries.delete(prefix);
  }

  forgetUser(userId: string): void {
    this.entries.deleteWhere((_, p) => p.user.id === userId);
  }
}

/** Resolves the caller from a Bearer key or the session cookie; 401 when neither is valid. */
export async function authenticate(ctx: AppContext, ds: DataSource, mode: 'session' | 'user', keys: KeyCache): Promise<Principal> {
  const header = ctx.get('authorization');
  if (header) {
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m) throw unauthorized();
    if (mode === 'session') throw forbidden('This endpoint requires a session login; API keys are not accepted');
    return principalFromKey(ds, m[1], keys);
  }
  const token = ctx.cookies.get(SESSION_COOKIE);
  if (!token) throw unauthorized();
  return principalFromSession(ds, token);
}

async function principalFromKey(ds: DataSource, presented: string, keys: KeyCache): Promise<Principal> {
  const dot = presented.indexOf('.');
  if (dot <= 0) throw unauthorized();
  const prefix = presented.slice(0, dot);
  const principal = await keys.principal(prefix, async () => {
    const key = await ds.getRepository(ApiKey).createQueryBuilder('k').addSelect('k.secretHash').where('k.prefix = :prefix', { prefix }).getOne();
    if (!key || key.revokedAt) throw unauthorized();
    const user = await ds.getRepository(User).findOneBy({ id: key.userId });
    if (!user) throw unauthorized();
    return { user, via: 'api_key', apiKey: key };
  });
  const key = principal.apiKey!;
  if (!safeEqualHex(key.secretHash, sha256(presented.slice(dot + 1)))) throw unauthorized();
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    key.lastUsedAt = new Date();
    await ds.getRepository(ApiKey).update({ id: key.id }, { lastUsedAt: key.lastUsedAt });
  }
  return principal;
}

async function principalFromSession(ds: DataSource, token: string): Promise<Principal> {
  const session = await ds
    .getRepository(AuthSession)
    .createQueryBuilder('s')
    .addSelect('s.csrfToken')
    .where('s.token_hash = :h', { h: sha256(token) })
    .andWhere('s.revoked_at IS NULL')
    .andWhere('s.expires_at > now()')
    .getOne();
  if (!session) throw unauthorized();
  const user = await ds.getRepository(User).findOneBy({ id: session.userId });
  if (!user) throw unauthorized();
  if (!session.lastSeenAt || Date.now() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await ds.getRepository(AuthSession).update({ id: session.id }, { lastSeenAt: new Date() });
  }
  return { user, via: 'session', session };
}

/**
 * Cookie-authenticated writes must echo the `csrf_token` cookie in `X-CSRF-Token`; the
 * value must also be the one issued with this session.
 */
export function checkCsrf(ctx: AppContext, principal: Principal): void {
  if (principal.via !== 'session' || ['GET', 'HEAD', 'OPTIONS'].includes(ctx.method)) return;
  const header = ctx.get('x-csrf-token');
  const cookie = ctx.cookies.get(CSRF_COOKIE);
  const issued = principal.session?.csrfToken;
  if (!header || !cookie || header !== cookie || header !== issued) {
    throw forbidden('CSRF token missing or invalid');
  }
}

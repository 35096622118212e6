import type { Authentication } from '../../services/authentication';
import type { AppContext, Principal } from '../context';
import { forbidden, unauthorized } from '../errors';
import { safeEqualHex, sha256 } from '../../platform/secrets';
import { TtlCache } from '../../platform/ttl-cache';
import { ACCOUNT_SUSPENDED } from '../../services/accounts';

export const SESSION_COOKIE = 'session_token';
export const CSRF_COOKIE = 'csrf_token';

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

/**
 * Resolves the caller from a Bearer key or the session cookie; 401 when neither is valid, or when the account is
 * suspended (a session's user is read with the session on every request; a key's principal is cached for
 * KEY_CACHE_MS, and a suspension through this process forgets the user's keys at once).
 */
export async function authenticate(ctx: AppContext, auth: Authentication, mode: 'session' | 'user', keys: KeyCache): Promise<Principal> {
  const principal = await resolve(ctx, auth, mode, keys);
  if (principal.user.suspendedAt) throw unauthorized(ACCOUNT_SUSPENDED);
  return principal;
}

async function resolve(ctx: AppContext, auth: Authentication, mode: 'session' | 'user', keys: KeyCache): Promise<Principal> {
  const header = ctx.get('authorization');
  if (header) {
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m) throw unauthorized();
    if (mode === 'session') throw forbidden('This endpoint requires a session login; API keys are not accepted');
    return principalFromKey(auth, m[1], keys);
  }
  const token = ctx.cookies.get(SESSION_COOKIE);
  if (!token) throw unauthorized();
  const found = await auth.session(token);
  if (!found) throw unauthorized();
  return { user: found.user, via: 'session', session: found.session };
}

async function principalFromKey(auth: Authentication, presented: string, keys: KeyCache): Promise<Principal> {
  const dot = presented.indexOf('.');
  if (dot <= 0) throw unauthorized();
  const prefix = presented.slice(0, dot);
  const principal = await keys.principal(prefix, async () => {
    const found = await auth.keyByPrefix(prefix);
    if (!found) throw unauthorized();
    return { user: found.user, via: 'api_key', apiKey: found.key };
  });
  const key = principal.apiKey!;
  if (!safeEqualHex(key.secretHash, sha256(presented.slice(dot + 1)))) throw unauthorized();
  await auth.touchKey(key);
  return principal;
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

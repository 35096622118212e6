import type { Authentication } from '../../services/authentication';
import type { AppContext, Principal } from '../context';
import { forbidden, unauthorized } from '../errors';
import { safeEqualHex, sha256 } from '../../platform/secrets';
import { TtlCache } from '../../platform/ttl-cache';
import { ACCOUNT_SUSPENDED } from '../../services/accounts';
import type { KeyRevocation, KeyRevocationFeed } from '../key-revocations';

export const SESSION_COOKIE = 'session_token';
export const CSRF_COOKIE = 'csrf_token';

/** How long a key principal is trusted without a look at the database: the fallback while revocations cannot be broadcast. */
const KEY_CACHE_MS = 5_000;

/**
 * API-key principals (the key row with its secret hash, and its user) remembered for a few seconds, so programmatic
 * traffic (predictions) does not pay two lookups per request. A revocation (a key revoked, a user suspended,
 * reactivated or deleted, a password reset) is dropped here at once and published to every other API process
 * (api/key-revocations.ts: PostgreSQL LISTEN/NOTIFY), which drop it as soon as it arrives and, before trusting an
 * entry, make sure nothing published earlier is still on its way. While the listening connection is being re-opened
 * keys are looked up afresh; only an app built without a broadcast relies on entries expiring after KEY_CACHE_MS.
 */
export class KeyCache {
  private readonly entries = new TtlCache<string, Principal>(KEY_CACHE_MS);
  /** Counts the revocations applied, so a load that overlapped one is not kept (it may have read the row before it). */
  private generation = 0;

  constructor(private readonly broadcast: KeyRevocationFeed | null = null) {}

  /**
   * The cached principal once every revocation published so far has been applied (one shared round trip on the
   * listening connection, instead of the key and user lookups); loaded afresh while the broadcast is not listening.
   */
  async principal(prefix: string, load: () => Promise<Principal>): Promise<Principal> {
    if (this.broadcast && !(await this.broadcast.caughtUp())) return load();
    const before = this.generation;
    const principal = await this.entries.getOrLoad(prefix, load);
    if (this.generation !== before) this.entries.delete(prefix);
    return principal;
  }

  /** Drops a revoked key here and, once the broadcast has it, everywhere. */
  async forget(prefix: string): Promise<void> {
    this.apply({ prefixes: [prefix] });
    await this.broadcast?.publish({ prefixes: [prefix] });
  }

  /** Drops every key of a user here and, once the broadcast has it, everywhere. */
  async forgetUser(userId: string): Promise<void> {
    this.apply({ userId });
    await this.broadcast?.publish({ userId });
  }

  /** A revocation published by any process (this one's own come back too: dropping twice is harmless). */
  apply(r: KeyRevocation): void {
    this.generation++;
    if ('prefixes' in r) for (const p of r.prefixes) this.entries.delete(p);
    else this.entries.deleteWhere((_, p) => p.user.id === r.userId);
  }

  /** Everything: revocations may have been missed (the listening connection was lost). */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

/**
 * Resolves the caller from a Bearer key or the session cookie; 401 when neither is valid, or when the account is
 * suspended (a session's user is read with the session on every request; a key's principal is cached, and a
 * suspension drops the user's keys from every process's cache at once: {@link KeyCache}).
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

import type { AccountEvent, ApiKey, AuthSession } from '../../entities';

/** A session as the account's session list shows it; `current` marks the caller's own. */
export function presentSession(s: AuthSession, currentId?: string) {
  return { id: s.id, created_at: s.createdAt, expires_at: s.expiresAt, last_seen_at: s.lastSeenAt, user_agent: s.userAgent, ip: s.ip, remember: s.remember, current: s.id === currentId };
}

/** An API key without its secret. */
export function presentApiKey(k: ApiKey) {
  return { id: k.id, name: k.name, prefix: k.prefix, scopes: k.scopes, last_used_at: k.lastUsedAt, created_at: k.createdAt };
}

/** One event of the account activity log. */
export function presentAccountEvent(e: AccountEvent) {
  return { id: e.id, type: e.type, created_at: e.createdAt.toISOString(), ip: e.ip, user_agent: e.userAgent, details: e.details };
}

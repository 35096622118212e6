import type { AccountEvent, ApiKey, AuthSession } from '../../entities';
import type { accountEventSchema, apiKeySchema, authSessionSchema } from './account.schema';
import type { Presented } from './common.schema';

/** A session as the account's session list shows it; `current` marks the caller's own. */
export function presentSession(s: AuthSession, currentId?: string): Presented<typeof authSessionSchema> {
  return { id: s.id, created_at: s.createdAt, expires_at: s.expiresAt, last_seen_at: s.lastSeenAt, user_agent: s.userAgent, ip: s.ip, remember: s.remember, current: s.id === currentId };
}

/** An API key without its secret. */
export function presentApiKey(k: ApiKey): Presented<typeof apiKeySchema> {
  return { id: k.id, name: k.name, prefix: k.prefix, scopes: k.scopes, last_used_at: k.lastUsedAt, created_at: k.createdAt };
}

/** One event of the account activity log. */
export function presentAccountEvent(e: AccountEvent): Presented<typeof accountEventSchema> {
  return { id: e.id, type: e.type, created_at: e.createdAt.toISOString(), ip: e.ip, user_agent: e.userAgent, details: e.details };
}

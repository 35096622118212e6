import type { ServiceLogEntry, User } from '../../entities';
import type { Settings } from '../../services/admin/settings';
import type { AdminKeyRow } from '../../services/admin/api-keys';
import type { SecurityEventRow } from '../../services/admin/security-events';
import type { AdminUserDetail, AdminUserRow } from '../../services/admin/users';
import type { adminApiKeySchema, adminUserDetailSchema, adminUserSchema, securityEventSchema, serviceLogEntrySchema, settingsSchema } from './admin.schema';
import type { Presented } from './common.schema';

export function presentAdminUser(u: User, lastLoginAt: Date | null = null): Presented<typeof adminUserSchema> {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    is_superuser: u.isSuperuser,
    email_verified_at: u.emailVerifiedAt,
    suspended_at: u.suspendedAt,
    created_at: u.createdAt,
    last_login_at: lastLoginAt,
  };
}

export function presentAdminUserRow(r: AdminUserRow): Presented<typeof adminUserSchema> {
  return presentAdminUser(r.user, r.lastLoginAt);
}

export function presentAdminUserDetail(d: AdminUserDetail): Presented<typeof adminUserDetailSchema> {
  return { ...presentAdminUser(d.user, d.lastLoginAt), projects_owned: d.projectsOwned, memberships: d.memberships, api_keys: d.apiKeys, live_sessions: d.liveSessions, plan: d.plan };
}

export function presentAdminApiKey({ key, owner }: AdminKeyRow): Presented<typeof adminApiKeySchema> {
  return { id: key.id, name: key.name, prefix: key.prefix, scopes: key.scopes, created_at: key.createdAt, last_used_at: key.lastUsedAt, revoked_at: key.revokedAt, owner };
}

export function presentSettings(s: Settings): Presented<typeof settingsSchema> {
  return { ...s };
}

export function presentSecurityEvent({ event: e, user }: SecurityEventRow): Presented<typeof securityEventSchema> {
  return { id: e.id, type: e.type, created_at: e.createdAt, ip: e.ip, user_agent: e.userAgent, details: e.details, user };
}

export function presentServiceLogEntry(l: ServiceLogEntry): Presented<typeof serviceLogEntrySchema> {
  return { id: String(l.id), time: l.time, level: l.level, process: l.process, pid: l.pid, msg: l.msg, fields: l.fields };
}

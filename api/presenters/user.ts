import type { User } from '../../entities';

/** The user as the spec's auth endpoints show it. */
export function presentUser(u: User, full = false) {
  const base = { id: u.id, email: u.email, name: u.name };
  return full ? { ...base, is_superuser: u.isSuperuser, email_verified_at: u.emailVerifiedAt?.toISOString() ?? null } : base;
}

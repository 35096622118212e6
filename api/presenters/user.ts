import type { User } from '../../entities';
import type { Presented } from './common.schema';
import type { fullUserSchema } from './user.schema';

/** The user as the spec's auth endpoints show it: `full` adds what only the user themself sees (`fullUserSchema`). */
export function presentUser(u: User): { id: string; email: string; name: string };
export function presentUser(u: User, full: true): Presented<typeof fullUserSchema>;
export function presentUser(u: User, full = false) {
  const base = { id: u.id, email: u.email, name: u.name };
  return full ? { ...base, is_superuser: u.isSuperuser, email_verified_at: u.emailVerifiedAt?.toISOString() ?? null } : base;
}

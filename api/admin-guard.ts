import type { AppContext } from './context';
import { forbidden, unauthorized } from './errors';

/** Where the admin area's routes live: api/app.ts runs {@link requireSuperuser} for each before its body is read. */
export const ADMIN_PATH_PREFIX = '/api/admin/';

/** The answer of every admin route to a caller who is not a superuser. */
export const SUPERUSER_REQUIRED = 'Superuser access required';

/**
 * The first thing every `/api/admin/...` handler calls: 403 unless the authenticated caller is a superuser. The flag
 * is read from the principal's user, which is loaded per request for cookie sessions and cached for at most a few
 * seconds for API keys (a grant or revoke through this process forgets the user's keys at once).
 */
export function requireSuperuser(ctx: AppContext): void {
  const user = ctx.state.principal?.user;
  if (!user) throw unauthorized();
  if (!user.isSuperuser) throw forbidden(SUPERUSER_REQUIRED);
}

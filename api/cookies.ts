import type { Config } from '../platform/config';
import type { AppContext } from './context';
import { CSRF_COOKIE, SESSION_COOKIE } from './middleware/authenticate';

/** Whether cookies get `Secure`: COOKIE_SECURE, or (auto) whether the client side is TLS. */
export function secureFor(ctx: AppContext, config: Config): boolean {
  if (config.auth.cookieSecure === 'true') return true;
  if (config.auth.cookieSecure === 'false') return false;
  return ctx.secure;
}

/** Session cookie (HttpOnly) and the readable CSRF cookie, SameSite=Lax, Secure over TLS. */
export function setSessionCookies(ctx: AppContext, config: Config, token: string, csrf: string, persistentUntil?: Date): void {
  const secure = secureFor(ctx, config);
  // Koa refuses Secure cookies on plain connections unless told the client side is TLS (proxy).
  if (secure) ctx.cookies.secure = true;
  const base = { sameSite: 'lax' as const, secure, path: '/', overwrite: true, expires: persistentUntil };
  ctx.cookies.set(SESSION_COOKIE, token, { ...base, httpOnly: true });
  ctx.cookies.set(CSRF_COOKIE, csrf, { ...base, httpOnly: false });
}

export function clearSessionCookies(ctx: AppContext, config: Config): void {
  const secure = secureFor(ctx, config);
  if (secure) ctx.cookies.secure = true;
  const past = { path: '/', expires: new Date(0), overwrite: true, secure, sameSite: 'lax' as const };
  ctx.cookies.set(SESSION_COOKIE, '', { ...past, httpOnly: true });
  ctx.cookies.set(CSRF_COOKIE, '', { ...past, httpOnly: false });
}

import { z } from 'zod';
import type { SsoProviderKind } from '../../entities';
import { randomToken } from '../../platform/secrets';
import { DomainError } from '../../services/errors';
import { SSO_PATH_PREFIX } from '../../services/sso';
import { requestMeta, type AppContext, type RouteDeps } from '../context';
import { secureFor, setSessionCookies } from '../cookies';
import { presentPublicSsoProvider } from '../presenters/sso-provider';
import { publicSsoProviderSchema } from '../presenters/sso-provider.schema';
import { route, RouteDef } from '../route';
import { ssoAuthorizeQuery, ssoCallbackQuery, ssoSlugParams } from './admin-sso.schema';

/** The browser's binding to its sign-ins in flight (HttpOnly; the states it started are stored with its hash). */
const BINDING_COOKIE = 'sso_binding';
/** A binding outlives any one sign-in (SSO_STATE_TTL_MS), so tabs started together do not undo each other. */
const BINDING_TTL_MS = 30 * 60_000;
const FALLBACK_ERROR = 'Single sign-on failed; try again or ask an administrator';

/**
 * Single sign-on (issue 34): the login page's list of providers, and per provider the start of a sign-in (302 to the
 * provider, authorization code with PKCE) and its callback (302 into the web application with a session, or back to
 * the login page with `sso_error`). OpenID Connect providers live under `/api/auth/sso/{slug}/…`, OAuth 2.0 ones under
 * `/api/auth/oauth/{slug}/…`. A failed sign-in is never an error page: the browser lands on the login page with the
 * reason.
 */
export function ssoRoutes({ services, config }: RouteDeps): RouteDef[] {
  const { ssoProviders, ssoSignIn } = services;
  const tag = 'auth';

  /** Sends the browser to the login page with the reason a sign-in failed. */
  const refuse = (ctx: AppContext, err: unknown) => {
    const known = err instanceof DomainError;
    if (!known) ctx.state.log.warn({ err }, 'sso sign-in failed');
    redirect(ctx, `/login?sso_error=${encodeURIComponent(known ? err.message : FALLBACK_ERROR)}`);
  };

  const perKind = (kind: SsoProviderKind): RouteDef[] => {
    const base = `/api/auth/${SSO_PATH_PREFIX[kind]}/:slug`;
    const noun = kind === 'oidc' ? 'OpenID Connect' : 'OAuth 2.0';
    return [
      route({
        method: 'get',
        path: `${base}/authorize`,
        tag,
        auth: 'public',
        rateLimit: 'auth',
        summary: `Start a sign-in with an ${noun} provider: 302 to the provider (authorization code, PKCE S256, state and nonce kept server-side for 10 minutes, bound to this browser by the HttpOnly \`sso_binding\` cookie)`,
        params: ssoSlugParams,
        query: ssoAuthorizeQuery,
        responses: { 302: { contentType: 'text/html', description: "Location: the provider's authorization URL, or `/login?sso_error=…` when the provider is unknown, disabled or unreachable" } },
        handler: async (ctx, { params, query }) => {
          let binding = ctx.cookies.get(BINDING_COOKIE);
          if (!binding || !/^[A-Za-z0-9_-]{43}$/.test(binding)) binding = randomToken();
          const secure = secureFor(ctx, config);
          if (secure) ctx.cookies.secure = true;
          ctx.cookies.set(BINDING_COOKIE, binding, { httpOnly: true, sameSite: 'lax', secure, path: '/api/auth', overwrite: true, expires: new Date(Date.now() + BINDING_TTL_MS) });
          try {
            redirect(ctx, await ssoSignIn.start(kind, params.slug, binding, query.next));
          } catch (err) {
            refuse(ctx, err);
          }
          return undefined;
        },
      }),
      route({
        method: 'get',
        path: `${base}/callback`,
        tag,
        auth: 'public',
        rateLimit: 'auth',
        summary: `Where an ${noun} provider sends the browser back: checks the state (single use, this browser's), exchanges the code${kind === 'oidc' ? ', validates the ID token (JWKS signature, iss, aud, exp, nonce)' : ', reads the userinfo'}, finds, links or creates the user, applies the group mappings and starts a session`,
        params: ssoSlugParams,
        query: ssoCallbackQuery,
        responses: { 302: { contentType: 'text/html', description: 'Location: the web application with the session cookies set, or `/login?sso_error=…` with the reason the sign-in was refused' } },
        handler: async (ctx, { params, query }) => {
          try {
            const done = await ssoSignIn.finish(kind, params.slug, query, ctx.cookies.get(BINDING_COOKIE), requestMeta(ctx));
            setSessionCookies(ctx, config, done.token, done.csrfToken);
            redirect(ctx, done.nextPath);
          } catch (err) {
            refuse(ctx, err);
          }
          return undefined;
        },
      }),
    ];
  };

  return [
    route({
      method: 'get',
      path: '/api/auth/sso/providers',
      tag,
      auth: 'public',
      rateLimit: 'auth',
      summary: 'The enabled single sign-on providers, for the login page (public)',
      responses: { 200: { description: '{items}', schema: z.object({ items: z.array(publicSsoProviderSchema) }) } },
      handler: async () => ({ items: (await ssoProviders.listEnabled()).map(presentPublicSsoProvider) }),
    }),
    ...perKind('oidc'),
    ...perKind('oauth2'),
  ];
}

function redirect(ctx: AppContext, location: string): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect(location);
  ctx.status = 302;
}

import { z } from 'zod';
import { escapeHtml } from '../../platform/html';
import { requestMeta, type AppContext, type RouteDeps } from '../context';
import { clearSessionCookies, setSessionCookies } from '../cookies';
import { presentSession } from '../presenters/account';
import { authSessionSchema } from '../presenters/account.schema';
import { pageOf } from '../presenters/page.schema';
import { presentUser } from '../presenters/user';
import { fullUserSchema } from '../presenters/user.schema';
import { route, RouteDef } from '../route';
import { htmlPage } from './pages';
import { pageQuery } from '../validation';
import {
  changePasswordBody,
  deleteAccountBody,
  forgotPasswordBody,
  loginBody,
  registerBody,
  resetPasswordBody,
  sendVerificationBody,
  sessionParams,
  updateProfileBody,
  verifyEmailQuery,
} from './auth.schema';

const ok = { 200: { description: 'Done: `{ok: true}`' } };

/** Registration, login, sessions, mailed tokens and the account itself. */
export function authRoutes({ services, config, keyCache }: RouteDeps): RouteDef[] {
  const { accounts } = services;
  const tag = 'auth';
  return [
    route({
      method: 'post',
      path: '/api/auth/register',
      tag,
      auth: 'public',
      rateLimit: 'auth',
      summary: 'Create an account; a verification link is mailed',
      body: registerBody,
      responses: {
        201: { description: '{user, verification_required}' },
        403: { description: 'The instance settings refuse it: registration closed, invite-only without a valid invitation_token for this email, or an email domain not allowed' },
        409: { description: 'User already exists' },
      },
      handler: async (ctx, { body }) => {
        const user = await accounts.register(body, requestMeta(ctx));
        ctx.status = 201;
        return { user: presentUser(user), verification_required: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/login',
      tag,
      auth: 'public',
      rateLimit: 'auth',
      summary: 'Log in; sets the HttpOnly session cookie and the csrf_token cookie',
      body: loginBody,
      responses: { 200: { description: '{user}' }, 401: { description: 'Invalid email or password; or the account is suspended (its own text)' }, 403: { description: 'Email not verified' } },
      handler: async (ctx, { body }) => {
        const meta = requestMeta(ctx);
        const user = await accounts.checkLogin(body.email, body.password, meta);
        const { session, token, csrfToken } = await accounts.createSession(user, { remember: body.remember, userAgent: meta.userAgent ?? undefined, ip: meta.ip ?? 'unknown' });
        setSessionCookies(ctx, config, token, csrfToken, body.remember ? session.expiresAt : undefined);
        return { user: presentUser(user) };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/logout',
      tag,
      auth: 'session',
      rateLimit: 'none',
      summary: 'Revoke the current session',
      responses: ok,
      handler: async (ctx) => {
        const p = ctx.state.principal!;
        await accounts.endSession(p.user.id, p.session!.id, requestMeta(ctx));
        clearSessionCookies(ctx, config);
        return { ok: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/logout-all',
      tag,
      auth: 'session',
      summary: 'Revoke every session of the account, this one included',
      responses: ok,
      handler: async (ctx) => {
        await accounts.revokeSessions(ctx.state.principal!.user.id, requestMeta(ctx));
        clearSessionCookies(ctx, config);
        return { ok: true };
      },
    }),
    route({
      method: 'get',
      path: '/api/auth/me',
      tag,
      auth: 'user',
      scopeRule: 'Any key: it reads only the account the key belongs to',
      summary: 'The caller',
      responses: { 200: { description: '{user}', schema: z.object({ user: fullUserSchema }) } },
      handler: async (ctx) => ({ user: presentUser(ctx.state.principal!.user, true) }),
    }),
    route({
      method: 'get',
      path: '/api/auth/verify-email',
      tag,
      auth: 'public',
      rateLimit: 'auth',
      summary: 'Verify an email address by the mailed link (works when simply opened; HTML for browsers, JSON otherwise)',
      query: verifyEmailQuery,
      responses: { 200: { description: 'Verified: HTML page or `{ok, email_verified_at}`' }, 400: { description: 'Invalid or expired verification link' } },
      handler: async (ctx, { query }) => {
        const wantsHtml = ctx.accepts('json', 'html') === 'html';
        try {
          const user = await accounts.verifyEmail(query.token, requestMeta(ctx));
          if (wantsHtml) return html(ctx, 200, 'Email verified', `Your email ${escapeHtml(user.email)} is verified. You can now log in.`);
          return { ok: true, email: user.email, email_verified_at: user.emailVerifiedAt?.toISOString() };
        } catch (err) {
          if (wantsHtml) return html(ctx, 400, 'Link not valid', 'This activation link is invalid or has expired. Ask for a new one from the login page.');
          throw err;
        }
      },
    }),
    ...['resend-verification', 'send-verification'].map((name) =>
      route({
        method: 'post',
        path: `/api/auth/${name}`,
        tag,
        auth: 'public',
        rateLimit: 'auth',
        summary: 'Mail a new activation link to an unverified account (always 200)',
        body: sendVerificationBody,
        responses: ok,
        handler: async (_ctx, { body }) => {
          accounts.resendVerification(body.email);
          return { ok: true };
        },
      }),
    ),
    route({
      method: 'post',
      path: '/api/auth/forgot-password',
      tag,
      auth: 'public',
      rateLimit: 'auth',
      summary: 'Mail a password-reset link (always 200, whether or not the email exists)',
      body: forgotPasswordBody,
      responses: ok,
      handler: async (ctx, { body }) => {
        accounts.forgotPassword(body.email, requestMeta(ctx));
        return { ok: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/reset-password',
      tag,
      auth: 'public',
      rateLimit: 'auth',
      summary: 'Set a new password with a mailed single-use token; spends every reset link, ends every session and revokes every API key',
      body: resetPasswordBody,
      responses: { ...ok, 400: { description: 'Invalid or expired reset token' } },
      handler: async (ctx, { body }) => {
        await keyCache.forgetUser(await accounts.resetPassword(body.token, body.password, requestMeta(ctx)));
        return { ok: true };
      },
    }),
    route({
      method: 'put',
      path: '/api/auth/change-password',
      tag,
      auth: 'session',
      summary: 'Change the password; outstanding reset links are spent, other sessions are revoked, API keys are kept (a notice names them)',
      body: changePasswordBody,
      responses: { ...ok, 400: { description: 'Current password is incorrect' } },
      handler: async (ctx, { body }) => {
        const p = ctx.state.principal!;
        await accounts.changePassword(p.user.id, body.current_password, body.new_password, p.session?.id, requestMeta(ctx));
        return { ok: true };
      },
    }),
    route({
      // Session only, like the other account writes: no scope names the account itself.
      method: 'put',
      path: '/api/auth/profile',
      tag,
      auth: 'session',
      summary: 'Update the display name (session login; API keys are refused)',
      body: updateProfileBody,
      responses: { 200: { description: '{user}' } },
      handler: async (ctx, { body }) => {
        return { user: presentUser(await accounts.rename(ctx.state.principal!.user, body.name, requestMeta(ctx)), true) };
      },
    }),
    route({
      method: 'get',
      path: '/api/auth/sessions',
      tag,
      auth: 'session',
      summary: 'Live sessions of the account',
      query: pageQuery(100),
      responses: { 200: { description: 'List envelope of sessions', schema: pageOf(authSessionSchema) } },
      handler: async (ctx, { query }) => {
        const p = ctx.state.principal!;
        const page = await accounts.liveSessions(p.user.id, query);
        return { ...page, items: page.items.map((s) => presentSession(s, p.session?.id)) };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/sessions/:session_id/revoke',
      tag,
      auth: 'session',
      summary: 'Revoke one session of the account',
      params: sessionParams,
      responses: { ...ok, 404: { description: 'Session not found' } },
      handler: async (ctx, { params }) => {
        const p = ctx.state.principal!;
        await accounts.revokeSession(p.user.id, params.session_id, requestMeta(ctx));
        if (params.session_id === p.session?.id) clearSessionCookies(ctx, config);
        return { ok: true };
      },
    }),
    route({
      method: 'get',
      path: '/api/auth/export-my-data',
      tag,
      auth: 'session',
      summary: 'Everything the service holds about the caller, as a JSON attachment',
      responses: { 200: { description: 'JSON document' } },
      handler: async (ctx) => {
        const data = await accounts.exportData(ctx.state.principal!.user.id);
        ctx.set('Content-Disposition', 'attachment; filename="my-data.json"');
        return {
          exported_at: new Date().toISOString(),
          user: { ...presentUser(data.user, true), created_at: data.user.createdAt },
          memberships: data.memberships,
          sessions: data.sessions.map((s) => ({ id: s.id, created_at: s.createdAt, expires_at: s.expiresAt, revoked_at: s.revokedAt, user_agent: s.userAgent, ip: s.ip })),
          api_keys: data.apiKeys.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, scopes: k.scopes, created_at: k.createdAt, last_used_at: k.lastUsedAt, revoked_at: k.revokedAt })),
        };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/delete-account',
      tag,
      auth: 'session',
      summary: 'Delete the account (password required); projects it alone owns are deleted with it',
      body: deleteAccountBody,
      responses: { ...ok, 400: { description: 'Password is incorrect' } },
      handler: async (ctx, { body }) => {
        const user = ctx.state.principal!.user;
        await accounts.deleteAccount(user.id, body.password);
        await keyCache.forgetUser(user.id);
        services.serving.forgetAccess();
        clearSessionCookies(ctx, config);
        return { ok: true };
      },
    }),
  ];
}

function html(ctx: AppContext, status: number, title: string, message: string): string {
  return htmlPage(ctx, status, title, `<p>${message}</p>`);
}

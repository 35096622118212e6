import { z } from 'zod';
import { AuthSession, User } from '../../entities';
import type { AppContext, AppDeps } from '../context';
import { clearSessionCookies, setSessionCookies } from '../cookies';
import { badRequest, notFound } from '../errors';
import { presentUser } from '../presenters/user';
import { route, RouteDef } from '../route';
import { htmlPage } from './pages';
import { Accounts, escapeHtml } from '../services/accounts';
import { deleteAccount, exportMyData } from '../services/my-data';
import { emailAddress, nonBlank, pageQuery, uuidParam } from '../validation';

const email = emailAddress;
const password = z.string().max(4096);
/** A password being set: the service refuses fewer than 8 or more than 1024 characters with the spec's texts. */
const newPassword = password.meta({ minLength: 8, maxLength: 1024 });
const ok = { 200: { description: 'Done: `{ok: true}`' } };

function clientIp(ctx: AppContext): string {
  return ctx.ip || 'unknown';
}

/** Registration, login, sessions, mailed tokens and the account itself. */
export function authRoutes(deps: AppDeps): RouteDef[] {
  const accounts = new Accounts(deps.ds, deps.config, deps.mailer);
  const { config } = deps;
  const tag = 'auth';
  return [
    route({
      method: 'post', path: '/api/auth/register', tag, auth: 'public', rateLimit: 'auth',
      summary: 'Create an account; a verification link is mailed',
      body: z.object({ email, name: nonBlank(200), password: newPassword }),
      responses: { 201: { description: '{user, verification_required}' }, 409: { description: 'User already exists' } },
      handler: async (ctx, { body }) => {
        const user = await accounts.register(body);
        ctx.status = 201;
        return { user: presentUser(user), verification_required: true };
      },
    }),
    route({
      method: 'post', path: '/api/auth/login', tag, auth: 'public', rateLimit: 'auth',
      summary: 'Log in; sets the HttpOnly session cookie and the csrf_token cookie',
      body: z.object({ email: z.string().max(320), password, remember: z.boolean().default(false) }),
      responses: { 200: { description: '{user}' }, 401: { description: 'Invalid email or password' }, 403: { description: 'Email not verified' } },
      handler: async (ctx, { body }) => {
        const user = await accounts.checkLogin(body.email, body.password);
        const { session, token, csrfToken } = await accounts.createSession(user, { remember: body.remember, userAgent: ctx.get('user-agent'), ip: clientIp(ctx) });
        setSessionCookies(ctx, config, token, csrfToken, body.remember ? session.expiresAt : undefined);
        return { user: presentUser(user) };
      },
    }),
    route({
      method: 'post', path: '/api/auth/logout', tag, auth: 'session', rateLimit: 'none',
      summary: 'Revoke the current session', responses: ok,
      handler: async (ctx) => {
        await deps.ds.getRepository(AuthSession).update({ id: ctx.state.principal!.session!.id }, { revokedAt: new Date() });
        clearSessionCookies(ctx, config);
        return { ok: true };
      },
    }),
    route({
      method: 'post', path: '/api/auth/logout-all', tag, auth: 'session',
      summary: 'Revoke every session of the account, this one included', responses: ok,
      handler: async (ctx) => {
        await accounts.revokeSessions(ctx.state.principal!.user.id);
        clearSessionCookies(ctx, config);
        return { ok: true };
      },
    }),
    route({
      method: 'get', path: '/api/auth/me', tag, auth: 'user',
      summary: 'The caller', responses: { 200: { description: '{user}' } },
      handler: async (ctx) => ({ user: presentUser(ctx.state.principal!.user, true) }),
    }),
    route({
      method: 'get', path: '/api/auth/verify-email', tag, auth: 'public', rateLimit: 'auth',
      summary: 'Verify an email address by the mailed link (works when simply opened; HTML for browsers, JSON otherwise)',
      query: z.object({ token: z.string().min(10).max(200) }),
      responses: { 200: { description: 'Verified: HTML page or `{ok, email_verified_at}`' }, 400: { description: 'Invalid or expired verification link' } },
      handler: async (ctx, { query }) => {
        const wantsHtml = ctx.accepts('json', 'html') === 'html';
        try {
          const user = await accounts.verifyEmail(query.token);
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
        method: 'post', path: `/api/auth/${name}`, tag, auth: 'public', rateLimit: 'auth',
        summary: 'Mail a new activation link to an unverified account (always 200)',
        body: z.object({ email: z.string().max(320) }),
        responses: ok,
        handler: async (_ctx, { body }) => {
          await accounts.resendVerification(body.email);
          return { ok: true };
        },
      }),
    ),
    route({
      method: 'post', path: '/api/auth/forgot-password', tag, auth: 'public', rateLimit: 'auth',
      summary: 'Mail a password-reset link (always 200, whether or not the email exists)',
      body: z.object({ email: z.string().max(320) }),
      responses: ok,
      handler: async (_ctx, { body }) => {
        await accounts.forgotPassword(body.email);
        return { ok: true };
      },
    }),
    route({
      method: 'post', path: '/api/auth/reset-password', tag, auth: 'public', rateLimit: 'auth',
      summary: 'Set a new password with a mailed single-use token; ends every session',
      body: z.object({ token: z.string().min(10).max(200), password: newPassword }),
      responses: { ...ok, 400: { description: 'Invalid or expired reset token' } },
      handler: async (_ctx, { body }) => {
        await accounts.resetPassword(body.token, body.password);
        return { ok: true };
      },
    }),
    route({
      method: 'put', path: '/api/auth/change-password', tag, auth: 'session',
      summary: 'Change the password; other sessions are revoked',
      body: z.object({ current_password: password, new_password: newPassword }),
      responses: { ...ok, 400: { description: 'Current password is incorrect' } },
      handler: async (ctx, { body }) => {
        const p = ctx.state.principal!;
        await accounts.changePassword(p.user.id, body.current_password, body.new_password, p.session?.id);
        return { ok: true };
      },
    }),
    route({
      method: 'put', path: '/api/auth/profile', tag, auth: 'user',
      summary: 'Update the display name',
      body: z.object({ name: nonBlank(200) }),
      responses: { 200: { description: '{user}' } },
      handler: async (ctx, { body }) => {
        const user = ctx.state.principal!.user;
        user.name = body.name;
        await deps.ds.getRepository(User).update({ id: user.id }, { name: body.name });
        return { user: presentUser(user, true) };
      },
    }),
    route({
      method: 'get', path: '/api/auth/sessions', tag, auth: 'session',
      summary: 'Live sessions of the account', query: pageQuery(100),
      responses: { 200: { description: 'List envelope of sessions' } },
      handler: async (ctx, { query }) => {
        const p = ctx.state.principal!;
        const [rows, total] = await deps.ds
          .getRepository(AuthSession)
          .createQueryBuilder('s')
          .where('s.user_id = :u AND s.revoked_at IS NULL AND s.expires_at > now()', { u: p.user.id })
          .orderBy('s.created_at', 'DESC')
          .skip(query.offset)
          .take(query.limit)
          .getManyAndCount();
        return {
          items: rows.map((s) => ({
            id: s.id, created_at: s.createdAt, expires_at: s.expiresAt, last_seen_at: s.lastSeenAt,
            user_agent: s.userAgent, ip: s.ip, remember: s.remember, current: s.id === p.session?.id,
          })),
          total, limit: query.limit, offset: query.offset,
        };
      },
    }),
    route({
      method: 'post', path: '/api/auth/sessions/:session_id/revoke', tag, auth: 'session',
      summary: 'Revoke one session of the account', params: z.object({ session_id: uuidParam }),
      responses: { ...ok, 404: { description: 'Session not found' } },
      handler: async (ctx, { params }) => {
        const p = ctx.state.principal!;
        const r = await deps.ds
          .getRepository(AuthSession)
          .createQueryBuilder()
          .update()
          .set({ revokedAt: () => 'now()' })
          .where('id = :id AND user_id = :u AND revoked_at IS NULL', { id: params.session_id, u: p.user.id })
          .execute();
        if (!r.affected) throw notFound('Session not found');
        if (params.session_id === p.session?.id) clearSessionCookies(ctx, config);
        return { ok: true };
      },
    }),
    route({
      method: 'get', path: '/api/auth/export-my-data', tag, auth: 'session',
      summary: 'Everything the service holds about the caller, as a JSON attachment',
      responses: { 200: { description: 'JSON document' } },
      handler: async (ctx) => {
        const data = await exportMyData(deps.ds, ctx.state.principal!.user.id);
        ctx.set('Content-Disposition', 'attachment; filename="my-data.json"');
        return data;
      },
    }),
    route({
      method: 'post', path: '/api/auth/delete-account', tag, auth: 'session',
      summary: 'Delete the account (password required); projects it alone owns are deleted with it',
      body: z.object({ password }),
      responses: { ...ok, 400: { description: 'Password is incorrect' } },
      handler: async (ctx, { body }) => {
        const user = ctx.state.principal!.user;
        if (!(await accounts.checkPassword(user.id, body.password))) throw badRequest('Password is incorrect');
        await deleteAccount(deps.ds, deps.store, user.id);
        deps.keyCache?.forgetUser(user.id);
        deps.serving?.forgetAccess();
        clearSessionCookies(ctx, config);
        return { ok: true };
      },
    }),
  ];
}

function html(ctx: AppContext, status: number, title: string, message: string): string {
  return htmlPage(ctx, status, title, `<p>${message}</p>`);
}


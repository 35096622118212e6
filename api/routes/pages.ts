import { DomainError } from '../../services/errors';
import { escapeHtml } from '../../platform/html';
import { requestMeta, type AppContext, type RouteDeps } from '../context';
import { classifyError } from '../middleware/error-handler';
import { route, RouteDef } from '../route';
import { UI_PAGES, uiShell } from '../web-ui';
import { resetPasswordForm, resetPasswordPageQuery } from './pages.schema';

/**
 * The browser pages of the spec's catalog. The reset link's page is a plain HTML form (no JavaScript) that
 * posts the token and the new password back here, so a mailed link works in any browser; the others are the
 * web application's shell (built by Vite into dist/web), which routes on the client.
 */
export function pageRoutes({ services, keyCache }: RouteDeps): RouteDef[] {
  const { accounts } = services;
  return [
    ...UI_PAGES.map((path) =>
      route({
        method: 'get',
        path,
        tag: 'pages',
        auth: 'public',
        rateLimit: 'none',
        summary: `Browser page: the web application at ${path} (its client-side route)`,
        responses: {
          200: { description: 'The application shell (HTML; scripts from /assets only)', contentType: 'text/html' },
          503: { description: 'The web UI was not built (npm run build)', contentType: 'text/html' },
        },
        handler: async (ctx) => uiShell(ctx),
      }),
    ),
    route({
      method: 'get',
      path: '/auth/reset-password',
      tag: 'pages',
      auth: 'public',
      rateLimit: 'none',
      summary: 'Browser page: choose a new password (form for the mailed link)',
      query: resetPasswordPageQuery,
      responses: { 200: { description: 'HTML form', contentType: 'text/html' } },
      handler: async (ctx, { query }) =>
        htmlPage(
          ctx,
          200,
          'Choose a new password',
          `<form method="post" action="/auth/reset-password">
<input type="hidden" name="token" value="${escapeHtml(query.token)}">
<label>New password (at least 8 characters) <input type="password" name="password" minlength="8" required autocomplete="new-password"></label>
<button type="submit">Set password</button></form>`,
        ),
    }),
    route({
      method: 'post',
      path: '/auth/reset-password',
      tag: 'pages',
      auth: 'public',
      rateLimit: 'auth',
      requestContentType: 'application/x-www-form-urlencoded',
      summary: 'Browser page: submit the reset form (application/x-www-form-urlencoded)',
      body: resetPasswordForm,
      responses: {
        200: { description: 'HTML result', contentType: 'text/html' },
        400: { description: 'HTML page: the link is invalid or expired', contentType: 'text/html' },
        422: { description: 'HTML page: the password is refused; JSON when the form itself is malformed', contentType: ['application/json', 'text/html'] },
      },
      handler: async (ctx, { body }) => {
        try {
          await keyCache.forgetUser(await accounts.resetPassword(body.token, body.password, requestMeta(ctx)));
          return htmlPage(ctx, 200, 'Password changed', 'Your password is changed. You can now log in.');
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          const { status, detail } = classifyError(err);
          const msg = typeof detail === 'string' ? detail : 'The form was not valid';
          return htmlPage(ctx, status, 'Password not changed', escapeHtml(msg));
        }
      },
    }),
  ];
}

/** A minimal HTML page (no scripts) for links opened in a browser, styled like the web application. */
export function htmlPage(ctx: AppContext, status: number, title: string, bodyHtml: string): string {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><link rel="icon" href="/assets/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/assets/page.css"></head><body><main class="page"><h1>${escapeHtml(title)}</h1>${bodyHtml}<p><a href="/login">Go to the login page</a></p></main></body></html>`;
}

import type Koa from 'koa';
import { koaBody } from 'koa-body';
import type { AppContext, AppState } from '../context';
import { HttpError } from '../errors';

/**
 * Parses JSON (and the one form route's urlencoded) bodies, within a size limit and a deadline.
 * It runs after authentication, so an anonymous client cannot make the server read a body; and a
 * body that has not arrived whole within `timeoutMs` (a client that declares 100 bytes and sends 9)
 * is answered 408 and the connection closed, instead of holding it open.
 */
export function bodyParser(limits: { maxBytes: number; timeoutMs: number }, form?: 'application/x-www-form-urlencoded'): Koa.Middleware<AppState> {
  const parse = koaBody({
    jsonLimit: limits.maxBytes,
    formLimit: limits.maxBytes,
    // No route reads text; JSON routes refuse other types (415, see api/route.ts).
    text: false,
    // Uploads are streamed by their own routes, never buffered here.
    multipart: false,
    onError: (err) => {
      throw err;
    },
  });
  return async (ctx, next) => {
    assertBodyType(ctx as AppContext, form);
    const timer = setTimeout(() => {
      ctx.set('Connection', 'close');
      // raw-body (under koa-body) settles on the stream's error: the parse rejects with this 408.
      ctx.req.emit('error', Object.assign(new Error(`The request body did not arrive within ${Math.round(limits.timeoutMs / 1000)} s`), { status: 408, expose: true }));
    }, limits.timeoutMs);
    try {
      await parse(ctx as never, async () => undefined);
    } finally {
      clearTimeout(timer);
    }
    await next();
  };
}

/**
 * A body of the wrong type is refused (415) before it is read. JSON routes take JSON only: an
 * HTML form or a `text/plain` fetch from another origin is a "simple" cross-origin request (no
 * preflight), and a form-encoded login would otherwise set the session cookies of an attacker's
 * account in the victim's browser (login CSRF). Empty bodies pass: the schema decides whether a
 * body is required.
 */
function assertBodyType(ctx: AppContext, form?: 'application/x-www-form-urlencoded'): void {
  const length = ctx.request.length;
  const chunked = ctx.get('transfer-encoding') !== '';
  if (!chunked && !length) return;
  const ok = form ? ctx.is(form) : ctx.is('application/json', '+json');
  if (!ok) throw new HttpError(415, form ? `Expected ${form}` : 'Expected application/json');
}

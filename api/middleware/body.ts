import type Koa from 'koa';
import { koaBody } from 'koa-body';
import type { AppState } from '../context';

/**
 * Parses JSON (and the one form route's urlencoded) bodies, within a size limit and a deadline.
 * It runs after authentication, so an anonymous client cannot make the server read a body; and a
 * body that has not arrived whole within `timeoutMs` (a client that declares 100 bytes and sends 9)
 * is answered 408 and the connection closed, instead of holding it open.
 */
export function bodyParser(limits: { maxBytes: number; timeoutMs: number }): Koa.Middleware<AppState> {
  const parse = koaBody({
    jsonLimit: limits.maxBytes,
    formLimit: limits.maxBytes,
    textLimit: limits.maxBytes,
    // Uploads are streamed by their own routes, never buffered here.
    multipart: false,
    onError: (err) => {
      throw err;
    },
  });
  return async (ctx, next) => {
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

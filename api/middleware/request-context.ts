import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { AppState } from '../context';
import type { Logger } from '../../platform/logger';
import { CONTENT_SECURITY_POLICY } from '../web-ui';

/** Request id (echoed as X-Request-Id), a child logger carrying it, and one access log line. */
export function requestContext(log: Logger): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = log.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      ctx.state.log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10, user: ctx.state.principal?.user.id }, 'request');
    }
  };
}

/** Baseline security headers on every response; a route may set its own frame and content policies (the report viewer does). */
export function securityHeaders(): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    if (!ctx.response.get('X-Frame-Options')) ctx.set('X-Frame-Options', 'DENY');
    if (!ctx.response.get('Content-Security-Policy')) ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  };
}

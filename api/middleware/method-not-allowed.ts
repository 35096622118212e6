import type Router from '@koa/router';
import type Koa from 'koa';

/** The order methods are listed in `Allow`. */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

interface RouteLayer {
  methods: string[];
  paramNames: unknown[];
}

/**
 * The methods a path answers to. Where several routes match, the most literal ones own the path:
 * `/api/datasets/count` is its own resource, not `/api/datasets/{dataset_id}` with the id `count`, so only its own
 * methods are allowed there (and a DELETE to it is a 405, not a dataset id refused as malformed).
 */
export function allowedMethods(router: Router, path: string): string[] {
  const layers = (router.match(path, 'GET').path as unknown as RouteLayer[]).filter((l) => l.methods.length > 0);
  if (layers.length === 0) return [];
  const fewest = Math.min(...layers.map((l) => l.paramNames.length));
  const methods = new Set(layers.filter((l) => l.paramNames.length === fewest).flatMap((l) => l.methods));
  methods.add('OPTIONS');
  return ORDER.filter((m) => methods.has(m));
}

/**
 * Answers, before routing, what a path that exists says to a method it lacks: 405 with `Allow` naming the methods
 * it has (RFC 9110), for any method at all (TRACE, PROPFIND, CONNECT...), and 204 with the same `Allow` to
 * OPTIONS. Unknown paths fall through to 404. Replaces koa-router's `allowedMethods()`, which answered 501 to the
 * methods outside its own list, sent no body, and let a literal path be taken for a parameter.
 */
export function methodNotAllowed(router: Router): Koa.Middleware {
  return async (ctx, next) => {
    const allowed = allowedMethods(router, ctx.path);
    if (allowed.length === 0 || (ctx.method !== 'OPTIONS' && allowed.includes(ctx.method))) return next();
    ctx.set('Allow', allowed.join(', '));
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    ctx.status = 405;
    ctx.body = { detail: 'Method not allowed' };
  };
}

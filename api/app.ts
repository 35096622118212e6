import Router, { RouterMiddleware } from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import type { AppContext, AppDeps, AppState } from './context';
import { forbidden } from './errors';
import { authenticate, checkCsrf, KeyCache } from './middleware/authenticate';
import { errorHandler } from './middleware/error-handler';
import { methodNotAllowed } from './middleware/method-not-allowed';
import { RateLimiter } from './middleware/rate-limit';
import { requestContext, securityHeaders } from './middleware/request-context';
import { buildOpenApi } from './openapi';
import { mount, route, RouteDef } from './route';
import { apiKeyRoutes } from './routes/api-keys';
import { artifactRoutes } from './routes/artifacts';
import { authRoutes } from './routes/auth';
import { datasetRoutes } from './routes/datasets';
import { experimentRoutes } from './routes/experiments';
import { jobRoutes } from './routes/jobs';
import { modelRoutes } from './routes/models';
import { ModelServing } from './services/model-serving';
import { pageRoutes } from './routes/pages';
import { projectRoutes } from './routes/projects';
import { systemRoutes } from './routes/system';
import { scopeAllows } from './scopes';

const VERSION = '0.1.0';

/** Every route module of the API, in the order they appear in the OpenAPI document. */
const ROUTE_MODULES = [systemRoutes, authRoutes, apiKeyRoutes, projectRoutes, datasetRoutes, experimentRoutes, jobRoutes, artifactRoutes, pageRoutes];

/**
 * Builds the Koa application from its dependencies. Per route, in order: client-address
 * limit (public auth routes), authentication, CSRF, per-user limit, scope, validation.
 */
export function createApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: deps.config.trustProxy });
  const limiter = new RateLimiter(deps.ds, deps.config.rateLimits);
  const serving = deps.serving ?? new ModelServing(deps.ds, deps.store);
  const keyCache = deps.keyCache ?? new KeyCache();
  const routeDeps = { ...deps, keyCache, serving };
  const defs: RouteDef[] = [...ROUTE_MODULES.flatMap((m) => m(routeDeps)), ...modelRoutes(routeDeps, serving)];
  const openapi = buildOpenApi(
    [...defs, route({ method: 'get', path: '/api/openapi.json', tag: 'system', auth: 'public', rateLimit: 'none', summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1' } }, handler: async () => undefined })],
    VERSION,
  );

  const guards = (def: RouteDef): RouterMiddleware[] => [
    async (kctx, next) => {
      const ctx = kctx as unknown as AppContext;
      if (def.auth === 'public') {
        if (def.rateLimit && def.rateLimit !== 'none') await limiter.hit(ctx, def.rateLimit, `ip:${ctx.ip}`);
        return next();
      }
      const principal = await authenticate(ctx, deps.ds, def.auth, keyCache);
      ctx.state.principal = principal;
      checkCsrf(ctx, principal);
      const bucket = def.rateLimit ?? 'general';
      if (bucket !== 'none') await limiter.hit(ctx, bucket, `user:${principal.user.id}`);
      if (principal.via === 'api_key' && def.scope && !scopeAllows(principal.apiKey!.scopes, def.scope)) {
        throw forbidden('Insufficient scope');
      }
      return next();
    },
  ];

  const router = new Router();
  router.get('/api/openapi.json', (ctx) => {
    ctx.body = openapi;
  });
  mount(router, defs, guards);

  app.on('error', (err) => deps.log.debug({ err }, 'koa error event'));
  app.use(requestContext(deps.log));
  app.use(errorHandler([deps.config.dataDir, deps.config.artifactDir]));
  app.use(securityHeaders());
  app.use(
    koaBody({
      jsonLimit: deps.config.limits.maxJsonBodyBytes,
      formLimit: deps.config.limits.maxJsonBodyBytes,
      textLimit: deps.config.limits.maxJsonBodyBytes,
      // Uploads are streamed by their own routes, never buffered here.
      multipart: false,
      onError: (err) => {
        throw err;
      },
    }),
  );
  app.use(methodNotAllowed(router));
  app.use(router.routes());
  return app;
}

import Router, { RouterMiddleware } from '@koa/router';
import Koa from 'koa';
import { keyScopes, type AppContext, type AppDeps, type AppState, type RouteDeps } from './context';
import { authenticate, checkCsrf, KeyCache } from './middleware/authenticate';
import { bodyParser } from './middleware/body';
import { errorHandler } from './middleware/error-handler';
import { methodNotAllowed } from './middleware/method-not-allowed';
import { auditRequests, isAudited } from './middleware/audit';
import { planPredictionLimit } from './middleware/plan-predictions';
import { RateLimiter } from './middleware/rate-limit';
import { requestContext, securityHeaders } from './middleware/request-context';
import { ApiMetrics } from './metrics';
import { buildOpenApi } from './openapi';
import { ruleMetrics } from './rule-metrics';
import { mount, route, RouteDef } from './route';
import { accountRoutes } from './routes/account';
import { apiKeyRoutes } from './routes/api-keys';
import { artifactRoutes } from './routes/artifacts';
import { authRoutes } from './routes/auth';
import { ssoRoutes } from './routes/sso';
import { adminSsoRoutes } from './routes/admin-sso';
import { adminUserRoutes } from './routes/admin-users';
import { adminApiKeyRoutes } from './routes/admin-api-keys';
import { adminSettingsRoutes } from './routes/admin-settings';
import { adminLogRoutes } from './routes/admin-logs';
import { ADMIN_PATH_PREFIX, requireSuperuser } from './admin-guard';
import { billingRoutes } from './routes/billing';
import { datasetRoutes } from './routes/datasets';
import { deploymentRoutes } from './routes/deployments';
import { experimentRoutes } from './routes/experiments';
import { alertRoutes } from './routes/alerts';
import { abTestRoutes } from './routes/ab-tests';
import { registryRoutes } from './routes/registry';
import { rolloutRoutes } from './routes/rollouts';
import { retrainingRoutes } from './routes/retraining';
import { driftScheduleRoutes } from './routes/drift-schedule';
import { feedbackRoutes } from './routes/feedback';
import { invitationRoutes } from './routes/invitations';
import { jobRoutes } from './routes/jobs';
import { modelRoutes } from './routes/models';
import { pageRoutes } from './routes/pages';
import { projectRoutes } from './routes/projects';
import { teamRoutes } from './routes/teams';
import { adminTeamRoutes } from './routes/admin-teams';
import { adminAuditRoutes } from './routes/admin-audit';
import { adminRetentionRoutes } from './routes/admin-retention';
import { adminPlanRoutes } from './routes/admin-plans';
import { systemRoutes } from './routes/system';
import { studioRoutes } from './routes/studio';
import { synthgenRoutes } from './routes/synthgen';
import { privacyRoutes } from './routes/privacy';
import { anonymizeRoutes } from './routes/anonymize';
import { reportRoutes } from './routes/reports';
import { builderRoutes } from './routes/builder';
import { webUi } from './web-ui';
import { createServices } from '../services';
import { assertScopes } from '../services/scopes';
import { installAuditSubscriber } from '../services/audit/subscriber';

const VERSION = '0.1.0';

/** Every route module of the API, in the order they appear in the OpenAPI document. */
const ROUTE_MODULES = [
  systemRoutes,
  authRoutes,
  ssoRoutes,
  adminUserRoutes,
  adminApiKeyRoutes,
  adminSettingsRoutes,
  adminLogRoutes,
  adminSsoRoutes,
  accountRoutes,
  apiKeyRoutes,
  projectRoutes,
  teamRoutes,
  adminTeamRoutes,
  adminAuditRoutes,
  adminRetentionRoutes,
  adminPlanRoutes,
  invitationRoutes,
  datasetRoutes,
  experimentRoutes,
  modelRoutes,
  deploymentRoutes,
  feedbackRoutes,
  driftScheduleRoutes,
  alertRoutes,
  abTestRoutes,
  registryRoutes,
  rolloutRoutes,
  retrainingRoutes,
  jobRoutes,
  artifactRoutes,
  pageRoutes,
  studioRoutes,
  reportRoutes,
  privacyRoutes,
  anonymizeRoutes,
  synthgenRoutes,
  billingRoutes,
  builderRoutes,
];

/** Every route of the API, defined from its dependencies (nothing is called on them until a request comes). */
export function routeDefs(routeDeps: RouteDeps): RouteDef[] {
  return ROUTE_MODULES.flatMap((m) => m(routeDeps));
}

/** The OpenAPI document of these routes and of itself; scripts/api-types.ts builds it without a server. */
export function openApiDocument(defs: RouteDef[]): Record<string, unknown> {
  return buildOpenApi(
    [
      ...defs,
      route({
        method: 'get',
        path: '/api/openapi.json',
        tag: 'system',
        auth: 'public',
        rateLimit: 'none',
        summary: 'This document',
        responses: { 200: { description: 'OpenAPI 3.1' } },
        handler: async () => undefined,
      }),
    ],
    VERSION,
  );
}

/**
 * Builds the Koa application from its dependencies. Per route, in order: client-address
 * limit (public auth routes), authentication, CSRF, per-user limit, scope, body, validation.
 */
export function createApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: deps.config.trustProxy });
  const services = deps.services ?? createServices({ ...deps, ruleMetrics });
  const metrics = deps.metrics ?? new ApiMetrics(services, deps.log);
  const limiter = deps.limiter ?? new RateLimiter(deps.ds, deps.config.rateLimits, (bucket) => metrics.rateLimited(bucket));
  const keyCache = deps.keyCache ?? new KeyCache();
  const planPredictions = planPredictionLimit(services.plans, limiter);
  const routeDeps: RouteDeps = { config: deps.config, services, keyCache, ds: deps.ds, temporal: deps.temporal, metrics };
  const defs = routeDefs(routeDeps);
  const openapi = openApiDocument(defs);

  const bodyLimits = { maxBytes: deps.config.limits.maxJsonBodyBytes, timeoutMs: deps.config.limits.bodyTimeoutMs };
  const jsonBody = bodyParser(bodyLimits);
  const formBody = bodyParser(bodyLimits, 'application/x-www-form-urlencoded');
  const rawJsonBody = bodyParser(bodyLimits, undefined, { keepRaw: true });
  const guards = (def: RouteDef): RouterMiddleware[] => [
    async (kctx, next) => {
      const ctx = kctx as unknown as AppContext;
      if (def.auth === 'public') {
        if (def.rateLimit && def.rateLimit !== 'none') await limiter.hit(ctx, def.rateLimit, `ip:${ctx.ip}`);
        return next();
      }
      const principal = await authenticate(ctx, services.authentication, def.auth, keyCache);
      ctx.state.principal = principal;
      checkCsrf(ctx, principal);
      const bucket = def.rateLimit ?? 'general';
      if (bucket !== 'none') await limiter.hit(ctx, bucket, `user:${principal.user.id}`);
      // Predict requests only (the bucket also holds feedback and outcomes): the plan's predictions_per_minute.
      if (bucket === 'predict' && /\/predict(\/|$)/.test(def.path)) await planPredictions(ctx, principal.user.id);
      if (def.scope) assertScopes(keyScopes(ctx), def.scope);
      // Every admin route, whichever part defines it, refuses non-superusers before anything of the request is read.
      if (def.path.startsWith(ADMIN_PATH_PREFIX)) requireSuperuser(ctx);
      return next();
    },
    // After authentication: nothing is read from a caller who may not call the route.
    // Multipart uploads and streamed CSV are read by their routes; every other body is typed, then parsed.
    ...(def.requestContentType === 'multipart/form-data' || def.requestContentType === 'text/csv'
      ? []
      : [(def.requestContentType ? formBody : def.rawBody ? rawJsonBody : jsonBody) as unknown as RouterMiddleware]),
    // Last: validation and the handler run in the request's audit scope (entries in the change's transaction).
    ...(isAudited(def) ? [auditRequests(def, services.audit)] : []),
  ];

  // Every entity change a mutating request makes gets its audit entry (services/audit/subscriber.ts).
  installAuditSubscriber(deps.ds);
  const router = new Router();
  router.get('/api/openapi.json', (ctx) => {
    ctx.body = openapi;
  });
  mount(router, defs, guards);

  app.on('error', (err) => deps.log.debug({ err }, 'koa error event'));
  app.use(metrics.middleware());
  app.use(requestContext(deps.log));
  app.use(errorHandler([deps.config.dataDir, deps.config.artifactDir]));
  app.use(securityHeaders());
  app.use(methodNotAllowed(router));
  app.use(router.routes());
  // The web application's assets and client-side routes, after the API (unknown paths stay 404).
  app.use(webUi());
  return app;
}

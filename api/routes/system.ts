import type { RouteDeps } from '../context';
import { route, RouteDef } from '../route';
import { databaseReachable } from '../../platform/database';

/** Liveness of the dependencies and the Prometheus metrics. OpenAPI is mounted by the app (it needs every route). */
export function systemRoutes(deps: RouteDeps): RouteDef[] {
  return [
    route({
      method: 'get',
      path: '/healthz',
      tag: 'system',
      auth: 'public',
      rateLimit: 'none',
      summary: '200 only when PostgreSQL and Temporal both answer; 503 otherwise',
      responses: { 200: { description: '{status: ok, database, temporal}' }, 503: { description: 'A dependency is down' } },
      handler: async (ctx) => {
        const [db, temporal] = await Promise.all([databaseReachable(deps.ds), deps.temporal.reachable()]);
        const healthy = db && temporal;
        ctx.status = healthy ? 200 : 503;
        return { status: healthy ? 'ok' : 'unavailable', database: db ? 'ok' : 'down', temporal: temporal ? 'ok' : 'down' };
      },
    }),
    route({
      method: 'get',
      path: '/metrics',
      tag: 'system',
      auth: 'public',
      rateLimit: 'none',
      summary:
        'Prometheus metrics (text exposition format 0.0.4): requests and latency per route template and status, predictions per model, open jobs, rate-limit refusals, process metrics. With METRICS_TOKEN set, send it as `Authorization: Bearer <token>`',
      responses: { 200: { description: 'The metrics', contentType: 'text/plain; version=0.0.4; charset=utf-8' }, 401: { description: 'METRICS_TOKEN is set and the request did not carry it' } },
      handler: async (ctx) => {
        await deps.metrics.scrape(ctx, deps.config.metricsToken);
        return undefined;
      },
    }),
  ];
}

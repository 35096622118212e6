import type { RouteDeps } from '../context';
import { route, RouteDef } from '../route';
import { databaseReachable } from '../../platform/database';

/** Liveness of the dependencies. OpenAPI is mounted by the app (it needs every route). */
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
  ];
}

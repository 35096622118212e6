import http from 'node:http';
import { createServices } from '../services';
import type { AppDeps } from './context';
import { createApp } from './app';

export interface RunningApi {
  server: http.Server;
  port: number;
  stop(): Promise<void>;
}

/** Listens on `port` (0: any free port) and runs the job reconciler on its interval. */
export async function startApi(deps: AppDeps, port: number, host: string): Promise<RunningApi> {
  const services = deps.services ?? createServices(deps);
  const app = createApp({ ...deps, services });
  const server = http.createServer(app.callback());
  server.requestTimeout = 0; // uploads and exports stream for as long as they need
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const actual = (server.address() as { port: number }).port;

  const sweep = () => services.jobs.reconcile().catch((err) => deps.log.warn({ err }, 'job reconciler failed'));
  const timer = deps.config.reconcileIntervalSecs > 0 ? setInterval(sweep, deps.config.reconcileIntervalSecs * 1000) : undefined;
  timer?.unref();
  if (deps.config.reconcileIntervalSecs > 0) void sweep();

  return {
    server,
    port: actual,
    stop: async () => {
      if (timer) clearInterval(timer);
      server.closeAllConnections();
      await services.serving.close();
      await new Promise<void>((r) => server.close(() => r()));
      await services.inferenceLogs.close();
    },
  };
}

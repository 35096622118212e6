import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
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
  const handle = app.callback();
  const server = http.createServer(handle);
  answerConnectLikeAnyMethod(server, handle);
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

/**
 * Node hands a CONNECT request to `connect` listeners instead of the request handler, and without one it closes
 * the socket unanswered. The API has no tunnel to offer: CONNECT goes through the app like any other method
 * (405 with `Allow` on a known path, 404 elsewhere), and the connection closes after the answer.
 */
function answerConnectLikeAnyMethod(server: http.Server, handle: http.RequestListener): void {
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    const res = new http.ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Socket);
    res.on('finish', () => {
      res.detachSocket(socket as Socket);
      socket.end();
    });
    socket.on('error', () => socket.destroy());
    handle(req, res);
  });
}

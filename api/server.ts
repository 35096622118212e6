import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AppDeps } from './context';
import { createApp } from './app';
import { reconcileJobs } from './services/job-reconciler';
import { JobService } from './services/jobs';
import { ModelServing } from './services/model-serving';

export interface RunningApi {
  server: http.Server;
  port: number;
  stop(): Promise<void>;
}

/** Listens on `port` (0: any free port) and runs the job reconciler on its interval. */
export async function startApi(deps: AppDeps, port: number, host: string): Promise<RunningApi> {
  const serving = deps.serving ?? new ModelServing(deps.ds, deps.store);
  const app = createApp({ ...deps, serving });
  const handle = app.callback();
  const server = http.createServer(handle);
  answerConnectLikeAnyMethod(server, handle);
  server.requestTimeout = 0; // uploads and exports stream for as long as they need
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const actual = (server.address() as { port: number }).port;

  const jobs = new JobService(deps.ds, deps.temporal, deps.config, deps.log);
  const sweep = () => reconcileJobs(deps.ds, deps.temporal, jobs, deps.log).catch((err) => deps.log.warn({ err }, 'job reconciler failed'));
  const timer = deps.config.reconcileIntervalSecs > 0 ? setInterval(sweep, deps.config.reconcileIntervalSecs * 1000) : undefined;
  timer?.unref();
  if (deps.config.reconcileIntervalSecs > 0) void sweep();

  return {
    server,
    port: actual,
    stop: async () => {
      if (timer) clearInterval(timer);
      server.closeAllConnections();
      await serving.close();
      await new Promise<void>((r) => server.close(() => r()));
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

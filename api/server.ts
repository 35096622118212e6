import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createServices } from '../services';
import { logCapture } from '../platform/log-capture';
import type { AppDeps } from './context';
import { createApp } from './app';
import { ruleMetrics } from './rule-metrics';
import { ApiMetrics } from './metrics';
import { RateLimiter } from './middleware/rate-limit';
import { KeyCache } from './middleware/authenticate';
import { KeyRevocationBroadcast } from './key-revocations';

export interface RunningApi {
  server: http.Server;
  port: number;
  metrics: ApiMetrics;
  /**
   * Stops accepting connections, lets in-flight requests finish for up to `graceMs` (0: cut them at once), then
   * writes what is still buffered (rate-limit counts, inference logs) and closes the model sessions. The database and
   * Temporal connections are the caller's to close afterwards.
   */
  stop(graceMs?: number): Promise<{ cutRequests: number }>;
}

/** Listens on `port` (0: any free port) and runs the job reconciler and the artifact sweep on their intervals. */
export async function startApi(deps: AppDeps, port: number, host: string): Promise<RunningApi> {
  const services = deps.services ?? createServices({ ...deps, ruleMetrics });
  const metrics = deps.metrics ?? new ApiMetrics(services, deps.log);
  const limiter = deps.limiter ?? new RateLimiter(deps.ds, deps.config.rateLimits, (bucket) => metrics.rateLimited(bucket));
  // API-key revocations reach every API process on this database at once (LISTEN/NOTIFY: api/key-revocations.ts).
  const revocations = new KeyRevocationBroadcast(deps.ds, deps.log);
  const keyCache = deps.keyCache ?? new KeyCache(revocations);
  const databaseUrl = (deps.ds.options as { url?: string }).url;
  if (databaseUrl) await revocations.listen(databaseUrl, keyCache);
  const app = createApp({ ...deps, services, metrics, limiter, keyCache });
  // Warn and error entries of this process go to the admins' service logs; the ADMIN_EMAIL account becomes the
  // first superuser if it exists and there is none yet.
  logCapture.attach(deps.ds, deps.config.admin.serviceLogMaxEntries);
  await services.superusers.bootstrap().catch((err: unknown) => deps.log.warn({ err }, 'superuser bootstrap failed'));
  // SSO client secrets stored before encryption, or under an earlier key, are encrypted with the current key (idempotent).
  await services.ssoProviders.sealStoredSecrets().catch((err: unknown) => deps.log.error({ err }, 'SSO client secrets could not be encrypted at start'));
  const handle = app.callback();
  const inFlight = new Set<http.ServerResponse>();
  let stopping = false;
  const server = http.createServer((req, res) => {
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      // A keep-alive connection that just went idle is closed at once while stopping.
      if (stopping) server.closeIdleConnections();
    });
    // Answers given while stopping tell the client not to reuse the connection.
    if (stopping) res.setHeader('Connection', 'close');
    // Koa's callback handles its own errors (the error middleware answers, app.on('error') logs).
    void handle(req, res);
  });
  answerConnectLikeAnyMethod(server, handle);
  server.requestTimeout = 0; // uploads and exports stream for as long as they need
  // Node's 5 s keep-alive lets the server close a socket a client is about to reuse (its idle timer runs on its own
  // clock, late when its event loop pauses): the request then fails with "other side closed". A proxy in front holds
  // connections up to its own idle timeout (60 s for most), so ours is longer than that.
  server.keepAliveTimeout = deps.config.limits.keepAliveTimeoutMs;
  // A port in use is a start-up error for the caller to report (and clean up after), not an uncaught 'error' event.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (err: unknown) => {
    await revocations.close(); // its connection would keep the failed process alive
    throw err;
  });
  const actual = (server.address() as { port: number }).port;

  const sweep = async () => {
    await services.jobs.reconcile().catch((err) => deps.log.warn({ err }, 'job reconciler failed'));
    await services
      .reconcileSchedules()
      .then((r) => (r.created || r.deleted) && deps.log.info(r, 'alert and drift schedules reconciled'))
      .catch((err) => deps.log.warn({ err }, 'schedule reconciler failed'));
  };
  const timer = deps.config.reconcileIntervalSecs > 0 ? setInterval(sweep, deps.config.reconcileIntervalSecs * 1000) : undefined;
  timer?.unref();
  if (deps.config.reconcileIntervalSecs > 0) void sweep();
  // Stored files no artifact row references (a write whose process died before its row), on their own, slower period.
  const stopSweeping = new AbortController();
  let sweeping = false;
  const sweepArtifacts = () => {
    if (sweeping) return; // a pass over a large store may outlast the period
    sweeping = true;
    services.artifactSweep
      .run(stopSweeping.signal)
      .catch((err) => deps.log.warn({ err }, 'artifact sweep failed'))
      .finally(() => (sweeping = false));
  };
  const sweepTimer = deps.config.artifactSweep.intervalSecs > 0 ? setInterval(sweepArtifacts, deps.config.artifactSweep.intervalSecs * 1000) : undefined;
  sweepTimer?.unref();
  // Storage usage is metered by a daily sample per owner (keyed by day: every API process may take it, it counts once).
  // Taken at start too, so a day on which no process runs a full hour is still sampled.
  const sampleStorage = () => void services.billing.sampleStorage().catch((err) => deps.log.warn({ err }, 'storage usage sample failed'));
  const storageTimer = setInterval(sampleStorage, 3_600_000);
  storageTimer.unref();
  sampleStorage();

  return {
    server,
    port: actual,
    metrics,
    stop: async (graceMs = 0) => {
      stopping = true;
      if (timer) clearInterval(timer);
      if (sweepTimer) clearInterval(sweepTimer);
      clearInterval(storageTimer);
      stopSweeping.abort();
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      // close() stops listening (new connections are refused) and closes idle keep-alive connections; it calls back
      // once the last connection is gone, that is when every in-flight request has been answered.
      const drained = new Promise<void>((r) => server.close(() => r()));
      let cutRequests = 0;
      const cut = setTimeout(() => {
        cutRequests = inFlight.size;
        if (cutRequests) deps.log.warn({ requests: cutRequests, graceMs }, 'shutdown grace period over: closing the connections of unfinished requests');
        server.closeAllConnections();
      }, graceMs);
      await drained;
      clearTimeout(cut);
      // Counted hits and inference logs were taken in memory; write them before the process goes.
      await limiter.flush().catch((err) => deps.log.warn({ err }, 'rate-limit counts not written at shutdown'));
      await services.inferenceLogs.close();
      await services.billing.predictions.close();
      await services.serving.close();
      await revocations.close();
      await logCapture.flush();
      return { cutRequests };
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

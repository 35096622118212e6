import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { startApi } from '../api/server';
import { createArtifactStore } from '../platform/create-artifact-store';
import { loadConfig } from '../platform/config';
import { connectAndMigrate, createDataSource } from '../platform/database';
import { EmbeddedPostgresError, embeddedDbDir, startEmbeddedPostgres } from '../platform/embedded-postgres';
import { createLogger } from '../platform/logger';
import { createMailer } from '../platform/mail';
import { ensureNerModel } from '../platform/ner-model';
import { ensureWordClasses } from '../platform/word-classes';
import { scratchParents, sweepScratch } from '../platform/scratch';
import { TemporalGateway } from '../platform/temporal-client';
import { startTemporalDevServer } from '../platform/temporal-dev';

/**
 * `npm start`: the API, the workers and, where DATABASE_URL / TEMPORAL_ADDRESS are unset,
 * the embedded PostgreSQL and the local Temporal dev server.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel, 'start');
  // Uploads and half-written files of a process that was killed (this one's previous life, or a worker).
  const swept = sweepScratch(scratchParents(config));
  if (swept.length) log.warn({ folders: swept }, 'removed the temporary files of processes that ended without cleaning up');

  // The named-entity model of PII detection (converted once into NER_MODEL_DIR); without it detection runs on its rules alone.
  await ensureNerModel(config.nerModelDir, (m) => log.info(m)).catch((err: unknown) => log.warn({ err }, 'named-entity model not available: PII detection uses its rules alone'));
  await ensureWordClasses(config.nerModelDir, (m) => log.info(m)).catch((err: unknown) => log.warn({ err }, 'word classes not available: the entity tagger reads the words alone'));

  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const pg = await startEmbeddedPostgres({ dir: embeddedDbDir(config.dataDir), port: config.embeddedDbPort, osUser: config.embeddedDbOsUser, log });
    databaseUrl = pg.url;
    localServices.push(pg.stop);
  }
  let temporalAddress = config.temporal.address;
  if (!temporalAddress) {
    const dev = await startTemporalDevServer({
      dbFile: path.join(config.dataDir, 'temporal', 'dev.sqlite'),
      pidFile: path.join(config.dataDir, 'temporal', 'dev-server.pid'),
      port: config.temporal.devPort,
      uiPort: config.temporal.uiPort,
      namespace: config.temporal.namespace,
      log: (m) => log.info(m),
    });
    temporalAddress = dev.address;
    log.info({ address: dev.address, ui: dev.uiUrl }, 'Temporal dev server up');
    localServices.push(dev.stop);
  }
  const runtimeConfig = { ...config, databaseUrl, temporal: { ...config.temporal, address: temporalAddress } };

  const ds = createDataSource({ url: databaseUrl, poolSize: config.databasePoolSize });
  const applied = await connectAndMigrate(ds);
  if (applied.length) log.info({ applied }, 'migrations applied');
  const temporal = new TemporalGateway(temporalAddress, config.temporal.namespace);
  const deps = {
    config: runtimeConfig,
    ds,
    temporal,
    mailer: createMailer(config.mail, log),
    store: createArtifactStore(config, log),
    log,
  };
  await deps.store.ready();
  const api = await startApi(deps, config.port, config.host);
  log.info({ url: `http://localhost:${api.port}`, docs: `http://localhost:${api.port}/api/openapi.json` }, 'API listening');

  const workers = config.startWorkers.length ? superviseWorkers(config.startWorkers, { DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporalAddress }, log) : undefined;

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second signal: the operator does not want to wait.
      log.warn({ signal }, 'second signal: exiting without finishing');
      process.exit(1);
    }
    stopping = true;
    const graceMs = config.shutdownGraceMs;
    log.info({ signal, graceSecs: graceMs / 1000 }, 'shutting down: no new connections; finishing in-flight requests and activities');
    // Past the grace period plus time to flush and close, something hangs (a database that does not answer): go anyway.
    setTimeout(() => {
      log.error('shutdown did not finish in time; exiting');
      process.exit(1);
    }, graceMs + SHUTDOWN_CLOSE_MS).unref();
    const [{ cutRequests }] = await Promise.all([api.stop(graceMs), workers?.stop(graceMs + WORKER_KILL_AFTER_GRACE_MS)]);
    await temporal.close();
    await ds.destroy();
    await stopLocalServices();
    log.info({ cutRequests }, 'stopped');
    process.exit(0);
  };
  process.on('SIGINT', (s) => void shutdown(s));
  process.on('SIGTERM', (s) => void shutdown(s));
}

/**
 * After the grace period, what flushing buffers, closing connections and waiting for the worker process may take
 * before this process gives up. The worker process exits on its own by the grace period + 15 s (run-workers.ts);
 * it is killed if it has not.
 */
const SHUTDOWN_CLOSE_MS = 20_000;
const WORKER_KILL_AFTER_GRACE_MS = 16_000;

/** Runs the worker process and restarts it (with backoff) if it dies. */
function superviseWorkers(families: string[], env: Record<string, string>, log: ReturnType<typeof createLogger>) {
  let child: ChildProcess | undefined;
  let stopping = false;
  let delay = 1000;
  const launch = () => {
    const started = Date.now();
    // The IPC channel is how the worker process learns that this one is gone (it closes even on `kill -9`).
    child = spawn(process.execPath, [path.join(__dirname, '..', 'workers', 'run-workers.js'), ...families], {
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, ...env },
    });
    child.on('exit', (code, signal) => {
      if (stopping) return;
      delay = Date.now() - started > 60_000 ? 1000 : Math.min(delay * 2, 30_000);
      log.warn({ code, signal, retryInMs: delay }, 'worker process exited; restarting');
      setTimeout(launch, delay);
    });
  };
  launch();
  return {
    /** SIGTERM (the worker finishes or hands back its activities), SIGKILL after `killAfterMs`; resolves when it is gone. */
    stop(killAfterMs: number): Promise<void> {
      stopping = true;
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const kill = setTimeout(() => c.kill('SIGKILL'), killAfterMs);
        c.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        c.kill('SIGTERM');
      });
    },
  };
}

/** The local services this start launched (embedded PostgreSQL, Temporal dev server), stopped last to first. */
const localServices: (() => Promise<void>)[] = [];

async function stopLocalServices(): Promise<void> {
  for (const stop of localServices.splice(0).reverse()) await stop().catch(() => undefined);
}

main().catch(async (err: unknown) => {
  // A start that fails half-way stops what it had started: nothing is left running for the next one to find.
  console.error(err instanceof EmbeddedPostgresError ? err.message : err);
  await stopLocalServices();
  process.exit(1);
});

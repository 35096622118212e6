import 'reflect-metadata';
import { loadConfig } from '../platform/config';
import { createDataSource } from '../platform/database';
import { createLogger } from '../platform/logger';
import { MetricsServer, serveMetrics } from '../platform/metrics';
import { scratchParents, sweepScratch } from '../platform/scratch';
import type { QueueFamily } from '../workflows/job-input';
import { sampleStorage } from '../services/billing/usage';
import { familiesAfterGpuCheck, GpuWorkerRefusedError } from './gpu-adapter';
import { createWorkers } from './worker-factory';
import { threadsEnded } from '../platform/threads';

/** After the grace period, what Temporal's shutdown and closing the connections may take before the process exits anyway. */
const EXIT_AFTER_GRACE_MS = 15_000;

/**
 * Process entry for workers: `node dist/workers/run-workers.js io cpu gpu`.
 * Needs DATABASE_URL and TEMPORAL_ADDRESS (npm start passes the local ones). With
 * WORKER_METRICS_PORT, serves its Prometheus metrics there. On SIGTERM or SIGINT the workers
 * stop polling, running activities get SHUTDOWN_GRACE_SECS to finish (then they are canceled and
 * Temporal retries them elsewhere), and the process exits 0.
 */
export async function runWorkerProcess(requested: QueueFamily[]): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel, `worker-${requested.join('-')}`);
  if (!config.databaseUrl || !config.temporal.address) {
    throw new Error('workers need DATABASE_URL and TEMPORAL_ADDRESS');
  }
  // Before any connection: a gpu worker without a usable adapter refuses to start (gpu-adapter.ts).
  const families = await familiesAfterGpuCheck(requested, log);
  const swept = sweepScratch(scratchParents(config));
  if (swept.length) log.warn({ folders: swept }, 'removed the temporary files of processes that ended without cleaning up');
  const ds = createDataSource({ url: config.databaseUrl, poolSize: config.databasePoolSize });
  // The API process owns migrations; workers only connect.
  await ds.initialize();
  // Today's storage usage sample (services/billing/usage.ts), as the API takes it: keyed by day, so it counts once.
  void sampleStorage(ds).catch((err: unknown) => log.warn({ err }, 'storage usage sample failed'));
  const { workers, connection, trainingPool, metrics } = await createWorkers({ config, dataSource: ds, families });
  let metricsServer: MetricsServer | undefined;
  if (config.workerMetricsPort > 0) {
    metricsServer = await serveMetrics(metrics.registry, config.workerMetricsPort, config.host);
    log.info({ port: metricsServer.port }, 'worker metrics at /metrics');
  }
  const queues = workers.map((w) => w.options.taskQueue);
  log.info({ queues, trainingSlots: families.includes('cpu') ? config.training.slots : 0 }, 'workers polling');
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // npm start's Ctrl-C reaches this process twice (the terminal's SIGINT, then the parent's SIGTERM): one shutdown.
    if (stopping) return;
    stopping = true;
    log.info({ signal, graceSecs: config.shutdownGraceMs / 1000 }, 'shutting down: no new tasks; running activities may finish');
    setTimeout(() => {
      log.error('shutdown did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownGraceMs + EXIT_AFTER_GRACE_MS).unref();
    workers.forEach((w) => w.shutdown());
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Started by `npm start` (an IPC channel): when that process dies, even by `kill -9`, the channel closes and this
  // process shuts down as on SIGTERM instead of polling on as an orphan beside the next start's workers.
  if (process.connected) {
    process.on('disconnect', () => {
      if (stopping) return;
      log.warn('the process that started the workers is gone: shutting down');
      stop('SIGTERM');
    });
  }
  await Promise.all(workers.map((w) => w.run()));
  await trainingPool.close();
  // Stopping threads (a cancelled synthgen fit ending its last batch, a checks thread finishing its DuckDB read) end
  // first: exiting would stop them inside a native call.
  await threadsEnded();
  await metricsServer?.close();
  await connection.close();
  await ds.destroy();
  log.info('workers stopped');
}

/** Ends a worker process that could not run: a GPU refusal is one readable paragraph, anything else its stack. */
export function exitWithError(err: unknown): never {
  console.error(err instanceof GpuWorkerRefusedError ? `The gpu worker refuses to start. ${err.message}` : err);
  process.exit(1);
}

if (require.main === module) {
  const valid: QueueFamily[] = ['io', 'cpu', 'gpu'];
  const families = process.argv.slice(2).filter((a): a is QueueFamily => (valid as string[]).includes(a));
  runWorkerProcess(families.length ? families : valid).then(
    () => process.exit(0),
    (err) => exitWithError(err),
  );
}

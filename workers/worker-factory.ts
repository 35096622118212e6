import path from 'node:path';
import { bundleWorkflowCode, NativeConnection, Worker, WorkerOptions } from '@temporalio/worker';
import type { DataSource } from 'typeorm';
import { createActivities, TrainingPool } from '../activities';
import type { Config } from '../platform/config';
import { createArtifactStore } from '../platform/create-artifact-store';
import { logCapture } from '../platform/log-capture';
import { createLogger } from '../platform/logger';
import { createMailer } from '../platform/mail';
import { TemporalGateway } from '../platform/temporal-client';
import { WorkerMetrics } from './metrics';
import { routeTemporalLogs } from './temporal-logging';
import { assertRegisteredWorkflows } from './workflow-check';
import { createServices } from '../services';
import type { QueueFamily } from '../workflows/job-input';

export interface WorkerSetOptions {
  config: Config;
  dataSource: DataSource;
  families: QueueFamily[];
  /** Prebuilt workflow bundle (tests build it once); otherwise workflows are bundled at start. */
  workflowBundlePath?: string;
  connection?: NativeConnection;
}

/** After the grace period, how long Temporal's shutdown may take before the worker gives up on it. */
const SHUTDOWN_FORCE_AFTER_GRACE_MS = 5_000;

/**
 * Creates one Worker per queue family. `io` and `cpu` run workflows and activities; the
 * `gpu` worker registers activities only (GPU machines run nothing else). The `cpu` family also
 * polls the AutoML training queue, with as many activities at once as the process has training
 * slots: that queue's concurrency, not a lock inside the process, is what keeps a worker from
 * taking a model it cannot start while another worker sits idle.
 */
export async function createWorkers(opts: WorkerSetOptions): Promise<{ workers: Worker[]; connection: NativeConnection; trainingPool: TrainingPool; metrics: WorkerMetrics }> {
  const { config } = opts;
  const log = createLogger(config.logLevel, 'worker');
  routeTemporalLogs(log);
  const connection = opts.connection ?? (await NativeConnection.connect({ address: config.temporal.address }));
  const trainingPool = new TrainingPool();
  const store = createArtifactStore(config, log);
  await store.ready();
  const services = createServices({
    ds: opts.dataSource,
    store,
    config,
    log,
    temporal: new TemporalGateway(config.temporal.address ?? '', config.temporal.namespace),
    mailer: createMailer(config.mail, log),
  });
  // The workers' warn and error entries reach the admins' service logs (GET /api/admin/logs).
  logCapture.attach(opts.dataSource, config.admin.serviceLogMaxEntries);
  const activities = createActivities({
    services,
    dataSource: opts.dataSource,
    store,
    config,
    trainingPool,
    outageWait: { probe: () => opts.dataSource.query('SELECT 1'), waitMs: config.outageWaitSecs * 1000 },
  });
  const metrics = new WorkerMetrics();
  // Bundle the workflows once per process, not once per worker.
  const needsWorkflows = opts.families.some((f) => f !== 'gpu');
  if (needsWorkflows) assertRegisteredWorkflows();
  const workflowSource: Pick<WorkerOptions, 'workflowBundle'> = opts.workflowBundlePath
    ? { workflowBundle: { codePath: opts.workflowBundlePath } }
    : needsWorkflows
      ? { workflowBundle: await bundleWorkflowCode({ workflowsPath: path.join(__dirname, '..', 'workflows', 'index.js') }) }
      : {};
  const common: Pick<WorkerOptions, 'connection' | 'namespace' | 'interceptors' | 'shutdownGraceTime' | 'shutdownForceTime'> = {
    connection,
    namespace: config.temporal.namespace,
    interceptors: { activity: [metrics.interceptor] },
    // On SIGTERM activities get the grace period to finish; past it they are canceled and Temporal retries them
    // on another worker (the training thread stops with the cancel).
    shutdownGraceTime: config.shutdownGraceMs,
    shutdownForceTime: config.shutdownGraceMs + SHUTDOWN_FORCE_AFTER_GRACE_MS,
  };
  const workers: Worker[] = [];
  for (const family of opts.families) {
    const base: WorkerOptions = {
      ...common,
      taskQueue: config.taskQueues[family],
      activities,
      // CPU-heavy activities run in worker threads; keep concurrency at the core count.
      maxConcurrentActivityTaskExecutions: family === 'io' ? 20 : 2,
    };
    workers.push(await Worker.create(family === 'gpu' ? base : { ...base, ...workflowSource }));
    if (family === 'cpu') {
      workers.push(
        await Worker.create({
          ...common,
          taskQueue: config.training.taskQueue,
          activities: { trainModel: activities.trainModel, trainEnsembles: activities.trainEnsembles },
          maxConcurrentActivityTaskExecutions: config.training.slots,
        }),
      );
    }
  }
  // Every worker process, whatever its families, serves the job status queue: a deployment that runs only cpu (or
  // gpu) workers still gets its jobs' status writes and admission checks, and they never wait behind heavy work.
  workers.push(
    await Worker.create({
      ...common,
      taskQueue: config.statusTaskQueue,
      activities: { admitJob: activities.admitJob, markJobRunning: activities.markJobRunning, markJobFinished: activities.markJobFinished },
      maxConcurrentActivityTaskExecutions: 20,
    }),
  );
  return { workers, connection, trainingPool, metrics };
}

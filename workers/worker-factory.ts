import path from 'node:path';
import { bundleWorkflowCode, NativeConnection, Worker, WorkerOptions } from '@temporalio/worker';
import type { DataSource } from 'typeorm';
import { createActivities, TrainingPool } from '../activities';
import type { Config } from '../platform/config';
import { ArtifactStore } from '../platform/artifact-store';
import { createLogger } from '../platform/logger';
import { createMailer } from '../platform/mail';
import { TemporalGateway } from '../platform/temporal-client';
import { routeTemporalLogs } from './temporal-logging';
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

/**
 * Creates one Worker per queue family. `io` and `cpu` run workflows and activities; the
 * `gpu` worker registers activities only (GPU machines run nothing else).
 */
export async function createWorkers(opts: WorkerSetOptions): Promise<{ workers: Worker[]; connection: NativeConnection; trainingPool: TrainingPool }> {
  const { config } = opts;
  const log = createLogger(config.logLevel, 'worker');
  routeTemporalLogs(log);
  const connection = opts.connection ?? (await NativeConnection.connect({ address: config.temporal.address }));
  const trainingPool = new TrainingPool();
  const services = createServices({
    ds: opts.dataSource,
    store: new ArtifactStore(config.artifactDir),
    config,
    log,
    temporal: new TemporalGateway(config.temporal.address ?? '', config.temporal.namespace),
    mailer: createMailer(config.mail, log),
  });
  const activities = createActivities({ services, trainingPool });
  // Bundle the workflows once per process, not once per worker.
  const needsWorkflows = opts.families.some((f) => f !== 'gpu');
  const workflowSource: Pick<WorkerOptions, 'workflowBundle'> = opts.workflowBundlePath
    ? { workflowBundle: { codePath: opts.workflowBundlePath } }
    : needsWorkflows
      ? { workflowBundle: await bundleWorkflowCode({ workflowsPath: path.join(__dirname, '..', 'workflows', 'index.js') }) }
      : {};
  const workers: Worker[] = [];
  for (const family of opts.families) {
    const base: WorkerOptions = {
      connection,
      namespace: config.temporal.namespace,
      taskQueue: config.taskQueues[family],
      activities,
      // CPU-heavy activities run in worker threads; keep concurrency at the core count.
      maxConcurrentActivityTaskExecutions: family === 'io' ? 20 : 2,
      shutdownGraceTime: '5s',
    };
    workers.push(await Worker.create(family === 'gpu' ? base : { ...base, ...workflowSource }));
  }
  return { workers, connection, trainingPool };
}

import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import type { NativeConnection, Worker } from '@temporalio/worker';
import type { DestinationStream } from 'pino';
import type { DataSource } from 'typeorm';
import { startApi, RunningApi } from '../../api/server';
import type { ArtifactStore } from '../../platform/artifact-store';
import { createArtifactStore } from '../../platform/create-artifact-store';
import { Config, loadConfig } from '../../platform/config';
import { connectAndMigrate, createDataSource } from '../../platform/database';
import { createLogger } from '../../platform/logger';
import { createMailer } from '../../platform/mail';
import { TemporalGateway } from '../../platform/temporal-client';
import { createWorkers } from '../../workers/worker-factory';
import type { QueueFamily } from '../../workflows/job-input';
import { SmtpSink } from './smtp-sink';
import { stackFile, StackInfo } from './stack-file';

export interface TestStack {
  baseUrl: string;
  config: Config;
  ds: DataSource;
  store: ArtifactStore;
  mail: SmtpSink;
  info: StackInfo;
  databaseUrl: string;
  /** Environment for a worker started as a separate process against this stack. */
  workerEnv: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A whole service for one test file: its own database (migrated by the real migrations),
 * its own task-queue prefix on the shared Temporal dev server, its own artifact folder and
 * SMTP sink, the API on a free port, and in-process workers unless told otherwise.
 */
export async function startStack(
  opts: {
    env?: Record<string, string>;
    workers?: QueueFamily[];
    logTo?: DestinationStream;
    /** A PostgreSQL or Temporal of the test's own (one it kills) instead of the run's shared ones. */
    adminDatabaseUrl?: string;
    temporalAddress?: string;
  } = {},
): Promise<TestStack> {
  const shared = JSON.parse(fs.readFileSync(stackFile(), 'utf8')) as StackInfo;
  const info: StackInfo = { ...shared, adminDatabaseUrl: opts.adminDatabaseUrl ?? shared.adminDatabaseUrl, temporalAddress: opts.temporalAddress ?? shared.temporalAddress };
  const suffix = randomBytes(5).toString('hex');
  const dbName = `t_${suffix}`;
  const admin = new PgClient({ connectionString: info.adminDatabaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const u = new URL(info.adminDatabaseUrl);
  u.pathname = `/${dbName}`;
  const databaseUrl = u.toString();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlsvc-test-'));

  const mail = new SmtpSink();
  await mail.start();
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: info.temporalAddress,
    TASK_QUEUE_PREFIX: `t${suffix}-`,
    SMTP_URL: mail.url,
    APP_BASE_URL: 'http://app.test',
    RECONCILE_INTERVAL_SECS: '0',
    RATE_LIMIT_GENERAL: '100000',
    RATE_LIMIT_AUTH: '100000',
    // Tests' alert receivers listen on loopback, which the SSRF guard refuses by default.
    ALERT_ALLOW_PRIVATE_TARGETS: 'true',
    ...opts.env,
  };
  const config = loadConfig(env);
  // `logTo` lets a test read what the API logged (with LOG_LEVEL in `env`).
  const log = createLogger(config.logLevel, 'test', opts.logTo);
  const ds = createDataSource({ url: databaseUrl, poolSize: 5 });
  await connectAndMigrate(ds);
  const store = createArtifactStore(config, log);
  const temporal = new TemporalGateway(info.temporalAddress, config.temporal.namespace);
  const api: RunningApi = await startApi({ config, ds, temporal, mailer: createMailer(config.mail, log), store, log }, 0, '127.0.0.1');

  let workers: Worker[] = [];
  let connection: NativeConnection | undefined;
  let trainingPool: { close(): Promise<void> } | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const families = opts.workers ?? ['io', 'cpu'];
  if (families.length) {
    const wds = createDataSource({ url: databaseUrl, poolSize: 3 });
    await wds.initialize();
    const created = await createWorkers({ config, dataSource: wds, families, workflowBundlePath: info.workflowBundlePath });
    workers = created.workers;
    connection = created.connection;
    trainingPool = created.trainingPool;
    running = Promise.all(workers.map((w) => w.run())).finally(() => wds.destroy());
  }

  return {
    baseUrl: `http://127.0.0.1:${api.port}`,
    config,
    ds,
    store,
    mail,
    info,
    databaseUrl,
    workerEnv: { ...env, LOG_LEVEL: 'warn' },
    async stop() {
      workers.forEach((w) => w.shutdown());
      await running.catch(() => undefined);
      await trainingPool?.close();
      await connection?.close();
      await api.stop();
      await temporal.close();
      await ds.destroy();
      await mail.stop();
      const a = new PgClient({ connectionString: info.adminDatabaseUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await a.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A worker process for the given queue families against a stack, as `npm start` runs one. */
export function spawnWorkerProcess(stack: TestStack, families: QueueFamily[]): ChildProcess {
  return spawn(process.execPath, [path.join(__dirname, '..', '..', 'workers', 'run-workers.js'), ...families], {
    env: { ...process.env, ...stack.workerEnv },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

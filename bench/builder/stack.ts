/**
 * The service as `npm start` runs it, for the builder benchmark: `scripts/start.js` of the build (the API, which
 * spawns and supervises one worker process polling `io` and `ml-cpu`) against a database of its own and a Temporal
 * dev server. The database is a fresh one on DATABASE_URL's server when that is set, else an embedded PostgreSQL
 * (a process of its own either way, so its memory is not counted as the API's); Temporal is TEMPORAL_ADDRESS's or a
 * dev server started here.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { temporal as proto } from '@temporalio/proto';
import { loadConfig } from '../../platform/config';
import { startEmbeddedPostgres } from '../../platform/embedded-postgres';
import { createLogger } from '../../platform/logger';
import { TemporalGateway } from '../../platform/temporal-client';
import { ensureTemporalCli, freePort, startTemporalDevServer } from '../../platform/temporal-dev';
import { childPids } from './rss';

export interface ServiceStack {
  baseUrl: string;
  apiPid: number;
  workerPid: number;
  databaseUrl: string;
  stop(): Promise<void>;
}

/** A database of its own: on DATABASE_URL's server, or an embedded cluster under `dir`. */
async function ownDatabase(dir: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.DATABASE_URL;
  if (!admin) {
    const pg = await startEmbeddedPostgres({ dir: join(dir, 'pg'), port: 0, log: createLogger('warn', 'bench-pg') });
    return { url: pg.url, drop: () => pg.stop() };
  }
  const name = `bench_builder_${randomBytes(4).toString('hex')}`;
  const query = async (sql: string): Promise<void> => {
    const c = new PgClient({ connectionString: admin });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await query(`CREATE DATABASE ${name}`);
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function waitFor(what: string, ok: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Whether every named task queue has an activity poller. */
async function polled(gateway: TemporalGateway, queues: string[]): Promise<boolean> {
  const client = await gateway.get();
  for (const name of queues) {
    const d = await client.workflowService.describeTaskQueue({
      namespace: 'default',
      taskQueue: { name },
      taskQueueType: proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
    });
    if ((d.pollers?.length ?? 0) === 0) return false;
  }
  return true;
}

/** Starts the stack; resolves once the API answers /healthz and the worker polls its queues. */
export async function startServiceStack(dataDir: string, env: Record<string, string>): Promise<ServiceStack> {
  const db = await ownDatabase(dataDir);
  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  let stopTemporal = async (): Promise<void> => undefined;
  if (!temporalAddress) {
    await ensureTemporalCli((m) => console.log(`[temporal] ${m}`));
    const dev = await startTemporalDevServer({ port: await freePort(), uiPort: await freePort(), headless: true, log: () => undefined });
    temporalAddress = dev.address;
    stopTemporal = () => dev.stop();
  }
  const port = await freePort();
  const fullEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATABASE_URL: db.url,
    TEMPORAL_ADDRESS: temporalAddress,
    TASK_QUEUE_PREFIX: `bench${randomBytes(3).toString('hex')}-`,
    DATA_DIR: join(dataDir, 'data'),
    PORT: String(port),
    HOST: '127.0.0.1',
    START_WORKERS: 'io,cpu',
    LOG_LEVEL: 'warn',
    RECONCILE_INTERVAL_SECS: '0',
    ...env,
  };
  const api: ChildProcess = spawn(process.execPath, [join(__dirname, '..', '..', 'scripts', 'start.js')], { env: fullEnv, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<void>((r) => api.once('exit', () => r()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const gateway = new TemporalGateway(temporalAddress, 'default');
  try {
    await waitFor(
      'the API',
      async () => {
        if (api.exitCode !== null) throw new Error(`the API exited with ${api.exitCode}`);
        return (await fetch(`${baseUrl}/healthz`).catch(() => null))?.status === 200;
      },
      180_000,
    );
    const config = loadConfig(fullEnv);
    await waitFor('the worker to poll', () => polled(gateway, [config.taskQueues.io, config.taskQueues.cpu]), 180_000);
  } catch (err) {
    // Nothing of a half-started stack is left behind.
    if (api.exitCode === null) api.kill('SIGTERM');
    await exited;
    await stopTemporal();
    await db.drop();
    throw err;
  } finally {
    await gateway.close();
  }
  const workerPid = childPids(api.pid ?? 0).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('run-workers');
    } catch {
      return false;
    }
  });
  if (!workerPid) throw new Error('no worker process under the API');
  return {
    baseUrl,
    apiPid: api.pid ?? 0,
    workerPid,
    databaseUrl: db.url,
    async stop() {
      if (api.exitCode === null) api.kill('SIGTERM');
      await exited;
      await stopTemporal();
      await db.drop();
    },
  };
}

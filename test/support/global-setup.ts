import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { ensureTemporalCli, freePort, startTemporalDevServer } from '../../platform/temporal-dev';
import { startLocalPostgres } from './local-postgres';
import { newStackFile, StackInfo } from './stack-file';

/**
 * Starts what the integration tests need, once per run: PostgreSQL (DATABASE_URL, else a
 * throwaway local cluster), the Temporal dev server (TEMPORAL_ADDRESS, else a fresh one)
 * and the workflow bundle every in-test worker loads.
 */
export default async function globalSetup(): Promise<void> {
  const g = globalThis as Record<string, unknown>;
  let adminDatabaseUrl = process.env.DATABASE_URL;
  let startedPostgresDir: string | undefined;
  if (!adminDatabaseUrl) {
    const pg = startLocalPostgres(await freePort());
    adminDatabaseUrl = pg.url;
    startedPostgresDir = pg.dir;
  }
  const temporalCli = await ensureTemporalCli((m) => console.log(`[test setup] ${m}`));
  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  if (!temporalAddress) {
    const dev = await startTemporalDevServer({ port: await freePort(), uiPort: await freePort(), headless: true, log: () => undefined });
    temporalAddress = dev.address;
    g.__temporalDev = dev;
  }
  const bundle = await bundleWorkflowCode({
    workflowsPath: path.join(__dirname, '..', '..', 'workflows', 'index.js'),
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} } as never,
  });
  const workflowBundlePath = path.join(os.tmpdir(), `mlsvc-workflow-bundle-${process.pid}.js`);
  fs.writeFileSync(workflowBundlePath, bundle.code);
  const info: StackInfo = { adminDatabaseUrl, temporalAddress, workflowBundlePath, temporalCli, startedPostgresDir };
  fs.writeFileSync(newStackFile(), JSON.stringify(info));
}

import 'reflect-metadata';
import { loadConfig } from '../platform/config';
import { createDataSource } from '../platform/database';
import { createLogger } from '../platform/logger';
import type { QueueFamily } from '../workflows/job-input';
import { createWorkers } from './worker-factory';

/**
 * Process entry for workers: `node dist/workers/run-workers.js io cpu gpu`.
 * Needs DATABASE_URL and TEMPORAL_ADDRESS (npm start passes the local ones).
 */
export async function runWorkerProcess(families: QueueFamily[]): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel, `worker-${families.join('-')}`);
  if (!config.databaseUrl || !config.temporal.address) {
    throw new Error('workers need DATABASE_URL and TEMPORAL_ADDRESS');
  }
  const ds = createDataSource({ url: config.databaseUrl, poolSize: 2 });
  // The API process owns migrations; workers only connect.
  await ds.initialize();
  const { workers, connection, trainingPool } = await createWorkers({ config, dataSource: ds, families });
  log.info({ queues: families.map((f) => config.taskQueues[f]) }, 'workers polling');
  const stop = () => workers.forEach((w) => w.shutdown());
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await Promise.all(workers.map((w) => w.run()));
  await trainingPool.close();
  await connection.close();
  await ds.destroy();
}

if (require.main === module) {
  const valid: QueueFamily[] = ['io', 'cpu', 'gpu'];
  const families = process.argv.slice(2).filter((a): a is QueueFamily => (valid as string[]).includes(a));
  runWorkerProcess(families.length ? families : valid).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

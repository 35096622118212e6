import path from 'node:path';
import { loadConfig } from '../platform/config';
import { startTemporalDevServer } from '../platform/temporal-dev';

/** `npm run temporal`: only the local Temporal dev server, in the foreground. */
async function main(): Promise<void> {
  const config = loadConfig();
  const dev = await startTemporalDevServer({
    dbFile: path.join(config.dataDir, 'temporal', 'dev.sqlite'),
    port: config.temporal.devPort,
    uiPort: config.temporal.uiPort,
    namespace: config.temporal.namespace,
  });
  console.log(`Temporal at ${dev.address}, Web UI at ${dev.uiUrl}`);
  process.once('SIGINT', () => void dev.stop().then(() => process.exit(0)));
  process.once('SIGTERM', () => void dev.stop().then(() => process.exit(0)));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

import 'reflect-metadata';
import { loadConfig } from '../platform/config';
import { connectAndMigrate, createDataSource } from '../platform/database';

/** Applies pending migrations to DATABASE_URL. */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl) throw new Error('DATABASE_URL is required (npm start migrates the embedded database itself)');
  const ds = createDataSource({ url: config.databaseUrl, poolSize: 1 });
  const applied = await connectAndMigrate(ds);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'schema up to date');
  await ds.destroy();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ENTITIES, MIGRATIONS } from '../entities';

export interface DatabaseOptions {
  url: string;
  poolSize: number;
  /** Tests only: build the schema from entities instead of migrations. Never used by the service. */
  synchronize?: boolean;
}

/** One DataSource per process, with a pool of `poolSize` connections (DATABASE_POOL_SIZE). */
export function createDataSource(opts: DatabaseOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: opts.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: opts.synchronize ?? false,
    extra: { max: opts.poolSize },
    logging: false,
  });
}

/** Connects and applies pending migrations; returns the names applied. */
export async function connectAndMigrate(ds: DataSource): Promise<string[]> {
  if (!ds.isInitialized) await ds.initialize();
  const applied = await ds.runMigrations({ transaction: 'each' });
  return applied.map((m) => m.name);
}

/** True when a trivial query answers. */
export async function databaseReachable(ds: DataSource): Promise<boolean> {
  try {
    await ds.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { Logger } from './logger';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * PostgreSQL compiled to WebAssembly (PGlite), persisted under `dir` and served over the
 * wire protocol so TypeORM, workers and psql connect to it like to any server.
 */
export async function startEmbeddedPostgres(dir: string, port: number, log: Logger): Promise<EmbeddedPostgres> {
  fs.mkdirSync(dir, { recursive: true });
  log.info({ dir, port }, 'starting embedded PostgreSQL (PGlite)');
  const db = await PGlite.create(dir);
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 32 });
  await server.start();
  const actualPort = port === 0 ? Number((server as unknown as { port?: number }).port ?? port) : port;
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${actualPort}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

export function embeddedDbDir(dataDir: string): string {
  return path.join(dataDir, 'pg');
}

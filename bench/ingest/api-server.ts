/**
 * Child process of the ingest benchmark: the real API (`startApi`, the same server `npm start` runs) against the
 * database at DATABASE_URL (the benchmark starts the embedded PostgreSQL, a process of its own, so the database's memory
 * is not counted as the API's) and a Temporal address nothing listens on (uploads never touch Temporal).
 * It registers one verified user, then tells the parent over IPC where to connect; on `{cmd: 'rss'}` it answers
 * with its peak resident set size (covering the multipart receive, the temp file, DuckDB and the artifact store)
 * and its CPU time so far.
 * Configuration comes from the environment the parent sets (DATA_DIR, MAX_DATASET_UPLOAD_BYTES, ...).
 */
import { startApi } from '../../api/server';
import { createArtifactStore } from '../../platform/create-artifact-store';
import { loadConfig } from '../../platform/config';
import { connectAndMigrate, createDataSource } from '../../platform/database';
import { createLogger } from '../../platform/logger';
import { createMailer } from '../../platform/mail';
import { TemporalGateway } from '../../platform/temporal-client';

/** Messages between the benchmark and this process. */
export type ToServer = { cmd: 'rss' } | { cmd: 'stop' };
export type FromServer =
  { kind: 'ready'; port: number; email: string; password: string } | { kind: 'rss'; maxRssBytes: number; rssBytes: number; cpuSeconds: number } | { kind: 'error'; message: string };

const EMAIL = 'bench@example.com';
const PASSWORD = 'a long benchmark password';

function send(msg: FromServer): void {
  process.send?.(msg);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel, 'bench-api');
  if (!config.databaseUrl) throw new Error('DATABASE_URL is required');
  const ds = createDataSource({ url: config.databaseUrl, poolSize: config.databasePoolSize });
  await connectAndMigrate(ds);
  // Unused: a closed port, so an accidental Temporal call fails fast instead of hanging.
  const temporal = new TemporalGateway('127.0.0.1:1', config.temporal.namespace);
  const deps = { config, ds, temporal, mailer: createMailer(config.mail, log), store: createArtifactStore(config, log), log };
  const api = await startApi(deps, 0, '127.0.0.1');

  // Registration goes through the API; only the emailed verification link is replaced by a direct update.
  const res = await fetch(`http://127.0.0.1:${api.port}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, name: 'Bench', password: PASSWORD }),
  });
  if (res.status >= 300) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  await ds.query('UPDATE users SET email_verified_at = now() WHERE email = $1', [EMAIL]);

  process.on('message', (raw: ToServer) => {
    if (raw.cmd === 'rss') {
      // maxRSS is in KiB (getrusage), the kernel's own high-water mark: no sampling gaps.
      // CPU time (all threads, DuckDB's included) is steadier than wall time on a shared machine.
      const cpu = process.cpuUsage();
      send({ kind: 'rss', maxRssBytes: process.resourceUsage().maxRSS * 1024, rssBytes: process.memoryUsage().rss, cpuSeconds: (cpu.user + cpu.system) / 1e6 });
    } else if (raw.cmd === 'stop') {
      void (async () => {
        await api.stop();
        await ds.destroy();
        process.exit(0);
      })();
    }
  });
  send({ kind: 'ready', port: api.port, email: EMAIL, password: PASSWORD });
}

main().catch((err: unknown) => {
  send({ kind: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});

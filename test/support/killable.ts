import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processAlive } from '../../platform/scratch';
import { DevServer, freePort, startTemporalDevServer } from '../../platform/temporal-dev';
import { eventually } from './client';
import { startLocalPostgres, startPostgresServer, stopLocalPostgres } from './local-postgres';
import { childrenOf } from './processes';

/**
 * Servers of a test's own, which it kills with SIGKILL (no shutdown, no flush: what a crash or the OOM killer does)
 * and starts again on the same data and port, so the service sees the same address go away and come back.
 */

/** SIGKILLs a child process and resolves once it is gone. */
export function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

export interface OwnTemporal {
  address: string;
  /** SIGKILL, then resolves once the process is gone. */
  kill(): Promise<void>;
  /** Starts the server again on the same port (and SQLite file, if it has one); resolves once it accepts connections. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A Temporal dev server on a free port; with `persistent`, its state in a SQLite file that outlives a kill. */
export async function startOwnTemporal(opts: { persistent: boolean }): Promise<OwnTemporal> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlsvc-temporal-'));
  const port = await freePort();
  const start = () => startTemporalDevServer({ port, uiPort: 0, headless: true, dbFile: opts.persistent ? path.join(dir, 'temporal.sqlite') : undefined, log: () => undefined });
  let server: DevServer = await start();
  return {
    address: server.address,
    kill: () => killHard(server.process),
    restart: async () => {
      server = await start();
    },
    stop: async () => {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface OwnPostgres {
  /** The admin URL (database `postgres`). */
  url: string;
  /** SIGKILL to the postmaster and every backend, then resolves once all are gone. */
  kill(): Promise<void>;
  /** Starts the server again on the same data folder and port (crash recovery included). */
  restart(): void;
  stop(): void;
}

/** A PostgreSQL cluster in a temporary folder on a free port, as the global setup starts one. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const port = await freePort();
  const { url, dir } = startLocalPostgres(port);
  return {
    url,
    kill: async () => {
      const pid = Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      // Stopped first, so it forks no backend while they are listed; killed with them all, as a crash takes them.
      process.kill(pid, 'SIGSTOP');
      const all = [...childrenOf(pid), pid];
      for (const p of all) {
        try {
          process.kill(p, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
      await eventually(async () => all.every((p) => !processAlive(p)), 30_000, 50);
    },
    restart: () => startPostgresServer(dir, port),
    stop: () => stopLocalPostgres(dir),
  };
}

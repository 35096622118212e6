import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../platform/temporal-dev';
import { eventually } from './client';

/** `npm start`'s own entry (dist/scripts/start.js) as a child, with everything it printed kept for the log checks. */
export interface NpmStart {
  child: ChildProcess;
  baseUrl: string;
  lines: string[];
  exited: Promise<number | null>;
}

/** A DATA_DIR in the temporary folder that the embedded database's own OS user can reach when the tests run as root. */
export function reachableDataDir(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `mlsvc-${tag}-`));
  fs.chmodSync(dir, 0o755);
  return dir;
}

/**
 * Starts the service as a user runs it, on the embedded database (DATABASE_URL is removed from the environment);
 * resolves once /healthz answers 200, rejects with its last lines if it exits first.
 */
export async function startNpmStart(env: Record<string, string | undefined>, timeoutMs = 120_000): Promise<NpmStart> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), EMBEDDED_DB_PORT: '0', ...env };
  delete childEnv.DATABASE_URL;
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  const s = spawnNpmStart(childEnv);
  const baseUrl = `http://127.0.0.1:${port}`;
  await eventually(
    async () => {
      if (s.child.exitCode !== null) throw new Error(`npm start exited ${s.child.exitCode}:\n${s.lines.slice(-20).join('\n')}`);
      return (await fetch(`${baseUrl}/healthz`).catch(() => undefined))?.status === 200;
    },
    timeoutMs,
    250,
  );
  return { ...s, baseUrl };
}

/** The child alone, for a start that is expected to fail. */
export function spawnNpmStart(env: NodeJS.ProcessEnv): Omit<NpmStart, 'baseUrl'> {
  const child = spawn(process.execPath, [path.join(__dirname, '..', '..', 'scripts', 'start.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      lines.push(...parts.filter((l) => l.trim()));
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, exited };
}

export async function stopNpmStart(s: NpmStart, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (s.child.exitCode === null) s.child.kill(signal);
  return s.exited;
}

/** Log lines of every process of the service (API, workers, the database server) that speak of a database fault or are errors. */
export function faultLines(lines: string[]): string[] {
  const dbFault = /QueryFailedError|invalid input syntax|portal .* cannot be run|prepared statement|could not serialize|deadlock|ECONNREFUSED|too many clients|"postgres":"(ERROR|FATAL|PANIC)"/;
  return lines.filter((l) => {
    if (dbFault.test(l)) return true;
    try {
      return (JSON.parse(l) as { level?: number }).level! >= 50;
    } catch {
      return false;
    }
  });
}

/** The pid of the first JSON log line whose `name` matches. */
export function pidOfLogger(lines: string[], name: RegExp): number | undefined {
  for (const l of lines) {
    try {
      const e = JSON.parse(l) as { name?: string; pid?: number };
      if (e.name && name.test(e.name) && e.pid) return e.pid;
    } catch {
      /* not JSON */
    }
  }
  return undefined;
}

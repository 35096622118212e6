import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const version = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a))[0] : undefined;
  if (!version) throw new Error('No DATABASE_URL and no PostgreSQL binaries under /usr/lib/postgresql: install postgresql or set DATABASE_URL');
  return path.join(root, version, 'bin');
}

/** Runs a PostgreSQL program; as root, as the `postgres` user (the server refuses root). */
function run(cmd: string, args: string[]): void {
  const bin = path.join(binDir(), cmd);
  const asRoot = process.getuid?.() === 0;
  const r = spawnSync(asRoot ? 'runuser' : bin, asRoot ? ['-u', 'postgres', '--', bin, ...args] : args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
}

/**
 * Starts a throwaway PostgreSQL cluster from Debian's binaries when the suite is given no
 * DATABASE_URL. As root, the server runs as the `postgres` user (it refuses root).
 */
export function startLocalPostgres(port: number, opts: { durable?: boolean } = {}): { url: string; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlsvc-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const pwfile = path.join(dir, '..', `${path.basename(dir)}.pw`);
  fs.writeFileSync(pwfile, 'postgres\n');
  if (asRoot) execFileSync('chown', ['postgres:postgres', pwfile]);
  run('initdb', ['-D', dir, '-U', 'postgres', '--auth=md5', `--pwfile=${pwfile}`, '-E', 'UTF8']);
  fs.rmSync(pwfile, { force: true });
  startPostgresServer(dir, port, opts);
  return { url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`, dir };
}

/**
 * Starts (or, after a crash, restarts: PostgreSQL recovers from its WAL) the server of the cluster in `dir`; returns once it
 * accepts connections. Tests run without fsync; `durable` keeps it on (benchmarks that compare with the embedded server).
 */
export function startPostgresServer(dir: string, port: number, opts: { durable?: boolean } = {}): void {
  const fsync = opts.durable ? '' : ' -c fsync=off';
  run('pg_ctl', ['-D', dir, '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${fsync} -c max_connections=200`, '-w', '-t', '120', 'start', '-l', path.join(dir, 'log')]);
}

export function stopLocalPostgres(dir: string): void {
  const ctl = path.join(binDir(), 'pg_ctl');
  const asRoot = process.getuid?.() === 0;
  spawnSync(asRoot ? 'runuser' : ctl, asRoot ? ['-u', 'postgres', '--', ctl, '-D', dir, '-m', 'fast', 'stop'] : ['-D', dir, '-m', 'fast', 'stop']);
  fs.rmSync(dir, { recursive: true, force: true });
}

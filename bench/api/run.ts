/**
 * Benchmark (not a test): the API's own cost per request on its two databases, in one run. A cheap
 * authenticated read (`GET /api/projects`, session cookie) and a write (`POST /api/projects`, cookie and
 * CSRF header) at 1, 16 and 64 requests in flight, against:
 *   - the embedded default (`npm start` with no DATABASE_URL: the PostgreSQL 18 server from npm, under DATA_DIR/pg),
 *   - Debian's PostgreSQL (the binaries under /usr/lib/postgresql, a throwaway cluster),
 * each with fsync on, as a user runs them; and a hello-world Koa route in its own process as the floor.
 * The API runs in a child process per database (bench/ingest/api-server.ts: `startApi`, the server `npm start`
 * runs), the load from the Go load process (bench/predict/loadgen). Each level is run for every target in turn.
 *
 *   npm run build && node dist/bench/api/run.js [seconds=8]   # → bench/results/api.json
 *
 * Targets: the embedded default within 1.25x of Debian's PostgreSQL; at least 1,000 authenticated reads a
 * second at 16 in flight on 2 cores.
 */
import { ChildProcess, fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../platform/embedded-postgres';
import { createLogger } from '../../platform/logger';
import { freePort } from '../../platform/temporal-dev';
import { startLocalPostgres, stopLocalPostgres } from '../../test/support/local-postgres';
import type { FromServer } from '../ingest/api-server';
import { login } from '../ingest/http-client';
import { buildLoadgen, killGroup, LoadResult, runLevels, Target, whenReady, writeResults } from '../support/serving';

const LEVELS = [1, 16, 64];
const TARGET_RATIO = 1.25;
const TARGET_READS_16 = 1000;

async function startApi(databaseUrl: string, dataDir: string): Promise<{ base: string; child: ChildProcess }> {
  const child = fork(path.join(__dirname, '..', 'ingest', 'api-server.js'), [], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', RECONCILE_INTERVAL_SECS: '0', RATE_LIMIT_GENERAL: '1000000000', MAX_PROJECTS_PER_USER: '0' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const m = await new Promise<FromServer>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`API process exited with ${code}`)));
  });
  if (m.kind !== 'ready') throw new Error(`API process failed: ${m.kind === 'error' ? m.message : m.kind}`);
  return { base: `http://127.0.0.1:${m.port}`, child };
}

/** The user's session and the read and write targets of one API. */
async function targetsOf(label: string, base: string): Promise<{ read: Target; write: Target }> {
  const s = await login(base, 'bench@example.com', 'a long benchmark password');
  // A user with a few projects: the list has rows to read.
  for (let i = 0; i < 5; i++) {
    const r = await fetch(`${base}/api/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: s.cookie, 'x-csrf-token': s.csrf },
      body: JSON.stringify({ name: `seed ${i}` }),
    });
    if (r.status !== 201) throw new Error(`seed project: ${r.status}`);
  }
  return {
    read: { label: `${label} GET`, method: 'GET', url: `${base}/api/projects`, body: null, headers: { cookie: s.cookie } },
    write: { label: `${label} POST`, method: 'POST', url: `${base}/api/projects`, body: { name: 'bench project' }, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf } },
  };
}

async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const c = new Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

function at(rs: LoadResult[], level: number): LoadResult {
  return rs.find((r) => r.mode === 'closed' && r.level === level)!;
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 8);
  await buildLoadgen();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-api-'));
  fs.chmodSync(work, 0o755); // as root, the embedded server's own OS user must reach its folder
  const children: ChildProcess[] = [];
  const stops: (() => Promise<void> | void)[] = [];
  try {
    const embedded = await startEmbeddedPostgres({ dir: path.join(work, 'pg'), port: 0, log: createLogger('warn', 'bench-pg') });
    stops.push(embedded.stop);
    const debian = startLocalPostgres(await freePort(), { durable: true });
    stops.push(() => stopLocalPostgres(debian.dir));
    const embeddedApi = await startApi(await createDatabase(embedded.url, 'bench'), path.join(work, 'data-embedded'));
    children.push(embeddedApi.child);
    const debianApi = await startApi(await createDatabase(debian.url, 'bench'), path.join(work, 'data-debian'));
    children.push(debianApi.child);
    const floorPort = await freePort();
    const floor = spawn(process.execPath, [path.join(__dirname, '..', 'serve', 'floor.js'), String(floorPort)], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    await whenReady(floor, 'floor');
    stops.push(() => killGroup(floor));

    const e = await targetsOf('embedded', embeddedApi.base);
    const d = await targetsOf('debian', debianApi.base);
    const floorTarget: Target = { label: 'koa floor', method: 'GET', url: `http://127.0.0.1:${floorPort}/hello`, body: null, headers: {} };
    // Reads first (the write levels add thousands of projects, which a list would then count).
    const [floorRun, eRead, dRead] = await runLevels([floorTarget, e.read, d.read], seconds, LEVELS, []);
    const [eWrite, dWrite] = await runLevels([e.write, d.write], seconds, LEVELS, []);

    const rows = LEVELS.flatMap((level) =>
      (
        [
          ['GET /api/projects', eRead.levels, dRead.levels],
          ['POST /api/projects', eWrite.levels, dWrite.levels],
        ] as const
      ).map(([op, emb, deb]) => {
        const a = at(emb, level);
        const b = at(deb, level);
        return {
          op,
          level,
          embedded_rps: a.rps,
          debian_rps: b.rps,
          ratio: b.rps / a.rps,
          embedded_p99_ms: a.p99_ms,
          debian_p99_ms: b.p99_ms,
          errors: a.errors + b.errors,
          floor_rps: at(floorRun.levels, level).rps,
        };
      }),
    );
    console.log('\nop                   in flight  embedded req/s (p99)   debian req/s (p99)   debian/embedded  koa floor req/s');
    for (const r of rows) {
      console.log(
        `${r.op.padEnd(20)} ${String(r.level).padStart(9)}  ${r.embedded_rps.toFixed(0).padStart(8)} (${r.embedded_p99_ms.toFixed(1)} ms)  ${r.debian_rps.toFixed(0).padStart(8)} (${r.debian_p99_ms.toFixed(1)} ms)  ${r.ratio.toFixed(2).padStart(14)}  ${r.floor_rps.toFixed(0).padStart(8)}`,
      );
    }
    const worst = Math.max(...rows.map((r) => r.ratio));
    const reads16 = at(eRead.levels, 16).rps;
    console.log(
      `\nembedded within ${TARGET_RATIO}x of Debian's PostgreSQL: ${worst <= TARGET_RATIO ? 'yes' : 'no'} (worst debian/embedded throughput ratio ${worst.toFixed(2)}; above 1 the embedded is slower)`,
    );
    console.log(`authenticated reads at 16 in flight on the embedded default: ${reads16.toFixed(0)}/s (target ${TARGET_READS_16}): ${reads16 >= TARGET_READS_16 ? 'met' : 'not met'}`);
    writeResults('api', { seconds, cores: os.cpus().length, rows, floor: floorRun.levels, embedded: { read: eRead, write: eWrite }, debian: { read: dRead, write: dWrite } });
  } finally {
    for (const c of children) c.kill('SIGTERM');
    for (const stop of stops.reverse()) await stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { processAlive } from '../platform/scratch';
import { freePort } from '../platform/temporal-dev';
import { eventually } from './support/client';
import { NpmStart, pidOfLogger, reachableDataDir, spawnNpmStart, startNpmStart, stopNpmStart } from './support/npm-start';

/**
 * `npm start` killed with `kill -9` (no chance to stop its children), on all its embedded defaults: its own Temporal dev
 * server and PostgreSQL. Its worker process notices that its parent is gone and exits; the next start stops the dev
 * server and the database server the dead one left and starts its own, so one start never runs beside another's
 * leftovers. A port held by a foreign process is an error that says so.
 */
let dataDir: string;
let ports: { TEMPORAL_DEV_PORT: string; TEMPORAL_UI_PORT: string };
let service: NpmStart | undefined;

function start(): Promise<NpmStart> {
  return startNpmStart({ DATA_DIR: dataDir, LOG_LEVEL: 'info', START_WORKERS: 'io', TEMPORAL_ADDRESS: undefined, ...ports }, 180_000);
}

beforeAll(async () => {
  dataDir = reachableDataDir('orphans');
  ports = { TEMPORAL_DEV_PORT: String(await freePort()), TEMPORAL_UI_PORT: String(await freePort()) };
});

afterAll(async () => {
  if (service) await stopNpmStart(service);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('after kill -9, the worker process exits by itself and the next start replaces the dev server and database it left', async () => {
  const first = await start();
  const temporalPid = Number(fs.readFileSync(path.join(dataDir, 'temporal', 'dev-server.pid'), 'utf8'));
  const postgresPid = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const workerPid = await eventually(async () => pidOfLogger(first.lines, /^worker-/), 60_000);
  for (const pid of [temporalPid, postgresPid, workerPid]) expect(processAlive(pid)).toBe(true);

  await stopNpmStart(first, 'SIGKILL');
  await eventually(async () => !processAlive(workerPid), 60_000, 200);
  // Nothing tells the database server that its parent died: it runs on until the next start. The dev server may
  // run on too (it dies only if it writes to its closed stderr pipe).
  expect(processAlive(postgresPid)).toBe(true);
  const temporalOrphaned = processAlive(temporalPid);

  service = await start();
  expect(processAlive(temporalPid)).toBe(false);
  expect(processAlive(postgresPid)).toBe(false);
  expect(Number(fs.readFileSync(path.join(dataDir, 'temporal', 'dev-server.pid'), 'utf8'))).not.toBe(temporalPid);
  const said = service.lines.join('\n');
  if (temporalOrphaned) expect(said).toContain('an earlier start left its Temporal dev server running');
  expect(said).toContain('an earlier start left its embedded PostgreSQL running');
  expect((await fetch(`${service.baseUrl}/healthz`)).status).toBe(200);

  expect(await stopNpmStart(service)).toBe(0);
  service = undefined;
  expect(fs.existsSync(path.join(dataDir, 'temporal', 'dev-server.pid'))).toBe(false);
}, 400_000);

it("a second start on the same DATA_DIR while the first runs refuses, and leaves the first one's services alone", async () => {
  const first = await start();
  try {
    const postgresPid = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(await freePort()), EMBEDDED_DB_PORT: '0', START_WORKERS: 'none', ...ports };
    delete env.DATABASE_URL;
    delete env.TEMPORAL_ADDRESS;
    const second = spawnNpmStart(env);
    expect(await second.exited).not.toBe(0);
    expect(second.lines.join('\n')).toMatch(/another start \(pid \d+\) is running with this DATA_DIR/);
    expect(processAlive(postgresPid)).toBe(true);
    expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200);
  } finally {
    expect(await stopNpmStart(first)).toBe(0);
  }
}, 300_000);

it('a start that finds a foreign process on the Temporal port says so and stops', async () => {
  const foreign = net.createServer((s) => s.destroy());
  const port = await freePort();
  await new Promise<void>((r) => foreign.listen(port, '127.0.0.1', r));
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      EMBEDDED_DB_PORT: '0',
      TEMPORAL_DEV_PORT: String(port),
      TEMPORAL_UI_PORT: ports.TEMPORAL_UI_PORT,
    };
    delete env.DATABASE_URL;
    delete env.TEMPORAL_ADDRESS;
    const s = spawnNpmStart(env);
    expect(await s.exited).not.toBe(0);
    expect(s.lines.join('\n')).toContain(`port ${port} is in use by another process`);
  } finally {
    foreign.close();
  }
}, 180_000);

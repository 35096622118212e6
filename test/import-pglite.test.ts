import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { MIGRATIONS } from '../entities';
import { EmbeddedPostgresError, startEmbeddedPostgres } from '../platform/embedded-postgres';
import { createLogger } from '../platform/logger';

/**
 * A data folder of the earlier embedded engine (PGlite): `npm start` refuses it with what to do, and
 * `npm run db:import-pglite` moves every row into the new server's cluster, brings the schema up to date,
 * keeps the old folder aside, and leaves serial columns counting on after the copied ids.
 */
const log = createLogger('silent', 'test');
let dataDir: string;
const userId = randomUUID();
const projectId = randomUUID();

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlsvc-pglite-'));
  fs.chmodSync(dataDir, 0o755);
  await promisify(execFile)(process.execPath, [path.join(__dirname, 'support', 'make-pglite-cluster.js'), path.join(dataDir, 'pg'), userId, projectId, '1203']);
}, 120_000);

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

it('npm start refuses the old folder and says what to do', async () => {
  await expect(startEmbeddedPostgres({ dir: path.join(dataDir, 'pg'), port: 0, log })).rejects.toThrow(EmbeddedPostgresError);
  await expect(startEmbeddedPostgres({ dir: path.join(dataDir, 'pg'), port: 0, log })).rejects.toThrow(/earlier embedded engine \(PGlite\).*npm run db:import-pglite/);
});

it('imports every row into the new server and keeps the old folder', async () => {
  const script = path.join(__dirname, '..', 'scripts', 'import-pglite.js');
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const { stdout } = await promisify(execFile)(process.execPath, [script], { env });
  expect(stdout).toContain('experiment_logs: 1203 rows');
  expect(stdout).toContain(`migrations applied after the copy: ${MIGRATIONS[MIGRATIONS.length - 1].name}`);
  expect(fs.existsSync(path.join(dataDir, 'pg-pglite', 'PG_VERSION'))).toBe(true);

  const pg = await startEmbeddedPostgres({ dir: path.join(dataDir, 'pg'), port: 0, log });
  const c = new Client({ connectionString: pg.url });
  await c.connect();
  try {
    expect((await c.query('SELECT email, name FROM users WHERE id = $1', [userId])).rows).toEqual([{ email: 'łukasz@example.test', name: 'Łukasz Wróbel' }]);
    expect((await c.query('SELECT description FROM projects WHERE id = $1', [projectId])).rows[0].description).toBe('it\'s "quoted"\nand multi-line');
    expect((await c.query('SELECT scopes FROM api_keys')).rows[0].scopes).toEqual(['read:projects', 'write:datasets']);
    expect((await c.query('SELECT name FROM migrations ORDER BY id')).rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
    await c.query('SET session_replication_role = replica');
    const next = await c.query(`INSERT INTO experiment_logs (experiment_id, source, level, message) VALUES ($1, 'test', 'info', 'after') RETURNING id`, [randomUUID()]);
    expect(Number(next.rows[0].id)).toBe(1204);
  } finally {
    await c.end();
    await pg.stop();
  }
  // A second run finds nothing to import.
  const { stdout: again } = await promisify(execFile)(process.execPath, [script], { env });
  expect(again).toContain('nothing to import');
}, 180_000);

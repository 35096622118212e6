/**
 * Writes a data folder of the earlier embedded engine (PGlite) for test/import-pglite.test.ts, in its own process
 * (PGlite loads its WebAssembly with a dynamic import, which Jest's VM does not allow):
 *
 *   node dist/test/support/make-pglite-cluster.js DIR USER_ID PROJECT_ID LOG_ROWS
 *
 * The schema is one migration behind the current one, so the import must apply the rest after the copy.
 */
import { PGlite } from '@electric-sql/pglite';
import type { QueryRunner } from 'typeorm';
import { MIGRATIONS } from '../../entities';

async function main(): Promise<void> {
  const [dir, userId, projectId, logRows] = process.argv.slice(2);
  const old = await PGlite.create(dir);
  const applied = MIGRATIONS.slice(0, -1);
  const runner = { query: (sql: string, params?: unknown[]) => (params?.length ? old.query(sql, params) : old.exec(sql)) } as unknown as QueryRunner;
  for (const M of applied) await new M().up(runner);
  await old.exec(`CREATE TABLE migrations (id SERIAL PRIMARY KEY, "timestamp" bigint NOT NULL, name varchar NOT NULL)`);
  for (const M of applied) await old.query('INSERT INTO migrations ("timestamp", name) VALUES ($1, $2)', [Number(M.name.slice(-13)), M.name]);
  await old.query(`INSERT INTO users (id, email, name, password_hash) VALUES ($1, 'łukasz@example.test', 'Łukasz Wróbel', 'x')`, [userId]);
  await old.query(`INSERT INTO projects (id, name, owner_id, description) VALUES ($1, 'Old project', $2, $3)`, [projectId, userId, 'it\'s "quoted"\nand multi-line']);
  await old.query(`INSERT INTO project_members (project_id, user_id, role) VALUES ($1, $2, 'owner')`, [projectId, userId]);
  await old.query(`INSERT INTO api_keys (id, user_id, name, prefix, secret_hash, scopes) VALUES (gen_random_uuid(), $1, 'k', 'pfx', 'h', '["read:projects", "write:datasets"]')`, [userId]);
  // More rows than one copy batch, in a table with a serial id (its foreign key is not the point here).
  await old.exec('SET session_replication_role = replica');
  for (let i = 0; i < Number(logRows); i++) await old.query(`INSERT INTO experiment_logs (experiment_id, source, level, message) VALUES (gen_random_uuid(), 'test', 'info', $1)`, [`line ${i}`]);
  await old.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

import 'reflect-metadata';
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import { MIGRATIONS } from '../entities';
import { loadConfig } from '../platform/config';
import { connectAndMigrate, createDataSource } from '../platform/database';
import { embeddedDbDir, isLegacyPgliteCluster, startEmbeddedPostgres } from '../platform/embedded-postgres';
import { createLogger } from '../platform/logger';

/** Rows per INSERT while copying. */
const BATCH = 500;

/**
 * `npm run db:import-pglite`: the one-shot move from the earlier embedded engine (PGlite, whose
 * cluster under DATA_DIR/pg is 32-bit WebAssembly PostgreSQL that the native server cannot read).
 * The new cluster is built beside it (DATA_DIR/pg.import), brought to the old schema's migration,
 * filled table by table, then migrated to the current schema; only then is the old folder moved
 * aside (DATA_DIR/pg-pglite, kept) and the new one put in its place. A failure leaves the old folder
 * as it was. PGlite is opened in this process alone: one connection, the only way it is safe.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel, 'import-pglite');
  const dir = embeddedDbDir(config.dataDir);
  if (!isLegacyPgliteCluster(dir)) {
    console.log(`${dir} holds no database of the earlier embedded engine: nothing to import.`);
    return;
  }
  const keptDir = `${dir}-pglite`;
  if (fs.existsSync(keptDir)) throw new Error(`${keptDir} exists already: move it away first (an earlier import kept the old database there).`);
  const stagingDir = `${dir}.import`;
  fs.rmSync(stagingDir, { recursive: true, force: true });

  const old = await PGlite.create(dir);
  const target = await startEmbeddedPostgres({ dir: stagingDir, port: 0, osUser: config.embeddedDbOsUser, log });
  try {
    const applied = new Set((await old.query<{ name: string }>('SELECT name FROM migrations')).rows.map((r) => r.name));
    const atOldSchema = MIGRATIONS.filter((m) => applied.has(m.name));
    const early = createDataSource({ url: target.url, poolSize: 1 });
    early.setOptions({ migrations: atOldSchema });
    await connectAndMigrate(early);
    await early.destroy();

    const client = new Client({ connectionString: target.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      // Foreign keys and triggers off for the copy: tables are filled in any order.
      await client.query('SET LOCAL session_replication_role = replica');
      const tables = (await old.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations' ORDER BY tablename`)).rows;
      for (const { tablename } of tables) {
        const copied = await copyTable(old, client, tablename);
        console.log(`${tablename}: ${copied} rows`);
      }
      await resetSequences(client);
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
    const current = createDataSource({ url: target.url, poolSize: 1 });
    const later = await connectAndMigrate(current);
    await current.destroy();
    if (later.length) console.log(`migrations applied after the copy: ${later.join(', ')}`);
  } catch (err) {
    await target.stop();
    await old.close();
    fs.rmSync(stagingDir, { recursive: true, force: true });
    throw err;
  }
  await target.stop();
  await old.close();
  fs.renameSync(dir, keptDir);
  fs.renameSync(stagingDir, dir);
  console.log(`Imported. The new server's cluster is ${dir}; the old database is kept in ${keptDir} (delete it when you no longer need it).`);
}

/** Copies a table in ctid order, BATCH rows at a time; each row crosses as JSON and is rebuilt by the new server's own input functions. */
async function copyTable(old: PGlite, client: Client, table: string): Promise<number> {
  const quoted = `"${table.replace(/"/g, '""')}"`;
  let after = '(0,0)';
  let total = 0;
  for (;;) {
    const { rows } = await old.query<{ tid: string; row: unknown }>(`SELECT ctid::text AS tid, to_jsonb(t) AS row FROM ${quoted} t WHERE ctid > $1::tid ORDER BY ctid LIMIT ${BATCH}`, [after]);
    if (!rows.length) return total;
    await client.query(`INSERT INTO ${quoted} SELECT * FROM jsonb_populate_recordset(NULL::${quoted}, $1::jsonb)`, [JSON.stringify(rows.map((r) => r.row))]);
    total += rows.length;
    after = rows[rows.length - 1].tid;
  }
}

/** Serial columns continue after the copied ids. */
async function resetSequences(client: Client): Promise<void> {
  const { rows } = await client.query<{ tbl: string; col: string }>(
    `SELECT t.relname AS tbl, a.attname AS col
       FROM pg_class s JOIN pg_depend d ON d.objid = s.oid AND d.deptype = 'a'
       JOIN pg_class t ON t.oid = d.refobjid JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
      WHERE s.relkind = 'S'`,
  );
  for (const { tbl, col } of rows) {
    const t = `"${tbl.replace(/"/g, '""')}"`;
    const c = `"${col.replace(/"/g, '""')}"`;
    await client.query(`SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(max(${c}), 1), max(${c}) IS NOT NULL) FROM ${t}`, [t, col]);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

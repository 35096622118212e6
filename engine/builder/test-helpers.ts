/**
 * Shared helpers for the builder's tests (not a test file itself): small tables written to Parquet with DuckDB, and
 * reading a result back.
 */
import { join } from 'node:path';
import { parquetSource, queryRows, toJsonSafe, withConnection } from '../data/duck';
import { JsonRow } from '../data/export';
import { sqlString } from '../data/duck';
import { tempDir } from '../data/test-helpers';

export { tempDir };

/** Writes the rows of the DuckDB query `select` to `dir/name.parquet` (a plain file, not ingest's canonical form). */
export async function parquetOf(dir: string, name: string, select: string): Promise<string> {
  const path = join(dir, `${name}.parquet`);
  await withConnection((conn) => conn.run(`COPY (${select}) TO ${sqlString(path)} (FORMAT parquet)`));
  return path;
}

/** Every row of a Parquet file in file order, JSON-safe. */
export async function readRows(path: string): Promise<JsonRow[]> {
  return withConnection(async (conn) => (await queryRows(conn, `SELECT * FROM ${parquetSource(path)}`)).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, toJsonSafe(v)]))));
}

/** One column of a Parquet file, in file order. */
export async function column(path: string, name: string): Promise<unknown[]> {
  return (await readRows(path)).map((r) => r[name]);
}

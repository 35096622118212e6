/**
 * Exact count of duplicate rows (pandas `duplicated().sum()`: rows equal to an earlier row, NULLs equal), shared by
 * `analyze` and the quality report.
 */
import { DuckDBConnection } from '@duckdb/node-api';
import { queryOne } from './duck';

const HASHES = 'dup_hashes';

/**
 * Rows of `source` equal to an earlier row on the SQL expressions `columns`, without hashing whole rows into one
 * big table: rows are grouped by a 64-bit hash of all columns (8 bytes per row instead of the row, whatever the
 * table's width), and only rows whose hash occurs more than once are compared in full. Equal rows always share a
 * hash, so rows outside those groups are all distinct.
 */
export async function duplicateRowCount(conn: DuckDBConnection, source: string, columns: readonly string[]): Promise<number> {
  if (columns.length === 0) return 0;
  const h = `hash(${columns.join(', ')})`;
  await conn.run(`CREATE OR REPLACE TEMP TABLE ${HASHES} AS SELECT h, count(*) AS c FROM (SELECT ${h} AS h FROM ${source}) GROUP BY h HAVING count(*) > 1`);
  try {
    const cand = await queryOne(conn, `SELECT count(*) AS k, coalesce(sum(c), 0) AS rows FROM ${HASHES}`);
    if (Number(cand.k) === 0) return 0;
    const distinct = await queryOne(
      conn,
      `SELECT count(*) AS n FROM (SELECT DISTINCT ${columns.join(', ')} FROM ${source} WHERE ${h} IN (SELECT h FROM ${HASHES}))`,
    );
    return Number(cand.rows) - Number(distinct.n);
  } finally {
    await conn.run(`DROP TABLE IF EXISTS ${HASHES}`);
  }
}

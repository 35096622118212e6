/**
 * The builder benchmark's messy CSV (~106 bytes a row: 9.5M rows ≈ 1.0 GB), written by DuckDB (seconds, where a JS
 * writer takes minutes) and cached by path and row count so repeated runs reuse it.
 *
 * What makes it messy, so each of the recipe's operations has work to do (recipe.ts):
 * - `signup` is a date stored as text, day first (`31/12/2021`), with 1% ISO dates, 1% empty and 1% `n/a`: the mix
 *   keeps DuckDB's sniffer from reading it as a date, as a real export's would.
 * - `income` is 8% empty.
 * - about 2% of the rows repeat an earlier row exactly (a re-sent batch); the copy lands within 1,000 rows of it.
 * - `channel` is a 12-value category, `source` a constant, `order_id` an identifier, `note` quoted free text with
 *   commas and doubled quotes.
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

/** Rows of the ~1 GB file. */
export const DEFAULT_ROWS = 9_500_000;

/** `r` is the row's content index: a duplicate takes an earlier row's. `h(k)` is a hash of it per column. */
const SELECT = `
  WITH src AS (
    SELECT i,
           CASE WHEN i > 0 AND hash(i, 100) % 50 = 0 THEN i - 1 - CAST(hash(i, 101) % least(i, 1000) AS BIGINT) ELSE i END AS r
    FROM range(?) t(i)
  )
  SELECT r AS order_id,
         'C' || lpad(CAST(hash(r, 1) % 1000000 AS VARCHAR), 7, '0') AS customer,
         CASE CAST(hash(r, 2) % 100 AS BIGINT)
           WHEN 0 THEN ''
           WHEN 1 THEN 'n/a'
           WHEN 2 THEN strftime(DATE '2015-01-01' + CAST(hash(r, 3) % 3650 AS INTEGER), '%Y-%m-%d')
           ELSE strftime(DATE '2015-01-01' + CAST(hash(r, 3) % 3650 AS INTEGER), '%d/%m/%Y')
         END AS signup,
         ['north', 'south', 'east', 'west', 'central', 'online', 'partner', 'retail',
          'wholesale', 'export', 'import', 'other'][1 + CAST(hash(r, 4) % 12 AS BIGINT)] AS channel,
         CASE WHEN hash(r, 5) % 100 < 8 THEN NULL ELSE round(20000 + (hash(r, 6) % 15000000) / 100.0, 2) END AS income,
         round((hash(r, 7) % 5000000) / 100.0, 2) AS amount,
         CAST(hash(r, 8) % 21 AS BIGINT) AS quantity,
         round((hash(r, 9) % 2000000) / 1000000.0 - 1.0, 6) AS score,
         'web' AS source,
         'order ' || CAST(hash(r, 10) % 100000 AS VARCHAR) || ', customer said "' ||
           ['great', 'late', 'broken', 'fine', 'refund please', 'thanks'][1 + CAST(hash(r, 11) % 6 AS BIGINT)] || '"' AS note
  FROM src
  ORDER BY i`;

/** Ensures `path` holds the messy CSV with `rows` data rows; returns its size in bytes. */
export async function ensureMessyCsv(path: string, rows: number): Promise<number> {
  const marker = `${path}.rows`;
  if (existsSync(path) && existsSync(marker) && readFileSync(marker, 'utf8') === String(rows)) return statSync(path).size;
  const part = `${path}.part`;
  const inst = await DuckDBInstance.create(':memory:', { memory_limit: '1GB' });
  const conn = await inst.connect();
  try {
    const sql = SELECT.replace('?', String(Math.trunc(rows)));
    await conn.run(`COPY (${sql}) TO '${part.replace(/'/g, "''")}' (FORMAT csv, HEADER true)`);
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
  renameSync(part, path);
  writeFileSync(marker, String(rows));
  return statSync(path).size;
}

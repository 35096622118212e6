/**
 * Deterministic mixed-type CSV for the ingest/analyze benchmarks (~110 bytes/row: 10M rows ≈ 1.1 GB).
 * DuckDB writes it (seconds instead of minutes in JS); the file is cached by path and row count so
 * repeated runs reuse it.
 */
import { existsSync, renameSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

/** Columns: int id, int qty, float amount (1% empty), float score, bool flag, category, timestamp, quoted free text. */
const SELECT = `
  SELECT i AS id,
         CAST(hash(i, 1) % 1000 AS BIGINT) AS qty,
         CASE WHEN CAST(hash(i, 2) % 100 AS BIGINT) = 0 THEN NULL ELSE (CAST(hash(i, 3) % 10000000 AS BIGINT)) / 100.0 END AS amount,
         round((CAST(hash(i, 4) % 2000000 AS BIGINT)) / 1000000.0 - 1.0, 6) AS score,
         CAST(hash(i, 5) % 3 AS BIGINT) = 0 AS flag,
         ['north', 'south', 'east', 'west', 'central', 'online', 'partner', 'retail',
          'wholesale', 'export', 'import', 'other'][1 + CAST(hash(i, 6) % 12 AS BIGINT)] AS channel,
         TIMESTAMP '2020-01-01 00:00:00' + to_seconds(CAST(i * 3 AS BIGINT)) AS created,
         'customer ' || (CAST(hash(i, 7) % 100000 AS BIGINT)) || ' wrote, "' ||
           ['great', 'late', 'broken', 'fine', 'refund', 'thanks'][1 + CAST(hash(i, 8) % 6 AS BIGINT)] ||
           '" about order ' || (CAST(hash(i, 9) % 10000000 AS BIGINT)) AS note
  FROM range(?) t(i)`;

/** Ensures `path` holds the benchmark CSV with `rows` data rows; returns its size in bytes. */
export async function ensureCsv(path: string, rows: number): Promise<number> {
  const marker = `${path}.rows`;
  if (existsSync(path) && existsSync(marker) && readFileSync(marker, 'utf8') === String(rows)) return statSync(path).size;
  const part = `${path}.part`;
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  try {
    const sql = SELECT.replace('?', String(Math.trunc(rows)));
    await conn.run(`COPY (${sql} ORDER BY i) TO '${part.replace(/'/g, "''")}' (FORMAT csv, HEADER true)`);
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
  renameSync(part, path);
  writeFileSync(marker, String(rows));
  return statSync(path).size;
}

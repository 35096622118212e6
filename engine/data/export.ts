/**
 * Reading a stored dataset back out: JSON previews and samples, CSV and XLSX files.
 */
import { unlink } from 'node:fs/promises';
import { DuckDBConnection, DuckDBTimestampValue, DuckDBValue } from '@duckdb/node-api';
import { setOwn } from '../own-keys';
import { JsonSafe, parquetSource, queryRows, sqlIdent, sqlString, toJsonSafe, withConnection } from './duck';
import { openTable } from './table';
import { XlsxCell, writeXlsxRows } from './xlsx';

/** A row as JSON-safe values keyed by column name. */
export type JsonRow = Record<string, JsonSafe>;

function jsonRows(rows: Record<string, DuckDBValue>[]): JsonRow[] {
  return rows.map((r) => {
    const o: JsonRow = {};
    for (const [k, v] of Object.entries(r)) setOwn(o, k, toJsonSafe(v));
    return o;
  });
}

/**
 * First `n` rows in file order, JSON-safe (bigint → number, timestamps → ISO-8601 strings, NaN → null).
 */
export async function preview(parquetPath: string, n = 100): Promise<JsonRow[]> {
  const limit = Math.max(0, Math.floor(n));
  return withConnection(async (conn) => {
    await openTable(conn, parquetPath, 't');
    return jsonRows(await queryRows(conn, `SELECT * FROM t LIMIT ${limit}`));
  });
}

/**
 * `n` rows drawn uniformly without replacement, reproducible for a given `seed` (and file): rows are ranked by a
 * hash of (row number, seed) — unlike DuckDB's REPEATABLE sampling this does not depend on the thread count.
 * Rows come back in file order.
 */
export async function sample(parquetPath: string, n: number, seed = 42): Promise<JsonRow[]> {
  const limit = Math.max(0, Math.floor(n));
  const s = Math.floor(seed);
  return withConnection(async (conn) => {
    await openTable(conn, parquetPath, 't');
    const src = `read_parquet(${sqlString(parquetPath)}, file_row_number = true)`;
    const rows = await queryRows(
      conn,
      `SELECT * EXCLUDE (file_row_number) FROM (
         SELECT * FROM ${src} ORDER BY hash(file_row_number, ${s}) LIMIT ${limit}
       ) ORDER BY file_row_number`,
    );
    return jsonRows(rows);
  });
}

/** Writes the dataset as UTF-8 CSV with a header row (DuckDB COPY; timestamps as `YYYY-MM-DD HH:MM:SS`). */
export async function writeCsv(parquetPath: string, outPath: string): Promise<void> {
  await withConnection(async (conn) => {
    await conn.run(`COPY (SELECT * FROM ${parquetSource(parquetPath)}) TO ${sqlString(outPath)} (FORMAT csv, HEADER true)`);
  });
}

function xlsxCell(v: DuckDBValue): XlsxCell {
  if (v instanceof DuckDBTimestampValue) {
    const d = new Date(Number(v.micros / 1000n));
    return Number.isNaN(d.getTime()) ? v.toString() : d;
  }
  const j = toJsonSafe(v);
  return j;
}

async function* chunks(conn: DuckDBConnection, sql: string): AsyncGenerator<XlsxCell[][]> {
  const result = await conn.stream(sql);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) return;
    yield chunk.getRows().map((r) => r.map(xlsxCell));
  }
}

/**
 * Writes the dataset as an XLSX workbook (one sheet "data", header row first). Rows are streamed from DuckDB
 * one chunk (2048 rows) at a time. Datetimes become Excel date-times; strings longer than 32,767 characters
 * are truncated (Excel's cell limit); more than 1,048,575 rows is an error (Excel's sheet limit).
 */
export async function writeXlsx(parquetPath: string, outPath: string): Promise<void> {
  await withConnection(async (conn) => {
    const cols = await openTable(conn, parquetPath, 't');
    try {
      await writeXlsxRows(
        outPath,
        cols.map((c) => c.name),
        chunks(conn, `SELECT ${cols.map((c) => sqlIdent(c.name)).join(', ')} FROM t`),
      );
    } catch (err) {
      await unlink(outPath).catch(() => undefined);
      throw err;
    }
  });
}

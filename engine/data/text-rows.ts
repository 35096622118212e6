/**
 * A stored table read back as text, the way people wrote it: every value a string (or null), datetimes at midnight as
 * dates (`1984-03-07`) and others as `YYYY-MM-DD HH:MM:SS`. For callers that look at values as text (PII detection and
 * transformation) and must not hold a whole table at once.
 */
import { DuckDBConnection } from '@duckdb/node-api';
import { ColumnInfo } from './dtypes';
import { sqlIdent, withConnection } from './duck';
import { openTable } from './table';

/** Rows per batch of {@link textRowBatches}: DuckDB's own chunk size, so a batch is one fetch. */
export const TEXT_BATCH_ROWS = 2048;

/** A column of a table read as text. */
export interface TextColumn {
  name: string;
  dtype: ColumnInfo['dtype'];
  values: (string | null)[];
}

function textExpr(c: ColumnInfo): string {
  const x = sqlIdent(c.name);
  if (c.dtype === 'datetime64') return `CASE WHEN ${x} = date_trunc('day', ${x}) THEN strftime(${x}, '%Y-%m-%d') ELSE strftime(${x}, '%Y-%m-%d %H:%M:%S') END`;
  return `CAST(${x} AS VARCHAR)`;
}

function selectText(cols: readonly ColumnInfo[]): string {
  return cols.map((c) => `${textExpr(c)} AS ${sqlIdent(c.name)}`).join(', ');
}

async function* fetchRows(conn: DuckDBConnection, sql: string): AsyncGenerator<(string | null)[][]> {
  const result = await conn.stream(sql);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) return;
    yield chunk.getRows().map((r) => r.map((v) => (v === null || v === undefined ? null : String(v))));
  }
}

/**
 * Every column as text, at most `sampleRows` rows (a reproducible uniform sample; all rows when null), column-major.
 * `rows` is how many rows were read.
 */
export async function readTextColumns(parquetPath: string, opts: { sampleRows?: number | null } = {}): Promise<{ columns: TextColumn[]; rows: number }> {
  return withConnection(async (conn) => {
    const cols = await openTable(conn, parquetPath, 't');
    const out: TextColumn[] = cols.map((c) => ({ name: c.name, dtype: c.dtype, values: [] }));
    if (!cols.length) return { columns: out, rows: 0 };
    const n = opts.sampleRows ? Math.max(1, Math.floor(opts.sampleRows)) : null;
    const sql = `SELECT ${selectText(cols)} FROM t${n ? ` USING SAMPLE reservoir(${n} ROWS) REPEATABLE (42)` : ''}`;
    let rows = 0;
    for await (const batch of fetchRows(conn, sql)) {
      for (const r of batch) for (let i = 0; i < r.length; i++) out[i].values.push(r[i]);
      rows += batch.length;
    }
    return { columns: out, rows };
  });
}

/**
 * The table's columns, then its rows as text in file order, {@link TEXT_BATCH_ROWS} at a time: memory stays one batch
 * whatever the table's length. `use` consumes the batches while the connection is open.
 */
export async function withTextRowBatches<T>(
  parquetPath: string,
  use: (columns: ColumnInfo[], batches: AsyncGenerator<(string | null)[][]>, rowCount: number) => Promise<T>,
): Promise<T> {
  return withConnection(async (conn) => {
    const cols = await openTable(conn, parquetPath, 't');
    const counted = await (await conn.run('SELECT count(*) AS n FROM t')).getRows();
    const rowCount = Number(counted[0][0]);
    const sql = cols.length ? `SELECT ${selectText(cols)} FROM t` : 'SELECT 1 WHERE false';
    return use(cols, fetchRows(conn, sql), rowCount);
  });
}

/**
 * Subsets of a stored table written as Parquet, and typed Parquet from a CSV this service wrote: what synthetic data
 * generation needs around its models (a seeded train/holdout split, bounded samples, the output's Parquet form).
 */
import { ColumnInfo, Dtype } from './dtypes';
import { queryRows, sqlIdent, sqlString, withConnection } from './duck';

/**
 * Writes the rows of `parquetPath` whose rank lies in [offset, offset + limit) to `outPath` (ZSTD Parquet, file
 * order kept) and returns how many it wrote. Rows are ranked by a hash of (row number, seed), as `sample` does, so
 * the same seed splits a file the same way every time: ranks [0, h) and [h, h + n) are a disjoint holdout and
 * training set, and a prefix of the latter is a uniform sample of it.
 */
export async function writeRankedRows(parquetPath: string, outPath: string, opts: { seed: number; offset: number; limit: number }): Promise<number> {
  const offset = Math.max(0, Math.floor(opts.offset));
  const limit = Math.max(0, Math.floor(opts.limit));
  const seed = Math.floor(opts.seed);
  return withConnection(async (conn) => {
    const src = `read_parquet(${sqlString(parquetPath)}, file_row_number = true)`;
    await conn.run(
      `COPY (SELECT * EXCLUDE (file_row_number) FROM (
         SELECT * FROM ${src} ORDER BY hash(file_row_number, ${seed}), file_row_number LIMIT ${limit} OFFSET ${offset}
       ) ORDER BY file_row_number) TO ${sqlString(outPath)} (FORMAT parquet, COMPRESSION zstd)`,
    );
    const [row] = await queryRows(conn, `SELECT count(*) AS n FROM read_parquet(${sqlString(outPath)})`);
    return Number(row.n);
  });
}

/** The stored Parquet type of each dtype (as engine/data's ingest stores them). */
const STORED_TYPE: Record<Dtype, string> = {
  int64: 'BIGINT',
  float64: 'DOUBLE',
  bool: 'BOOLEAN',
  datetime64: 'TIMESTAMP',
  category: 'VARCHAR',
  object: 'VARCHAR',
};

/**
 * Converts a CSV with a header row (RFC 4180, comma, empty fields missing) into ZSTD Parquet with each column typed
 * by its dtype: integers stay BIGINT, datetimes TIMESTAMP, booleans BOOLEAN. DuckDB streams it (bounded memory). A
 * value that does not fit its type fails the conversion with DuckDB's message.
 */
export async function csvToParquet(csvPath: string, outPath: string, columns: ColumnInfo[]): Promise<void> {
  await withConnection(async (conn) => {
    const names = `{${columns.map((c) => `${sqlString(c.name)}: 'VARCHAR'`).join(', ')}}`;
    const source = `read_csv(${sqlString(csvPath)}, header = true, delim = ',', quote = '"', escape = '"', auto_detect = false, columns = ${names})`;
    const selects = columns.map((c) => {
      const type = STORED_TYPE[c.dtype] ?? 'VARCHAR';
      return type === 'VARCHAR' ? sqlIdent(c.name) : `CAST(${sqlIdent(c.name)} AS ${type}) AS ${sqlIdent(c.name)}`;
    });
    await conn.run(`COPY (SELECT ${selects.join(', ')} FROM ${source}) TO ${sqlString(outPath)} (FORMAT parquet, COMPRESSION zstd)`);
  });
}

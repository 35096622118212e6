import { categoricalFromStrings, Column, Frame, makeFrame } from '../frame';

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL.*)$/;
const DATETIME = /^(DATE|TIMESTAMP.*|DATETIME)$/;

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

function sqlIdent(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/**
 * Reads a stored dataset version (the canonical Parquet of engine/data) into a column-major
 * frame: numbers as Float64Array (NaN missing), DATE/TIMESTAMP as epoch milliseconds,
 * everything else (text, booleans) as categorical codes.
 */
export async function readParquetFrame(path: string): Promise<Frame> {
  const duck = await import('@duckdb/node-api');
  const instance = await duck.DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    const source = `read_parquet(${sqlString(path)})`;
    const described = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRowObjectsJS();
    const names = described.map((r) => String(r['column_name']));
    const types = described.map((r) => String(r['column_type']).toUpperCase());
    const selects = names.map((n, j) => {
      const id = sqlIdent(n);
      if (NUMERIC.test(types[j])) return `CAST(${id} AS DOUBLE)`;
      if (DATETIME.test(types[j])) return `CAST(epoch_ms(CAST(${id} AS TIMESTAMP)) AS DOUBLE)`;
      return `CAST(${id} AS VARCHAR)`;
    });
    const data = (await conn.runAndReadAll(`SELECT ${selects.join(', ')} FROM ${source}`)).getColumnsJS();
    const columns: Column[] = names.map((_, j): Column => {
      // A table without rows comes back without column chunks at all.
      const col = data[j] ?? [];
      if (NUMERIC.test(types[j]) || DATETIME.test(types[j])) {
        const v = new Float64Array(col.length);
        for (let i = 0; i < col.length; i++) v[i] = col[i] === null || col[i] === undefined ? NaN : Number(col[i]);
        return DATETIME.test(types[j]) ? { kind: 'datetime', epochMs: v } : { kind: 'numeric', values: v };
      }
      return categoricalFromStrings(col.map((x) => (x === null || x === undefined ? null : String(x))));
    });
    return makeFrame(names, columns);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

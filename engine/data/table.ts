/**
 * Opens a Parquet file as a DuckDB view with canonical column types, so every analysis sees the same
 * values whether the file came from `ingestFile` or elsewhere (e.g. NaN is missing, as in pandas).
 */
import { DuckDBConnection } from '@duckdb/node-api';
import { ColumnInfo, canonicalExpr, describeColumns, inferDtypes } from './dtypes';
import { recalledDtypes } from './dtype-cache';
import { parquetSource, sqlIdent } from './duck';

/** Creates view `viewName` over `parquetPath` with canonical types and returns its columns with dtypes. */
export async function openTable(conn: DuckDBConnection, parquetPath: string, viewName: string): Promise<ColumnInfo[]> {
  const source = parquetSource(parquetPath);
  const cols = await describeColumns(conn, source);
  const select = cols.map((c) => `${canonicalExpr(c.name, c.duckType)} AS ${sqlIdent(c.name)}`).join(', ');
  await conn.run(`CREATE OR REPLACE TEMP VIEW ${sqlIdent(viewName)} AS SELECT ${select} FROM ${source}`);
  const known = recalledDtypes(parquetPath);
  // Only trusted while the names line up with what the view exposes (the file is unchanged, so they should).
  if (known && known.length === cols.length && known.every((c, i) => c.name === cols[i].name)) return known;
  return inferDtypes(conn, sqlIdent(viewName));
}

/** Whether a dtype gets numeric statistics. */
export function isNumeric(dtype: string): boolean {
  return dtype === 'int64' || dtype === 'float64';
}

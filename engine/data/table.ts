/**
 * Opens a Parquet file with canonical column types, so every analysis sees the same values whether the file came
 * from `ingestFile` or elsewhere (e.g. NaN is missing, as in pandas).
 *
 * A file `ingestFile` wrote says so in its key-value metadata ({@link CANONICAL_FORM_KEY}): its columns are already
 * canonical and it is read as it is. Any other file is read through a projection of {@link canonicalExpr}s, built
 * for the columns a query reads only: DuckDB binds a query of thousands of such expressions in more than linear time
 * (2,000 columns: ~0.7 s per query; 5,000: ~8-13 s), so a whole-table projection would make every query of a wide
 * table slow.
 */
import { DuckDBConnection } from '@duckdb/node-api';
import { ColumnInfo, DuckColumn, canonicalExpr, describeColumns, inferDtypes } from './dtypes';
import { recalledDtypes } from './dtype-cache';
import { parquetSource, queryRows, sqlIdent, sqlString } from './duck';

/** Key of the Parquet key-value metadata entry that marks a file already in canonical form. */
export const CANONICAL_FORM_KEY = 'mlsvc_form';
/** Its value: canonical column types (see dtypes.ts), NaN stored as NULL. */
export const CANONICAL_FORM_VALUE = 'canonical-1';

/** The `KV_METADATA` option of a Parquet COPY that marks the written file as canonical. */
export const CANONICAL_KV_OPTION = `KV_METADATA {${CANONICAL_FORM_KEY}: ${sqlString(CANONICAL_FORM_VALUE)}}`;

/** A Parquet file opened for analysis. */
export interface CanonicalTable {
  /** Columns with their dtypes, in file order. */
  columns: ColumnInfo[];
  /**
   * A relation (for FROM) holding the canonical form of at least the named columns under their own names; all
   * columns when none are named. Queries name what they read, so wide tables stay cheap to query. With
   * `rowNumbers`, it also holds `file_row_number` (0-based position in the file).
   */
  relation(names?: readonly string[], rowNumbers?: boolean): string;
}

/** Whether the file carries the canonical-form mark `ingestFile` writes. */
export async function isCanonicalFile(conn: DuckDBConnection, parquetPath: string): Promise<boolean> {
  const rows = await queryRows(
    conn,
    `SELECT count(*) AS n FROM parquet_kv_metadata(${sqlString(parquetPath)})
     WHERE key = ${sqlString(CANONICAL_FORM_KEY)}::BLOB AND value = ${sqlString(CANONICAL_FORM_VALUE)}::BLOB`,
  );
  return Number(rows[0]?.n ?? 0) > 0;
}

/** The relation maker of a file (see {@link CanonicalTable.relation}). */
function relationOf(parquetPath: string, cols: DuckColumn[], canonical: boolean): CanonicalTable['relation'] {
  const plain = parquetSource(parquetPath);
  const numbered = `read_parquet(${sqlString(parquetPath)}, file_row_number = true)`;
  if (canonical) return (_names, rowNumbers) => (rowNumbers ? numbered : plain);
  const types = new Map(cols.map((c) => [c.name, c.duckType]));
  return (names, rowNumbers) => {
    const wanted = names ?? cols.map((c) => c.name);
    // Nothing named (e.g. only count(*)): the file's own rows will do.
    if (wanted.length === 0) return rowNumbers ? numbered : plain;
    const select = wanted.map((n) => `${canonicalExpr(n, types.get(n) ?? 'VARCHAR')} AS ${sqlIdent(n)}`);
    if (rowNumbers) select.push('file_row_number');
    return `(SELECT ${select.join(', ')} FROM ${rowNumbers ? numbered : plain})`;
  };
}

/** Opens `parquetPath` for analysis: its columns with dtypes and a relation maker (see {@link CanonicalTable}). */
export async function openCanonical(conn: DuckDBConnection, parquetPath: string): Promise<CanonicalTable> {
  const cols = await describeColumns(conn, parquetSource(parquetPath));
  const relation = relationOf(parquetPath, cols, await isCanonicalFile(conn, parquetPath));
  const known = recalledDtypes(parquetPath);
  // Only trusted while the names line up with the file's (the file is unchanged, so they should).
  const columns =
    known && known.length === cols.length && known.every((c, i) => c.name === cols[i].name) ? known : await inferDtypes(conn, cols, relation);
  return { columns, relation };
}

/** Creates view `viewName` over `parquetPath` with canonical types and returns its columns with dtypes. */
export async function openTable(conn: DuckDBConnection, parquetPath: string, viewName: string): Promise<ColumnInfo[]> {
  const table = await openCanonical(conn, parquetPath);
  await conn.run(`CREATE OR REPLACE TEMP VIEW ${sqlIdent(viewName)} AS SELECT * FROM ${table.relation()}`);
  return table.columns;
}

/** Whether a dtype gets numeric statistics. */
export function isNumeric(dtype: string): boolean {
  return dtype === 'int64' || dtype === 'float64';
}

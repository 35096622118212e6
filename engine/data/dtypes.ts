/**
 * The six column dtypes of the service contract and how DuckDB types map onto them.
 *
 * Mapping (DuckDB → dtype):
 * - TINYINT..BIGINT, UTINYINT..UINTEGER → int64 (stored as BIGINT)
 * - UBIGINT, HUGEINT, UHUGEINT (may not fit in 64 signed bits), FLOAT, DOUBLE, DECIMAL → float64 (stored as DOUBLE)
 * - BOOLEAN → bool
 * - DATE, TIMESTAMP*, TIMESTAMP WITH TIME ZONE (converted to UTC) → datetime64 (stored as TIMESTAMP)
 * - VARCHAR → category when it has at most {@link CATEGORY_MAX_DISTINCT} distinct values AND the distinct values are
 *   at most {@link CATEGORY_MAX_UNIQUE_RATIO} of the non-null values; otherwise object.
 * - anything else (TIME, INTERVAL, BLOB, UUID, LIST, STRUCT, ...) → object (stored as its VARCHAR rendering).
 */
import { DuckDBConnection } from '@duckdb/node-api';
import { aggregateInBatches, queryRows, sqlIdent } from './duck';

/** Column dtypes of the service contract. */
export type Dtype = 'int64' | 'float64' | 'object' | 'bool' | 'datetime64' | 'category';

/** A named column with its dtype. */
export interface ColumnInfo {
  name: string;
  dtype: Dtype;
}

/** A VARCHAR column with more distinct values than this is never a category. */
export const CATEGORY_MAX_DISTINCT = 50;
/** A VARCHAR column whose distinct/non-null ratio exceeds this is never a category (e.g. 3 distinct in 4 rows). */
export const CATEGORY_MAX_UNIQUE_RATIO = 0.5;

/** The dtype a DuckDB type maps to, before the category/object split of VARCHAR (returned as 'object'). */
export function baseDtype(duckType: string): Dtype {
  const t = duckType.toUpperCase();
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER)$/.test(t)) return 'int64';
  if (/^(UBIGINT|HUGEINT|UHUGEINT|FLOAT|DOUBLE|REAL|DECIMAL.*)$/.test(t)) return 'float64';
  if (t === 'BOOLEAN') return 'bool';
  if (t === 'DATE' || t.startsWith('TIMESTAMP')) return 'datetime64';
  return 'object';
}

/**
 * SQL expression converting a column of `duckType` into its canonical stored type
 * (BIGINT, DOUBLE with NaN → NULL, BOOLEAN, TIMESTAMP, VARCHAR).
 */
export function canonicalExpr(name: string, duckType: string): string {
  const col = sqlIdent(name);
  const t = duckType.toUpperCase();
  switch (baseDtype(duckType)) {
    case 'int64':
      return t === 'BIGINT' ? col : `CAST(${col} AS BIGINT)`;
    case 'float64':
      // pandas treats NaN as missing; storing NULL makes every later count agree with that.
      return `CASE WHEN isnan(CAST(${col} AS DOUBLE)) THEN NULL ELSE CAST(${col} AS DOUBLE) END`;
    case 'bool':
      return col;
    case 'datetime64':
      if (t === 'TIMESTAMP') return col;
      if (t.includes('TIME ZONE') || t === 'TIMESTAMPTZ') return `timezone('UTC', ${col})`;
      return `CAST(${col} AS TIMESTAMP)`;
    default:
      return t === 'VARCHAR' ? col : `CAST(${col} AS VARCHAR)`;
  }
}

/** Whether a VARCHAR column with these counts is a category (see module doc). */
export function isCategory(distinct: number, nonNull: number): boolean {
  return distinct > 0 && distinct <= CATEGORY_MAX_DISTINCT && distinct <= CATEGORY_MAX_UNIQUE_RATIO * nonNull;
}

/** A column as DuckDB describes it. */
export interface DuckColumn {
  name: string;
  duckType: string;
}

/** Column names and DuckDB types of a table expression (e.g. `read_parquet('x')`). */
export async function describeColumns(conn: DuckDBConnection, source: string): Promise<DuckColumn[]> {
  const rows = await queryRows(conn, `DESCRIBE SELECT * FROM ${source}`);
  return rows.map((r) => ({ name: String(r.column_name), duckType: String(r.column_type) }));
}

/** Rows read to rule out category candidates before any full scan (see {@link inferDtypes}). */
export const CATEGORY_SAMPLE_ROWS = 100_000;

/**
 * Infers the contract dtype of every column `cols` of a table. A VARCHAR column is a category only with at most
 * {@link CATEGORY_MAX_DISTINCT} distinct values; a bounded sample already proves most text columns are not
 * (more distinct values in the sample than the limit means more in the whole column), so the full scan
 * (exact counts) only touches the remaining low-cardinality candidates, which hash-aggregate cheaply.
 * @param relation the table as a relation holding at least the named columns (see `CanonicalTable.relation`)
 */
export async function inferDtypes(conn: DuckDBConnection, cols: DuckColumn[], relation: (names: readonly string[]) => string): Promise<ColumnInfo[]> {
  const varchar = cols.filter((c) => baseDtype(c.duckType) === 'object' && c.duckType.toUpperCase() === 'VARCHAR');
  const categories = new Set<string>();
  // Exact distinct counts on the sample, capped: a sample that already exceeds the limit decides the column.
  const sampled = (names: readonly string[]): string =>
    `(SELECT ${names.map(sqlIdent).join(', ')} FROM ${relation(names)} LIMIT ${CATEGORY_SAMPLE_ROWS})`;
  const sample = await aggregateInBatches(
    conn,
    varchar.map((c, i) => ({ sql: `count(DISTINCT ${sqlIdent(c.name)}) AS d${i}`, columns: [c.name] })),
    sampled,
  );
  const candidates = varchar.filter((_, i) => Number(sample[`d${i}`]) <= CATEGORY_MAX_DISTINCT);
  const exact = await aggregateInBatches(
    conn,
    candidates.flatMap((c, i) => [
      { sql: `count(${sqlIdent(c.name)}) AS n${i}`, columns: [c.name] },
      { sql: `count(DISTINCT ${sqlIdent(c.name)}) AS d${i}`, columns: [c.name] },
    ]),
    relation,
  );
  candidates.forEach((c, i) => {
    if (isCategory(Number(exact[`d${i}`]), Number(exact[`n${i}`]))) categories.add(c.name);
  });
  return cols.map((c) => ({ name: c.name, dtype: categories.has(c.name) ? 'category' : baseDtype(c.duckType) }));
}

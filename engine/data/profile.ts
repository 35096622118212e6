/**
 * Column profiling of a stored Parquet file. All statistics are computed by DuckDB and follow pandas
 * conventions: std is the sample std (ddof=1), percentiles interpolate linearly (quantile_cont = pandas
 * 'linear'), skewness is the adjusted Fisher-Pearson coefficient (pandas skew), kurtosis is the bias-corrected
 * excess kurtosis (pandas kurt), missing counts NULL and NaN.
 *
 * Work is linear in the table's width: statistics are computed in bounded batches of columns (numeric-stats.ts,
 * categorical-stats.ts), correlations cover at most {@link MAX_CORRELATION_COLUMNS} columns, and no query names
 * every column except the duplicate-row hash.
 *
 * Memory is bounded whatever the height: every aggregate but exact quantiles is charged to DuckDB's memory limit
 * (and spills past it), and exact quantiles hold every value they read, so a table of more than
 * `EXACT_QUANTILE_VALUES` rows gets estimated percentiles instead (`percentiles_approximate`; see duck.ts).
 */
import { DuckDBConnection } from '@duckdb/node-api';
import { getOwn, setOwn } from '../own-keys';
import { categoricalStats, TOP_VALUES } from './categorical-stats';
import { ColumnInfo, Dtype } from './dtypes';
import { aggregateInBatches, asDataFault, exactQuantiles, parquetSource, queryOne, queryRows, sqlIdent, toJsonSafe, toNumber, withConnection } from './duck';
import { duplicateRowCount } from './duplicates';
import { HISTOGRAM_BINS, Histogram } from './histogram';
import { numericStats, StatsLayout } from './numeric-stats';
import { CanonicalTable, isNumeric, openCanonical } from './table';

/** Statistics of an int64/float64 column. Values are null when undefined (e.g. std of one value). */
export interface NumericProfile {
  type: 'numeric';
  dtype: Dtype;
  unique: number;
  missing: number;
  missing_percent: number;
  min: number | null;
  max: number | null;
  mean: number | null;
  std: number | null;
  percentiles: { p25: number | null; p50: number | null; p75: number | null };
  skewness: number | null;
  kurtosis: number | null;
  iqr: number | null;
  /** Values below p25 - 1.5 IQR or above p75 + 1.5 IQR. */
  outlier_count: number;
  histogram: Histogram;
}

/** Statistics of a category/object/bool/datetime64 column. */
export interface CategoricalProfile {
  type: 'categorical';
  dtype: Dtype;
  unique: number;
  missing: number;
  missing_percent: number;
  /** Up to 10 most frequent values (as strings: booleans 'true'/'false', datetimes ISO-8601) → count. */
  top_values: Record<string, number>;
  /** Earliest/latest value, only for datetime64 columns (ISO-8601). */
  min?: string | null;
  max?: string | null;
}

export type ColumnProfile = NumericProfile | CategoricalProfile;

/** Result of {@link analyze}. */
export interface DatasetProfile {
  columns: Record<string, ColumnProfile>;
  row_count: number;
  /** Rows identical to an earlier row (pandas `duplicated().sum()`; NULLs compare equal). */
  duplicate_rows: number;
  /**
   * Estimated in-memory size in bytes of the table as pandas would hold it: 8 bytes per value for
   * int64/float64/datetime64, 1 for bool, and for object/category 8 bytes per pointer plus the UTF-8 length of
   * each non-null string (ignoring Python object headers, so it is lower than pandas' deep memory_usage).
   */
  memory_usage: number;
  /**
   * Pearson correlation between every pair of the first {@link MAX_CORRELATION_COLUMNS} numeric columns in file
   * order (pairwise complete rows); null when undefined.
   */
  correlations: Record<string, Record<string, number | null>>;
  /** Numeric columns past the first {@link MAX_CORRELATION_COLUMNS}, left out of `correlations` (file order). */
  correlations_omitted: string[];
  /**
   * True when the table is too tall for exact quantiles (more than `EXACT_QUANTILE_VALUES` rows): percentiles, IQR and
   * outlier counts come from DuckDB's t-digest (`approx_quantile`). Absent from profiles stored before it existed.
   */
  percentiles_approximate: boolean;
}

/**
 * Numeric columns `correlations` covers: the first this many in file order. Pairs grow with columns² (5,000 numeric
 * columns: 12.5 million pairs, a matrix of hundreds of MB in JSON); 100 columns give 4,950 pairs and a matrix of
 * about 0.3 MB. File order is the rule because it is the one a user can predict and steer (put the columns of
 * interest first); a ranking by variance would depend on each column's units.
 */
export const MAX_CORRELATION_COLUMNS = 100;

export { TOP_VALUES };

function pct(part: number, whole: number): number {
  return whole === 0 ? 0 : (part / whole) * 100;
}

/**
 * Skewness and excess kurtosis with pandas' bias corrections, from central moment sums (s2, s3, s4) computed by
 * DuckDB around the mean. DuckDB's own skewness()/kurtosis() use raw power sums, which lose ~8 digits to
 * cancellation when the mean is large relative to the spread (diamonds.depth: 6e-8 relative error vs pandas).
 */
function shapeMoments(n: number, s2: number, s3: number, s4: number): { skewness: number | null; kurtosis: number | null } {
  if (n < 3) return { skewness: null, kurtosis: null };
  // pandas reports 0 (not NaN) for a constant column.
  if (s2 === 0) return { skewness: 0, kurtosis: n < 4 ? null : 0 };
  const m2 = s2 / n;
  const skewness = ((Math.sqrt(n * (n - 1)) / (n - 2)) * (s3 / n)) / Math.pow(m2, 1.5);
  const kurtosis =
    n < 4
      ? null
      : ((n + 1) * n * (n - 1) * s4) / ((n - 2) * (n - 3) * s2 * s2) - (3 * (n - 1) * (n - 1)) / ((n - 2) * (n - 3));
  return { skewness, kurtosis };
}

async function numericProfiles(
  conn: DuckDBConnection,
  table: CanonicalTable,
  names: string[],
  rowCount: number,
  layout?: StatsLayout,
): Promise<Record<string, NumericProfile>> {
  const out: Record<string, NumericProfile> = {};
  const stats = await numericStats(conn, table, names, rowCount, layout);
  names.forEach((name, i) => {
    const { nonNull, unique, min, max, mean, std, p25, p50, p75, second } = stats[i];
    const { skewness, kurtosis } = second ? shapeMoments(nonNull, second.s2, second.s3, second.s4) : { skewness: null, kurtosis: null };
    setOwn(out, name, {
      type: 'numeric',
      dtype: 'float64',
      unique,
      missing: rowCount - nonNull,
      missing_percent: pct(rowCount - nonNull, rowCount),
      min,
      max,
      mean,
      std,
      percentiles: { p25, p50, p75 },
      skewness,
      kurtosis,
      iqr: p25 !== null && p75 !== null ? p75 - p25 : null,
      outlier_count: second ? second.outliers : 0,
      histogram: second ? second.hist : { counts: new Array<number>(HISTOGRAM_BINS).fill(0), bin_edges: [] },
    });
  });
  return out;
}

/** Top values of one column (count desc, then value asc so ties are deterministic). */
export async function topValues(
  conn: DuckDBConnection,
  table: string,
  column: string,
  limit = TOP_VALUES,
): Promise<Record<string, number>> {
  const c = sqlIdent(column);
  const rows = await queryRows(
    conn,
    `SELECT ${c} AS v, count(*) AS n FROM ${table} WHERE ${c} IS NOT NULL GROUP BY 1 ORDER BY n DESC, v ASC LIMIT ${limit}`,
  );
  const out: Record<string, number> = {};
  for (const r of rows) setOwn(out, String(toJsonSafe(r.v)), Number(r.n));
  return out;
}

async function categoricalProfiles(
  conn: DuckDBConnection,
  table: CanonicalTable,
  cols: ColumnInfo[],
  rowCount: number,
  layout?: StatsLayout,
): Promise<Record<string, CategoricalProfile>> {
  const stats = await categoricalStats(conn, table, cols, rowCount, layout);
  const out: Record<string, CategoricalProfile> = {};
  cols.forEach((col, i) => {
    const s = stats[i];
    const missing = rowCount - s.nonNull;
    out[col.name] = {
      type: 'categorical',
      dtype: col.dtype,
      unique: s.unique,
      missing,
      missing_percent: pct(missing, rowCount),
      top_values: s.top,
      ...(col.dtype === 'datetime64' ? { min: s.min, max: s.max } : {}),
    };
  });
  return out;
}

/**
 * Pearson correlations between the first {@link MAX_CORRELATION_COLUMNS} numeric columns (file order), in batches
 * of pairs (see {@link aggregateInBatches}). Returns the matrix and the numeric columns left out.
 */
async function correlations(
  conn: DuckDBConnection,
  table: CanonicalTable,
  numericNames: string[],
  unique: Record<string, number>,
): Promise<{ matrix: Record<string, Record<string, number | null>>; omitted: string[] }> {
  const names = numericNames.slice(0, MAX_CORRELATION_COLUMNS);
  const out: Record<string, Record<string, number | null>> = {};
  for (const n of names) setOwn(out, n, {});
  const pairs: [string, string][] = [];
  for (let i = 0; i < names.length; i++) for (let j = i + 1; j < names.length; j++) pairs.push([names[i], names[j]]);
  const row = await aggregateInBatches(
    conn,
    pairs.map(([a, b], k) => ({ sql: `corr(CAST(${sqlIdent(a)} AS DOUBLE), CAST(${sqlIdent(b)} AS DOUBLE)) AS c${k}`, columns: [a, b] })),
    table.relation,
  );
  // pandas reports 1 on the diagonal whenever the column has at least two distinct values.
  for (const n of names) setOwn(out[n], n, (getOwn(unique, n) ?? 0) > 1 ? 1 : null);
  pairs.forEach(([a, b], k) => {
    const v = toNumber(row[`c${k}`]);
    setOwn(out[a], b, v);
    setOwn(out[b], a, v);
  });
  return { matrix: out, omitted: numericNames.slice(MAX_CORRELATION_COLUMNS) };
}

/** Estimated pandas memory of the table (see {@link DatasetProfile.memory_usage}), summed per batch of columns. */
async function memoryUsage(conn: DuckDBConnection, table: CanonicalTable): Promise<number> {
  const cols = table.columns;
  const items = cols.map((c, i) => {
    if (c.dtype === 'bool') return { sql: `count(*) AS m${i}`, columns: [] };
    if (c.dtype === 'object' || c.dtype === 'category') {
      return { sql: `8 * count(*) + coalesce(sum(strlen(${sqlIdent(c.name)})), 0) AS m${i}`, columns: [c.name] };
    }
    return { sql: `8 * count(*) AS m${i}`, columns: [] };
  });
  const r = await aggregateInBatches(conn, items, table.relation);
  return cols.reduce((sum, _, i) => sum + Number(r[`m${i}`]), 0);
}

/**
 * Profiles every column of a Parquet file (see module doc for the statistics' definitions).
 * @param parquetPath stored dataset, typically `data.parquet` written by `ingestFile`
 * @param options.layout forces how per-column statistics are computed (tests compare both); by default the table's
 *   shape decides (see numeric-stats.ts)
 * @throws DataValidationError when the file cannot be read or a query runs out of DuckDB's memory limit (see
 *   `asDataFault`): profiling it again would fail the same way
 */
export async function analyze(parquetPath: string, options: { layout?: StatsLayout } = {}): Promise<DatasetProfile> {
  return withConnection((conn) => profileTable(conn, parquetPath, options)).catch((err: unknown) => {
    throw asDataFault(err, parquetPath);
  });
}

async function profileTable(conn: DuckDBConnection, parquetPath: string, options: { layout?: StatsLayout }): Promise<DatasetProfile> {
  const table = await openCanonical(conn, parquetPath);
  const cols = table.columns;
  // Answered from the Parquet footer, not a scan.
  const rowCount = Number((await queryOne(conn, `SELECT count(*) AS n FROM ${parquetSource(parquetPath)}`)).n);
  const numericNames = cols.filter((c) => isNumeric(c.dtype)).map((c) => c.name);
  const numeric = await numericProfiles(conn, table, numericNames, rowCount, options.layout);
  const categorical = await categoricalProfiles(conn, table, cols.filter((c) => !isNumeric(c.dtype)), rowCount, options.layout);
  const columns: Record<string, ColumnProfile> = {};
  for (const c of cols) setOwn(columns, c.name, isNumeric(c.dtype) ? { ...getOwn(numeric, c.name)!, dtype: c.dtype } : getOwn(categorical, c.name)!);
  const duplicates = await duplicateRowCount(conn, table.relation(), cols.map((c) => sqlIdent(c.name)));
  const corr = await correlations(conn, table, numericNames, Object.fromEntries(numericNames.map((n) => [n, getOwn(columns, n)!.unique])));
  return {
    columns,
    row_count: rowCount,
    duplicate_rows: duplicates,
    memory_usage: await memoryUsage(conn, table),
    correlations: corr.matrix,
    correlations_omitted: corr.omitted,
    percentiles_approximate: numericNames.length > 0 && !exactQuantiles(rowCount),
  };
}

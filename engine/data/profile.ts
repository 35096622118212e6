/**
 * Column profiling of a stored Parquet file. All statistics are computed by DuckDB and follow pandas
 * conventions: std is the sample std (ddof=1), percentiles interpolate linearly (quantile_cont = pandas
 * 'linear'), skewness is the adjusted Fisher-Pearson coefficient (pandas skew), kurtosis is the bias-corrected
 * excess kurtosis (pandas kurt), missing counts NULL and NaN.
 */
import { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { Dtype } from './dtypes';
import { getOwn, setOwn } from '../own-keys';
import { queryOne, queryRows, sqlIdent, toJsonSafe, toNumber, withConnection } from './duck';
import { HISTOGRAM_BINS, Histogram, histogramBins, sqlDouble } from './histogram';
import { isNumeric, openTable } from './table';

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
  /** Pearson correlation between every pair of numeric columns (pairwise complete rows); null when undefined. */
  correlations: Record<string, Record<string, number | null>>;
}

/** Number of most frequent values reported for categorical columns. */
export const TOP_VALUES = 10;
const VIEW = 't';

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

/** What the second pass needs from the first for one column. */
interface FirstPass {
  name: string;
  mean: number;
  p25: number;
  p75: number;
  min: number;
  max: number;
}

interface SecondPass {
  s2: number;
  s3: number;
  s4: number;
  outliers: number;
  hist: Histogram;
}

/**
 * The statistics that need the first pass's mean, quartiles and range, for every numeric column in one scan:
 * central moment sums, 1.5-IQR outliers and the histogram.
 */
async function secondPass(conn: DuckDBConnection, cols: FirstPass[]): Promise<Map<string, SecondPass>> {
  const out = new Map<string, SecondPass>();
  if (cols.length === 0) return out;
  const parts = cols.map((c, i) => {
    const x = `CAST(${sqlIdent(c.name)} AS DOUBLE)`;
    const d = `(${x} - ${sqlDouble(c.mean)})`;
    const iqr = c.p75 - c.p25;
    const bins = histogramBins(x, c.min, c.max);
    const sql = `sum(${d} * ${d}) AS s2_${i}, sum(${d} * ${d} * ${d}) AS s3_${i}, sum(${d} * ${d} * ${d} * ${d}) AS s4_${i},
       count(*) FILTER (WHERE ${x} < ${sqlDouble(c.p25 - 1.5 * iqr)} OR ${x} > ${sqlDouble(c.p75 + 1.5 * iqr)}) AS o_${i},
       histogram(${bins.index}) FILTER (WHERE ${x} IS NOT NULL) AS h_${i}`;
    return { sql, bins };
  });
  const r = await queryOne(conn, `SELECT ${parts.map((p) => p.sql).join(', ')} FROM ${VIEW}`);
  cols.forEach((c, i) => {
    out.set(c.name, {
      s2: toNumber(r[`s2_${i}`]) ?? 0,
      s3: toNumber(r[`s3_${i}`]) ?? 0,
      s4: toNumber(r[`s4_${i}`]) ?? 0,
      outliers: Number(r[`o_${i}`]),
      hist: parts[i].bins.counts(r[`h_${i}`]),
    });
  });
  return out;
}

async function numericProfiles(
  conn: DuckDBConnection,
  names: string[],
  rowCount: number,
): Promise<Record<string, NumericProfile>> {
  const out: Record<string, NumericProfile> = {};
  if (names.length === 0) return out;
  const sel = names
    .map((n, i) => {
      const c = sqlIdent(n);
      return [
        `count(${c}) AS n${i}`,
        `count(DISTINCT ${c}) AS u${i}`,
        `min(${c}) AS min${i}`,
        `max(${c}) AS max${i}`,
        `avg(${c}) AS mean${i}`,
        `stddev_samp(${c}) AS std${i}`,
        `quantile_cont(${c}, [0.25, 0.5, 0.75]) AS q${i}`,
      ].join(', ');
    })
    .join(', ');
  const agg = await queryOne(conn, `SELECT ${sel} FROM ${VIEW}`);
  const first = names.map((name, i) => {
    const q = agg[`q${i}`] as { items?: unknown[] } | null;
    const qs = (q?.items ?? []).map((v) => toNumber(v as never));
    return {
      name,
      nonNull: Number(agg[`n${i}`]),
      p25: qs[0] ?? null,
      p50: qs[1] ?? null,
      p75: qs[2] ?? null,
      min: toNumber(agg[`min${i}`]),
      max: toNumber(agg[`max${i}`]),
      mean: toNumber(agg[`mean${i}`]),
    };
  });
  const complete = first.filter(
    (f): f is typeof f & FirstPass => f.mean !== null && f.min !== null && f.max !== null && f.p25 !== null && f.p75 !== null,
  );
  const second = await secondPass(conn, complete);
  for (const [i, f] of first.entries()) {
    const { name, nonNull, p25, p50, p75, min, max, mean } = f;
    const iqr = p25 !== null && p75 !== null ? p75 - p25 : null;
    const pass = second.get(name);
    const { skewness, kurtosis } = pass ? shapeMoments(nonNull, pass.s2, pass.s3, pass.s4) : { skewness: null, kurtosis: null };
    setOwn(out, name, {
      type: 'numeric',
      dtype: 'float64',
      unique: Number(agg[`u${i}`]),
      missing: rowCount - nonNull,
      missing_percent: pct(rowCount - nonNull, rowCount),
      min,
      max,
      mean,
      std: toNumber(agg[`std${i}`]),
      percentiles: { p25, p50, p75 },
      skewness,
      kurtosis,
      iqr,
      outlier_count: pass ? pass.outliers : 0,
      histogram: pass ? pass.hist : { counts: new Array<number>(HISTOGRAM_BINS).fill(0), bin_edges: [] },
    });
  }
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

async function categoricalProfile(
  conn: DuckDBConnection,
  name: string,
  dtype: Dtype,
  rowCount: number,
): Promise<CategoricalProfile> {
  const c = sqlIdent(name);
  // One hash aggregation gives the distinct count and the top values: the number of groups, and the 10 smallest
  // (count desc, value asc) by a struct key, i.e. what topValues' ORDER BY ... LIMIT returns.
  const key = '{a: -n, b: v}';
  const agg = await queryOne(
    conn,
    `SELECT count(*) AS u, coalesce(sum(n), 0) AS nn, min(v) AS mn, max(v) AS mx,
       min_by(v, ${key}, ${TOP_VALUES}) AS tv, min_by(n, ${key}, ${TOP_VALUES}) AS tn
     FROM (SELECT ${c} AS v, count(*) AS n FROM ${VIEW} WHERE ${c} IS NOT NULL GROUP BY 1)`,
  );
  const missing = rowCount - Number(agg.nn);
  const values = (agg.tv as { items?: DuckDBValue[] } | null)?.items ?? [];
  const counts = (agg.tn as { items?: DuckDBValue[] } | null)?.items ?? [];
  const top: Record<string, number> = {};
  values.forEach((v, i) => setOwn(top, String(toJsonSafe(v)), Number(counts[i])));
  const profile: CategoricalProfile = {
    type: 'categorical',
    dtype,
    unique: Number(agg.u),
    missing,
    missing_percent: pct(missing, rowCount),
    top_values: top,
  };
  if (dtype === 'datetime64') {
    const mn = toJsonSafe(agg.mn);
    const mx = toJsonSafe(agg.mx);
    profile.min = mn === null ? null : String(mn);
    profile.max = mx === null ? null : String(mx);
  }
  return profile;
}

async function correlations(
  conn: DuckDBConnection,
  names: string[],
  unique: Record<string, number>,
): Promise<Record<string, Record<string, number | null>>> {
  const out: Record<string, Record<string, number | null>> = {};
  for (const n of names) setOwn(out, n, {});
  const pairs: [string, string][] = [];
  for (let i = 0; i < names.length; i++) for (let j = i + 1; j < names.length; j++) pairs.push([names[i], names[j]]);
  const row =
    pairs.length > 0
      ? await queryOne(
          conn,
          `SELECT ${pairs.map(([a, b], k) => `corr(CAST(${sqlIdent(a)} AS DOUBLE), CAST(${sqlIdent(b)} AS DOUBLE)) AS c${k}`).join(', ')} FROM ${VIEW}`,
        )
      : {};
  // pandas reports 1 on the diagonal whenever the column has at least two distinct values.
  for (const n of names) setOwn(out[n], n, (getOwn(unique, n) ?? 0) > 1 ? 1 : null);
  pairs.forEach(([a, b], k) => {
    const v = toNumber(row[`c${k}`]);
    setOwn(out[a], b, v);
    setOwn(out[b], a, v);
  });
  return out;
}

/**
 * Rows equal to an earlier row, exactly, without hashing whole rows into one big table: rows are grouped by a
 * 64-bit hash of all columns (8 bytes per row instead of the row), and only rows whose hash occurs more than once
 * are compared in full. Equal rows always share a hash, so rows outside those groups are all distinct.
 */
async function duplicateRows(conn: DuckDBConnection, names: string[]): Promise<number> {
  if (names.length === 0) return 0;
  const h = `hash(${names.map(sqlIdent).join(', ')})`;
  await conn.run(`CREATE OR REPLACE TEMP TABLE dup_hashes AS SELECT h, count(*) AS c FROM (SELECT ${h} AS h FROM ${VIEW}) GROUP BY h HAVING count(*) > 1`);
  try {
    const cand = await queryOne(conn, `SELECT count(*) AS k, coalesce(sum(c), 0) AS rows FROM dup_hashes`);
    if (Number(cand.k) === 0) return 0;
    const distinct = await queryOne(
      conn,
      `SELECT count(*) AS n FROM (SELECT DISTINCT * FROM ${VIEW} WHERE ${h} IN (SELECT h FROM dup_hashes))`,
    );
    return Number(cand.rows) - Number(distinct.n);
  } finally {
    await conn.run('DROP TABLE IF EXISTS dup_hashes');
  }
}

/**
 * Profiles every column of a Parquet file (see module doc for the statistics' definitions).
 * @param parquetPath stored dataset, typically `data.parquet` written by `ingestFile`
 */
export async function analyze(parquetPath: string): Promise<DatasetProfile> {
  return withConnection(async (conn) => {
    const cols = await openTable(conn, parquetPath, VIEW);
    const rowCount = Number((await queryOne(conn, `SELECT count(*) AS n FROM ${VIEW}`)).n);
    const numericNames = cols.filter((c) => isNumeric(c.dtype)).map((c) => c.name);
    const numeric = await numericProfiles(conn, numericNames, rowCount);
    const columns: Record<string, ColumnProfile> = {};
    for (const c of cols) {
      if (isNumeric(c.dtype)) setOwn(columns, c.name, { ...numeric[c.name], dtype: c.dtype });
      else setOwn(columns, c.name, await categoricalProfile(conn, c.name, c.dtype, rowCount));
    }
    const duplicates = await duplicateRows(conn, cols.map((c) => c.name));
    const memSel = cols
      .map((c) => {
        if (c.dtype === 'bool') return `count(*)`;
        if (c.dtype === 'object' || c.dtype === 'category')
          return `8 * count(*) + coalesce(sum(strlen(${sqlIdent(c.name)})), 0)`;
        return `8 * count(*)`;
      })
      .join(' + ');
    const mem = cols.length > 0 ? Number((await queryOne(conn, `SELECT ${memSel} AS m FROM ${VIEW}`)).m) : 0;
    return {
      columns,
      row_count: rowCount,
      duplicate_rows: duplicates,
      memory_usage: mem,
      correlations: await correlations(conn, numericNames, Object.fromEntries(numericNames.map((n) => [n, columns[n].unique]))),
    };
  });
}

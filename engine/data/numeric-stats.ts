/**
 * The per-column statistics behind a numeric profile, computed by DuckDB in two passes (the second needs the first's
 * mean, quartiles and range), in one of two layouts:
 *
 * - by column (`columns`): every statistic of every column is its own aggregate of one query per pass (batched, see
 *   {@link aggregateInBatches}). The cost is a scan plus a few milliseconds per column to bind and start the
 *   aggregates, which is nothing next to the scan of a tall table.
 * - by cell (`cells`): a batch of columns is unpivoted into (column, value) rows and aggregated GROUP BY column, so a
 *   query holds the same few aggregates however many columns it covers. On a wide, short table (2,000 columns ×
 *   20 rows) this is tens of times faster than the by-column layout, whose per-column cost is then all there is.
 *   Values are compared as DOUBLE (int64 values beyond 2^53 lose precision, as they do in the JSON profile anyway).
 *
 * {@link numericStats} picks `cells` for tables of at least {@link CELLS_LAYOUT_MIN_COLUMNS} numeric columns whose
 * batches of that many columns stay within {@link CELLS_PER_QUERY} values.
 */
import { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { aggregateInBatches, batches, quantileSql, queryRows, sqlIdent, toNumber } from './duck';
import { HISTOGRAM_BINS, Histogram, equalWidthEdges, histogramBins, sqlDouble } from './histogram';
import { CanonicalTable } from './table';

/** Statistics of one numeric column; null where undefined (no values). */
export interface NumericStats {
  nonNull: number;
  unique: number;
  min: number | null;
  max: number | null;
  mean: number | null;
  std: number | null;
  p25: number | null;
  p50: number | null;
  p75: number | null;
  /** Central moment sums, 1.5-IQR outliers and histogram; null when the column has no values. */
  second: SecondPass | null;
}

/** Results of the second pass for one column. */
export interface SecondPass {
  s2: number;
  s3: number;
  s4: number;
  outliers: number;
  hist: Histogram;
}

/** Which layout computes the statistics (see the module doc). */
export type StatsLayout = 'columns' | 'cells';

/** Numeric columns from which a table is wide enough for the `cells` layout. */
export const CELLS_LAYOUT_MIN_COLUMNS = 64;
/**
 * Values one `cells` query unpivots at most (16 bytes each in its hash aggregation, which spills past DuckDB's memory
 * limit; quantile states hold the values too). Also bounds the table's height for that layout: 4M values / 64 columns
 * = 62,500 rows.
 */
export const CELLS_PER_QUERY = 4_000_000;
/** Columns one `cells` query unpivots at most: the unpivot's own select list stays small to bind. */
const CELLS_MAX_COLUMNS = 512;

/** The layout {@link numericStats} uses for `columns` numeric columns of `rows` rows. */
export function statsLayout(columns: number, rows: number): StatsLayout {
  return columns >= CELLS_LAYOUT_MIN_COLUMNS && rows * CELLS_LAYOUT_MIN_COLUMNS <= CELLS_PER_QUERY ? 'cells' : 'columns';
}

/** The first pass's results that the second pass needs. */
interface Ranged {
  mean: number;
  p25: number;
  p75: number;
  min: number;
  max: number;
}

const hasRange = (s: NumericStats): s is NumericStats & Ranged =>
  s.mean !== null && s.min !== null && s.max !== null && s.p25 !== null && s.p75 !== null;

function quantiles(v: DuckDBValue): [number | null, number | null, number | null] {
  const items = (v as { items?: DuckDBValue[] } | null)?.items ?? [];
  return [toNumber(items[0] ?? null), toNumber(items[1] ?? null), toNumber(items[2] ?? null)];
}

/** 1.5-IQR outlier bounds. */
function fences(s: Ranged): [number, number] {
  const iqr = s.p75 - s.p25;
  return [s.p25 - 1.5 * iqr, s.p75 + 1.5 * iqr];
}

/**
 * By-column layout (see the module doc). Quartiles are exact while their states fit the budget of one query (see
 * `quantileSql`): a tall table's are estimated, and the outlier fences and IQR follow them.
 */
async function byColumn(conn: DuckDBConnection, table: CanonicalTable, names: string[], rowCount: number): Promise<NumericStats[]> {
  const items = names.flatMap((n, i) => {
    const c = sqlIdent(n);
    return [
      `count(${c}) AS n${i}`,
      `count(DISTINCT ${c}) AS u${i}`,
      `min(${c}) AS min${i}`,
      `max(${c}) AS max${i}`,
      `avg(${c}) AS mean${i}`,
      `stddev_samp(${c}) AS std${i}`,
      `${quantileSql(c, '[0.25, 0.5, 0.75]', rowCount)} AS q${i}`,
    ].map((sql) => ({ sql, columns: [n] }));
  });
  const agg = await aggregateInBatches(conn, items, table.relation, { rows: rowCount });
  const stats: NumericStats[] = names.map((_, i) => {
    const [p25, p50, p75] = quantiles(agg[`q${i}`]);
    return {
      nonNull: Number(agg[`n${i}`]),
      unique: Number(agg[`u${i}`]),
      min: toNumber(agg[`min${i}`]),
      max: toNumber(agg[`max${i}`]),
      mean: toNumber(agg[`mean${i}`]),
      std: toNumber(agg[`std${i}`]),
      p25,
      p50,
      p75,
      second: null,
    };
  });
  // Subsets are CASE expressions, not FILTER clauses: DuckDB copies the input chunk for each filtered aggregate,
  // which grows with columns² on a wide table.
  const parts = names.flatMap((name, i) => {
    const s = stats[i];
    if (!hasRange(s)) return [];
    const x = `CAST(${sqlIdent(name)} AS DOUBLE)`;
    const d = `(${x} - ${sqlDouble(s.mean)})`;
    const [lo, hi] = fences(s);
    const bins = histogramBins(x, s.min, s.max);
    const sqls = [
      `sum(${d} * ${d}) AS s2_${i}`,
      `sum(${d} * ${d} * ${d}) AS s3_${i}`,
      `sum(${d} * ${d} * ${d} * ${d}) AS s4_${i}`,
      `count(CASE WHEN ${x} < ${sqlDouble(lo)} OR ${x} > ${sqlDouble(hi)} THEN 1 END) AS o_${i}`,
      // NULL x must not reach the bin expression (least/greatest skip NULLs: it would land in bin 0).
      `histogram(CASE WHEN ${x} IS NOT NULL THEN ${bins.index} END) AS h_${i}`,
    ];
    return [{ i, bins, items: sqls.map((sql) => ({ sql, columns: [name] })) }];
  });
  const r = await aggregateInBatches(conn, parts.flatMap((p) => p.items), table.relation);
  for (const { i, bins } of parts) {
    stats[i].second = {
      s2: toNumber(r[`s2_${i}`]) ?? 0,
      s3: toNumber(r[`s3_${i}`]) ?? 0,
      s4: toNumber(r[`s4_${i}`]) ?? 0,
      outliers: Number(r[`o_${i}`]),
      hist: bins.counts(r[`h_${i}`]),
    };
  }
  return stats;
}

const CELLS = 'numeric_cells';
const PARAMS = 'numeric_params';

/**
 * By-cell layout (see the module doc) for one batch of columns: the batch's non-null values are unpivoted once into
 * a table of (k, x), k the column's position in the batch; the second pass joins each value with its column's
 * mean, fences and histogram range, appended as plain doubles (no SQL literals to bind).
 */
async function byCellBatch(conn: DuckDBConnection, table: CanonicalTable, names: string[]): Promise<NumericStats[]> {
  const select = names.map((n, k) => `CAST(${sqlIdent(n)} AS DOUBLE) AS "${k}"`).join(', ');
  // UNPIVOT leaves NULLs out, so every aggregate below reads only values.
  await conn.run(
    `CREATE OR REPLACE TABLE ${CELLS} AS SELECT CAST(k AS INTEGER) AS k, x
     FROM (UNPIVOT (SELECT ${select} FROM ${table.relation(names)}) ON COLUMNS(*) INTO NAME k VALUE x)`,
  );
  try {
    const stats: NumericStats[] = names.map(() => ({
      nonNull: 0, unique: 0, min: null, max: null, mean: null, std: null, p25: null, p50: null, p75: null, second: null,
    }));
    const first = await queryRows(
      conn,
      `SELECT k, count(x) AS n, count(DISTINCT x) AS u, min(x) AS mn, max(x) AS mx, avg(x) AS mean, stddev_samp(x) AS std,
         quantile_cont(x, [0.25, 0.5, 0.75]) AS q
       FROM ${CELLS} GROUP BY k`,
    );
    for (const r of first) {
      const [p25, p50, p75] = quantiles(r.q);
      stats[Number(r.k)] = {
        nonNull: Number(r.n),
        unique: Number(r.u),
        min: toNumber(r.mn),
        max: toNumber(r.mx),
        mean: toNumber(r.mean),
        std: toNumber(r.std),
        p25,
        p50,
        p75,
        second: null,
      };
    }
    await conn.run(
      `CREATE OR REPLACE TABLE ${PARAMS} (k INTEGER, mean DOUBLE, lo DOUBLE, hi DOUBLE, first DOUBLE, step DOUBLE, last DOUBLE, norm DOUBLE)`,
    );
    const appender = await conn.createAppender(PARAMS);
    const ranged: number[] = [];
    stats.forEach((s, k) => {
      if (!hasRange(s)) return;
      ranged.push(k);
      // The same edges as histogramBins (numpy's linspace): edge i = i * step + first, the last one exactly `last`.
      const edges = equalWidthEdges(s.min, s.max, HISTOGRAM_BINS);
      const first0 = edges[0];
      const last = edges[HISTOGRAM_BINS];
      const [lo, hi] = fences(s);
      appender.appendInteger(k);
      for (const v of [s.mean, lo, hi, first0, (last - first0) / HISTOGRAM_BINS, last, HISTOGRAM_BINS / (last - first0)]) appender.appendDouble(v);
      appender.endRow();
    });
    appender.closeSync();
    if (ranged.length === 0) return stats;
    // numpy's bin, as histogramBins computes it, from the joined parameters instead of literals.
    const b = HISTOGRAM_BINS;
    const edge = (i: string): string => `CASE WHEN ${i} = ${b} THEN last ELSE CAST(${i} AS DOUBLE) * step + first END`;
    const second = await queryRows(
      conn,
      `SELECT k, sum(d * d) AS s2, sum(d * d * d) AS s3, sum(d * d * d * d) AS s4,
         count(CASE WHEN x < lo OR x > hi THEN 1 END) AS o, histogram(bin) AS h
       FROM (
         SELECT k, x, x - mean AS d, lo, hi,
           CASE WHEN x < ${edge('i0')} THEN i0 - 1 WHEN i0 <> ${b - 1} AND x >= ${edge('i0 + 1')} THEN i0 + 1 ELSE i0 END AS bin
         FROM (SELECT c.k, c.x, p.mean, p.lo, p.hi, p.first, p.step, p.last,
                 least(greatest(CAST(floor((c.x - p.first) * p.norm) AS BIGINT), 0), ${b - 1}) AS i0
               FROM ${CELLS} c JOIN ${PARAMS} p ON c.k = p.k))
       GROUP BY k`,
    );
    for (const r of second) {
      const k = Number(r.k);
      const s = stats[k];
      if (!hasRange(s)) continue;
      s.second = {
        s2: toNumber(r.s2) ?? 0,
        s3: toNumber(r.s3) ?? 0,
        s4: toNumber(r.s4) ?? 0,
        outliers: Number(r.o),
        hist: histogramBins('x', s.min, s.max).counts(r.h),
      };
    }
    return stats;
  } finally {
    await conn.run(`DROP TABLE IF EXISTS ${CELLS}`);
    await conn.run(`DROP TABLE IF EXISTS ${PARAMS}`);
  }
}

/**
 * Statistics of the numeric columns `names` of `table` (`rowCount` rows), in `layout` (default: see
 * {@link statsLayout}). Both layouts give the same numbers up to floating-point summation order.
 */
export async function numericStats(
  conn: DuckDBConnection,
  table: CanonicalTable,
  names: string[],
  rowCount: number,
  layout: StatsLayout = statsLayout(names.length, rowCount),
): Promise<NumericStats[]> {
  if (layout === 'columns') return byColumn(conn, table, names, rowCount);
  const perQuery = Math.max(1, Math.min(CELLS_MAX_COLUMNS, Math.floor(CELLS_PER_QUERY / Math.max(1, rowCount))));
  const out: NumericStats[] = [];
  for (const batch of batches(names, perQuery)) out.push(...(await byCellBatch(conn, table, batch)));
  return out;
}

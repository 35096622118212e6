/**
 * The per-column statistics behind a categorical profile: distinct count, non-null count, the most frequent values
 * and (for datetimes) the range. Like numeric-stats.ts, two layouts:
 *
 * - by column: per column one hash aggregation of its values, as a scalar subquery; a query holds up to
 *   {@link DISTINCT_AGGREGATES_PER_QUERY} of them (each hash table costs about as much as a distinct count).
 * - by cell: a batch of columns is unpivoted into (column, value) rows and counted GROUP BY column, value; a
 *   query's cost no longer grows with its number of columns. Unpivoting needs one type: datetime columns are
 *   unpivoted together as TIMESTAMP, the others as VARCHAR, which orders and names values as the by-column layout
 *   does (booleans are 'false' < 'true').
 */
import { setOwn } from '../own-keys';
import { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { ColumnInfo } from './dtypes';
import { batches, DISTINCT_AGGREGATES_PER_QUERY, queryOne, queryRows, sqlIdent, toJsonSafe } from './duck';
import { CELLS_PER_QUERY, StatsLayout, statsLayout } from './numeric-stats';
import { CanonicalTable } from './table';

/** Number of most frequent values reported for categorical columns. */
export const TOP_VALUES = 10;

/** Statistics of one non-numeric column. */
export interface CategoricalStats {
  unique: number;
  nonNull: number;
  /** Up to {@link TOP_VALUES} most frequent values (count desc, then value asc) → count. */
  top: Record<string, number>;
  /** Earliest/latest value (datetime columns only; ISO-8601). */
  min: string | null;
  max: string | null;
}

/** The 10 smallest (count desc, value asc) by a struct key: what ORDER BY n DESC, v ASC LIMIT 10 returns. */
const KEY = '{a: -n, b: v}';
const CELLS_MAX_COLUMNS = 512;

function topOf(values: DuckDBValue, counts: DuckDBValue): Record<string, number> {
  const vs = (values as { items?: DuckDBValue[] } | null)?.items ?? [];
  const ns = (counts as { items?: DuckDBValue[] } | null)?.items ?? [];
  const top: Record<string, number> = {};
  vs.forEach((v, i) => setOwn(top, String(toJsonSafe(v)), Number(ns[i])));
  return top;
}

function isoOrNull(v: DuckDBValue): string | null {
  const j = toJsonSafe(v);
  return j === null ? null : String(j);
}

async function byColumn(conn: DuckDBConnection, table: CanonicalTable, cols: ColumnInfo[]): Promise<CategoricalStats[]> {
  const out: CategoricalStats[] = [];
  for (const batch of batches(cols, DISTINCT_AGGREGATES_PER_QUERY)) {
    const parts = batch.map((col, i) => {
      const c = sqlIdent(col.name);
      return `(SELECT {u: count(*), nn: coalesce(sum(n), 0), mn: min(v), mx: max(v),
                       tv: min_by(v, ${KEY}, ${TOP_VALUES}), tn: min_by(n, ${KEY}, ${TOP_VALUES})}
               FROM (SELECT ${c} AS v, count(*) AS n FROM ${table.relation([col.name])} WHERE ${c} IS NOT NULL GROUP BY 1)) AS p${i}`;
    });
    const row = await queryOne(conn, `SELECT ${parts.join(', ')}`);
    batch.forEach((col, i) => {
      const agg = (row[`p${i}`] as { entries?: Record<string, DuckDBValue> } | null)?.entries;
      if (!agg) throw new Error(`no statistics for column ${col.name}`);
      const datetime = col.dtype === 'datetime64';
      out.push({
        unique: Number(agg.u),
        nonNull: Number(agg.nn),
        top: topOf(agg.tv, agg.tn),
        min: datetime ? isoOrNull(agg.mn) : null,
        max: datetime ? isoOrNull(agg.mx) : null,
      });
    });
  }
  return out;
}

async function byCellBatch(
  conn: DuckDBConnection,
  table: CanonicalTable,
  names: string[],
  type: 'VARCHAR' | 'TIMESTAMP',
): Promise<CategoricalStats[]> {
  const select = names.map((n, k) => `CAST(${sqlIdent(n)} AS ${type}) AS "${k}"`).join(', ');
  // UNPIVOT leaves NULLs out: the groups are the non-null values.
  const rows = await queryRows(
    conn,
    `SELECT k, count(*) AS u, sum(n) AS nn, min(v) AS mn, max(v) AS mx,
       min_by(v, ${KEY}, ${TOP_VALUES}) AS tv, min_by(n, ${KEY}, ${TOP_VALUES}) AS tn
     FROM (SELECT CAST(k AS INTEGER) AS k, v, count(*) AS n
           FROM (UNPIVOT (SELECT ${select} FROM ${table.relation(names)}) ON COLUMNS(*) INTO NAME k VALUE v)
           GROUP BY ALL)
     GROUP BY k`,
  );
  const out: CategoricalStats[] = names.map(() => ({ unique: 0, nonNull: 0, top: {}, min: null, max: null }));
  const datetime = type === 'TIMESTAMP';
  for (const r of rows) {
    out[Number(r.k)] = {
      unique: Number(r.u),
      nonNull: Number(r.nn),
      top: topOf(r.tv, r.tn),
      min: datetime ? isoOrNull(r.mn) : null,
      max: datetime ? isoOrNull(r.mx) : null,
    };
  }
  return out;
}

/**
 * Statistics of the non-numeric columns `cols` of `table` (`rowCount` rows), in `layout` (default: as numeric
 * statistics choose, see `statsLayout`). Returned in the order of `cols`.
 */
export async function categoricalStats(
  conn: DuckDBConnection,
  table: CanonicalTable,
  cols: ColumnInfo[],
  rowCount: number,
  layout: StatsLayout = statsLayout(cols.length, rowCount),
): Promise<CategoricalStats[]> {
  if (layout === 'columns') return byColumn(conn, table, cols);
  const found = new Map<string, CategoricalStats>();
  const perQuery = Math.max(1, Math.min(CELLS_MAX_COLUMNS, Math.floor(CELLS_PER_QUERY / Math.max(1, rowCount))));
  for (const type of ['VARCHAR', 'TIMESTAMP'] as const) {
    const ofType = cols.filter((c) => (c.dtype === 'datetime64') === (type === 'TIMESTAMP')).map((c) => c.name);
    for (const names of batches(ofType, perQuery)) {
      (await byCellBatch(conn, table, names, type)).forEach((s, i) => found.set(names[i], s));
    }
  }
  return cols.map((c) => found.get(c.name) as CategoricalStats);
}

/**
 * Equal-width histograms computed by DuckDB with numpy.histogram's exact binning rules, so counts
 * match `numpy.histogram(x, bins)` bit for bit (edges from linspace, last bin closed on the right).
 */
import { DuckDBConnection } from '@duckdb/node-api';
import { queryRows, sqlIdent, sqlString } from './duck';

/** Counts per bin and the bins' edges (length counts.length + 1). */
export interface Histogram {
  counts: number[];
  bin_edges: number[];
}

/** Default number of bins. */
export const HISTOGRAM_BINS = 20;

/** numpy.linspace(first, last, bins + 1) edges; a constant column gets numpy's [v - 0.5, v + 0.5] range. */
export function equalWidthEdges(min: number, max: number, bins: number): number[] {
  let first = min;
  let last = max;
  if (first === last) {
    first -= 0.5;
    last += 0.5;
  }
  const step = (last - first) / bins;
  const edges = Array.from({ length: bins + 1 }, (_, i) => i * step + first);
  edges[bins] = last;
  return edges;
}

/** A double as an exactly-parsed SQL literal (a bare 0.1 would be a DECIMAL in DuckDB). */
export function sqlDouble(x: number): string {
  return `CAST(${sqlString(String(x))} AS DOUBLE)`;
}

/**
 * Histogram of non-null `column` of `table` between `min` and `max`.
 * Mirrors numpy: index = floor((x - first) * bins / (last - first)), then corrected against the edges.
 */
export async function histogram(
  conn: DuckDBConnection,
  table: string,
  column: string,
  min: number,
  max: number,
  bins = HISTOGRAM_BINS,
): Promise<Histogram> {
  const edges = equalWidthEdges(min, max, bins);
  const first = edges[0];
  const norm = bins / (edges[bins] - first);
  const e = `[${edges.map(sqlDouble).join(', ')}]`;
  const x = `CAST(${sqlIdent(column)} AS DOUBLE)`;
  const rows = await queryRows(
    conn,
    `WITH b AS (
       SELECT ${x} AS x, least(greatest(CAST(floor((${x} - ${sqlDouble(first)}) * ${sqlDouble(norm)}) AS BIGINT), 0), ${bins - 1}) AS i0
       FROM ${table} WHERE ${sqlIdent(column)} IS NOT NULL
     ), c AS (
       SELECT CASE WHEN x < (${e})[i0 + 1] THEN i0 - 1
                   WHEN i0 <> ${bins - 1} AND x >= (${e})[i0 + 2] THEN i0 + 1
                   ELSE i0 END AS i
       FROM b
     )
     SELECT i, count(*) AS n FROM c GROUP BY i`,
  );
  const counts = new Array<number>(bins).fill(0);
  for (const r of rows) {
    const i = Number(r.i);
    if (i >= 0 && i < bins) counts[i] += Number(r.n);
  }
  return { counts, bin_edges: edges };
}

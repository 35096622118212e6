/**
 * Equal-width histograms computed by DuckDB with numpy.histogram's exact binning rules, so counts
 * match `numpy.histogram(x, bins)` bit for bit (edges from linspace, last bin closed on the right).
 */
import { DuckDBMapValue, DuckDBValue } from '@duckdb/node-api';
import { sqlString } from './duck';

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
 * numpy's bin of `x` (a DOUBLE SQL expression) as a SQL expression, for DuckDB's `histogram()` aggregate, so the
 * counts come out of the same scan as other statistics. Mirrors numpy: index = floor((x - first) * bins /
 * (last - first)), clamped, then corrected by one against the linspace edges. `counts` turns the aggregate's MAP
 * into the counts array.
 */
export function histogramBins(
  x: string,
  min: number,
  max: number,
  bins = HISTOGRAM_BINS,
): { index: string; edges: number[]; counts: (map: DuckDBValue) => Histogram } {
  const edges = equalWidthEdges(min, max, bins);
  const first = edges[0];
  const norm = bins / (edges[bins] - first);
  const e = `[${edges.map(sqlDouble).join(', ')}]`;
  const i0 = `least(greatest(CAST(floor((${x} - ${sqlDouble(first)}) * ${sqlDouble(norm)}) AS BIGINT), 0), ${bins - 1})`;
  const index = `CASE WHEN ${x} < (${e})[${i0} + 1] THEN ${i0} - 1
    WHEN ${i0} <> ${bins - 1} AND ${x} >= (${e})[${i0} + 2] THEN ${i0} + 1
    ELSE ${i0} END`;
  const counts = (map: DuckDBValue): Histogram => {
    const out = new Array<number>(bins).fill(0);
    if (map instanceof DuckDBMapValue) {
      for (const { key, value } of map.entries) {
        const i = Number(key);
        if (i >= 0 && i < bins) out[i] += Number(value);
      }
    }
    return { counts: out, bin_edges: edges };
  };
  return { index, edges, counts };
}

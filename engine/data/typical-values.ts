/**
 * A typical value per column of a stored table: what an example input can show without being anyone's row. A numeric
 * column's median (rounded for int64), any other column's most frequent value, each with the number of rows it stands
 * for, so a caller can refuse a "typical" value that only a row or two share (an identifier's most frequent value is
 * just one row's).
 */
import { getOwn, setOwn } from '../own-keys';
import { categoricalStats } from './categorical-stats';
import { aggregateInBatches, JsonSafe, quantileSql, sqlIdent, toNumber, withConnection } from './duck';
import { ColumnInfo } from './dtypes';
import { isNumeric, openCanonical } from './table';

export interface TypicalValue {
  dtype: ColumnInfo['dtype'];
  /** Null when the column holds no value. */
  value: JsonSafe;
  /** Rows behind the value: the non-null rows a median summarizes, or the rows holding the most frequent value. */
  support: number;
}

/**
 * The most frequent entry of a top-values map. Not its first key: a map whose keys look like integers ('3', '10')
 * iterates them in numeric order, not in the count order they were set in. Ties go to the smallest value, as the
 * statistics order them.
 */
function mostFrequent(top: Record<string, number>): [string, number] | null {
  let best: [string, number] | null = null;
  for (const [v, n] of Object.entries(top)) if (!best || n > best[1] || (n === best[1] && v < best[0])) best = [v, n];
  return best;
}

/** A top value (statistics key it as text) back in its column's JSON type. */
function fromKey(key: string, dtype: ColumnInfo['dtype']): JsonSafe {
  if (dtype === 'bool') return key === 'true';
  return key;
}

/**
 * Typical values of the columns `names` of the Parquet file (columns the file lacks are left out). Work is one pass of
 * batched aggregates for the numeric columns and the categorical statistics for the others (see profile.ts).
 */
export async function typicalValues(parquetPath: string, names: readonly string[]): Promise<Record<string, TypicalValue>> {
  return withConnection(async (conn) => {
    const table = await openCanonical(conn, parquetPath);
    const wanted = new Set(names);
    const cols = table.columns.filter((c) => wanted.has(c.name));
    const numeric = cols.filter((c) => isNumeric(c.dtype));
    const other = cols.filter((c) => !isNumeric(c.dtype));
    const out: Record<string, TypicalValue> = {};

    // Exact medians keep every value: past EXACT_QUANTILE_VALUES they are estimated, and batched within that budget.
    const rows = Number((await aggregateInBatches(conn, [{ sql: 'count(*) AS n', columns: [] }], table.relation)).n);
    const items = numeric.flatMap((c, i) => [
      { sql: `count(${sqlIdent(c.name)}) AS n${i}`, columns: [c.name] },
      { sql: `${quantileSql(sqlIdent(c.name), '0.5', rows)} AS m${i}`, columns: [c.name] },
    ]);
    const agg = await aggregateInBatches(conn, items, table.relation, { rows });
    numeric.forEach((c, i) => {
      const median = toNumber(getOwn(agg, `m${i}`) ?? null);
      const value = median === null ? null : c.dtype === 'int64' ? Math.round(median) : median;
      setOwn(out, c.name, { dtype: c.dtype, value, support: Number(getOwn(agg, `n${i}`) ?? 0) });
    });

    if (other.length) {
      const stats = await categoricalStats(conn, table, other, rows);
      other.forEach((c, i) => {
        const top = mostFrequent(stats[i].top);
        setOwn(out, c.name, { dtype: c.dtype, value: top ? fromKey(top[0], c.dtype) : null, support: top ? top[1] : 0 });
      });
    }
    return out;
  });
}

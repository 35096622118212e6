import type { Column, Frame } from '../../engine/automl';

/**
 * The cells of one row of a synthetic batch as CSV fields: empty for missing, whole numbers for integer dtypes,
 * datetimes as `YYYY-MM-DD HH:MM:SS[.mmm]` (what DuckDB reads as TIMESTAMP), categoricals as their level.
 */
export function csvCells(frame: Frame, dtypes: string[]): (row: number) => (string | number | null)[] {
  const getters = frame.columns.map((c, j) => cellGetter(c, dtypes[j]));
  return (row) => getters.map((g) => g(row));
}

function cellGetter(c: Column, dtype: string): (i: number) => string | number | null {
  if (c.kind === 'categorical') return (i) => (c.codes[i] < 0 ? null : c.levels[c.codes[i]]);
  if (c.kind === 'datetime') return (i) => (Number.isNaN(c.epochMs[i]) ? null : timestampText(c.epochMs[i]));
  if (dtype === 'int64') return (i) => (Number.isNaN(c.values[i]) ? null : Math.round(c.values[i]));
  return (i) => (Number.isFinite(c.values[i]) ? c.values[i] : null);
}

function timestampText(ms: number): string {
  const iso = new Date(Math.round(ms)).toISOString();
  const text = iso.slice(0, 10) + ' ' + iso.slice(11, 23);
  return text.endsWith('.000') ? text.slice(0, 19) : text;
}

import type { Column, Frame } from '../../engine/automl';
import type { ColumnSchema, JsonMap } from '../../entities';
import type { SynthColumnMeta, SynthConditions } from '../../engine/synth';
import { ValidationError } from '../errors';

/**
 * What the service keeps of a trained model's columns: the engine's description (kind, whole numbers, range, missing
 * share) plus the stored dtype, and a categorical column's levels (at most {@link MAX_LEVELS_KEPT}), so generation
 * conditions are checked when they are asked for rather than failing the job later.
 */
export interface ModelColumn extends SynthColumnMeta {
  dtype: string;
  levels?: string[];
}

/** Levels kept per categorical column for checking conditions; a column with more is checked by the engine only. */
export const MAX_LEVELS_KEPT = 1000;

/** The model's column summary from the engine's description, the training frame and the version's dtypes. */
export function modelColumns(meta: SynthColumnMeta[], frame: Frame, schema: ColumnSchema[]): ModelColumn[] {
  return meta.map((m) => {
    const j = frame.names.indexOf(m.name);
    const c = j >= 0 ? frame.columns[j] : undefined;
    const dtype = schema.find((s) => s.name === m.name)?.dtype ?? (m.kind === 'numeric' ? 'float64' : m.kind === 'datetime' ? 'datetime64' : 'object');
    return c?.kind === 'categorical' && c.levels.length <= MAX_LEVELS_KEPT ? { ...m, dtype, levels: c.levels.slice() } : { ...m, dtype };
  });
}

/**
 * Checks generation conditions against the model's columns and puts them in the engine's terms: a categorical
 * value as its level text (`true` for a boolean column), a number within the column's range (whole for a whole-number
 * column), a datetime as epoch milliseconds from an ISO 8601 text. 422 naming the condition otherwise.
 */
export function engineConditions(columns: ModelColumn[], conditions: Record<string, unknown>): SynthConditions {
  const out: SynthConditions = {};
  for (const [name, value] of Object.entries(conditions)) {
    const loc = ['body', 'conditions', name];
    const col = columns.find((c) => c.name === name);
    if (!col) throw ValidationError.field(loc, `Unknown column "${name}": conditions name columns of the model's training data`);
    if (value === null || typeof value === 'object') throw ValidationError.field(loc, 'A condition is one value: a string, number or boolean');
    if (col.kind === 'categorical') {
      const level = String(value);
      if (col.levels && !col.levels.includes(level)) throw ValidationError.field(loc, `"${level}" never occurs in column "${name}" of the training data`);
      out[name] = level;
    } else if (col.kind === 'numeric') {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw ValidationError.field(loc, `Column "${name}" is numeric: the condition must be a number`);
      if (col.min !== null && col.max !== null && (value < col.min || value > col.max)) {
        throw ValidationError.field(loc, `${value} is outside the training range of "${name}" (${col.min} to ${col.max})`);
      }
      if (col.integer && !Number.isInteger(value)) throw ValidationError.field(loc, `Column "${name}" holds whole numbers: the condition must be one`);
      out[name] = value;
    } else {
      const ms = typeof value === 'string' ? Date.parse(value) : NaN;
      if (!Number.isFinite(ms)) throw ValidationError.field(loc, `Column "${name}" holds datetimes: the condition must be an ISO 8601 text`);
      if (col.min !== null && col.max !== null && (ms < col.min || ms > col.max)) throw ValidationError.field(loc, `${value} is outside the training range of "${name}"`);
      out[name] = ms;
    }
  }
  return out;
}

/** The rows of a frame that meet the conditions (engine terms), as row indexes. */
export function rowsMeeting(frame: Frame, conditions: SynthConditions): number[] {
  const tests = Object.entries(conditions).map(([name, value]) => {
    const c = frame.columns[frame.names.indexOf(name)];
    if (!c) return () => false;
    if (c.kind === 'categorical') {
      const code = c.levels.indexOf(String(value));
      return (i: number) => c.codes[i] === code;
    }
    const values = c.kind === 'numeric' ? c.values : c.epochMs;
    return (i: number) => values[i] === value;
  });
  const rows: number[] = [];
  for (let i = 0; i < frame.nrows; i++) if (tests.every((t) => t(i))) rows.push(i);
  return rows;
}

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

/** Bins per numeric column and levels per categorical column in the stored distributions. */
const DISTRIBUTION_BINS = 10;
const DISTRIBUTION_LEVELS = 10;
/** Columns whose distributions are kept with a job (the first ones, in table order). */
export const MAX_DISTRIBUTION_COLUMNS = 30;

/**
 * Real against synthetic shares per column, for the report's charts: numeric and datetime columns over ten equal bins
 * of the real range, categoricals over the real data's ten most frequent levels plus `(other)`; missing cells are
 * left out of the shares and counted apart.
 */
export function distributions(real: Frame, synthetic: Frame): JsonMap[] {
  const out: JsonMap[] = [];
  for (let j = 0; j < real.names.length && out.length < MAX_DISTRIBUTION_COLUMNS; j++) {
    const name = real.names[j];
    const r = real.columns[j];
    const s = synthetic.columns[synthetic.names.indexOf(name)];
    if (!s || s.kind !== r.kind) continue;
    if (r.kind === 'categorical' && s.kind === 'categorical') out.push({ column: name, kind: 'categorical', ...categoricalShares(r, s) });
    else if (r.kind !== 'categorical' && s.kind !== 'categorical') out.push({ column: name, kind: r.kind, ...numericShares(valuesOf(r), valuesOf(s)) });
  }
  return out;
}

function valuesOf(c: Exclude<Column, { kind: 'categorical' }>): Float64Array {
  return c.kind === 'numeric' ? c.values : c.epochMs;
}

function numericShares(real: Float64Array, synthetic: Float64Array) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of real) {
    if (Number.isNaN(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo > hi) return { labels: [], real: [], synthetic: [], missing: { real: share(real), synthetic: share(synthetic) } };
  const width = hi > lo ? (hi - lo) / DISTRIBUTION_BINS : 1;
  const bins = hi > lo ? DISTRIBUTION_BINS : 1;
  const count = (values: Float64Array) => {
    const n = new Array<number>(bins).fill(0);
    let present = 0;
    for (const v of values) {
      if (Number.isNaN(v)) continue;
      present++;
      n[Math.min(bins - 1, Math.max(0, Math.floor((v - lo) / width)))]++;
    }
    return n.map((k) => (present ? k / present : 0));
  };
  const labels = Array.from({ length: bins }, (_, b) => lo + b * width);
  return { labels, bin_width: width, real: count(real), synthetic: count(synthetic), missing: { real: share(real), synthetic: share(synthetic) } };
}

function share(values: Float64Array): number {
  let missing = 0;
  for (const v of values) if (Number.isNaN(v)) missing++;
  return values.length ? missing / values.length : 0;
}

function categoricalShares(real: Extract<Column, { kind: 'categorical' }>, synthetic: Extract<Column, { kind: 'categorical' }>) {
  const counts = (c: Extract<Column, { kind: 'categorical' }>) => {
    const m = new Map<string, number>();
    let present = 0;
    for (const code of c.codes) {
      if (code < 0) continue;
      present++;
      const level = c.levels[code];
      m.set(level, (m.get(level) ?? 0) + 1);
    }
    return { m, present, missing: c.codes.length ? (c.codes.length - present) / c.codes.length : 0 };
  };
  const r = counts(real);
  const s = counts(synthetic);
  const top = [...r.m.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, DISTRIBUTION_LEVELS)
    .map(([l]) => l);
  const sharesOf = (x: typeof r) => {
    const shares = top.map((l) => (x.present ? (x.m.get(l) ?? 0) / x.present : 0));
    const other = x.present ? 1 - shares.reduce((a, b) => a + b, 0) : 0;
    return [...shares, Math.max(0, other)];
  };
  return { labels: [...top, '(other)'], real: sharesOf(r), synthetic: sharesOf(s), missing: { real: r.missing, synthetic: s.missing } };
}

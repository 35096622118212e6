/**
 * The statistics an operation needs, computed on its input with small aggregate queries before it is compiled
 * (compile.ts inlines them as literals): the mean, median or mode an `impute` fills in, the fences of
 * `handle_outliers`, the categories of `one_hot_encode`, the codes of `ordinal_encode`, the edges of `bin`, the date
 * format `parse_dates` reads. Also the checks that need the data: a value `cast` (with `on_error: 'fail'`) cannot
 * convert, a date format that matches nothing, a `join` whose right keys repeat.
 *
 * Ties are broken by value, so the same input always resolves the same way (previews are deterministic).
 */
import { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { quantileSql, queryOne, queryRows, sqlIdent as id, sqlString, toJsonSafe, toNumber } from '../data/duck';
import { castSql, CompileContext, parseDatesSql, RelationColumn, Resolved } from './compile';
import { OperationError } from './errors';
import { numberLiteral } from './expression';
import { Operation } from './operations';
import { DEFAULT_BINS, DEFAULT_IQR_FACTOR, DEFAULT_PERCENTILES, isNumber } from './validate';

/** Most distinct values `ordinal_encode` codes without an explicit order. */
export const MAX_ORDINAL_VALUES = 1000;
/** Non-null values `parse_dates` tries the candidate formats on when none is given. */
export const DATE_SNIFF_VALUES = 10_000;
/** Longest column name the canonical table keeps (operations.ts allows no longer). */
const MAX_NAME = 256;

/**
 * Formats `parse_dates` tries without one, in order (the first that parses most values wins): DuckDB's own ISO
 * reading (null) first, then the common ISO, US and European forms.
 */
export const DATE_FORMATS: readonly (string | null)[] = [
  null,
  '%Y/%m/%d',
  '%m/%d/%Y',
  '%d/%m/%Y',
  '%d.%m.%Y',
  '%d-%m-%Y',
  '%m/%d/%Y %H:%M',
  '%d/%m/%Y %H:%M',
  '%m/%d/%Y %H:%M:%S',
  '%d/%m/%Y %H:%M:%S',
  '%Y%m%d',
  '%d %b %Y',
  '%b %d, %Y',
];

/** How the data of one operation's input is reached. */
export interface ResolveContext extends CompileContext {
  /** At least as many rows as the relation holds (chooses exact or approximate quantiles). */
  rowsBound: number;
  /** Opened right-hand sides of joins, by dataset version id. */
  joins: Record<string, { relation: string; columns: RelationColumn[] }>;
}

/** A value as people read it in a message: text quoted, at most 80 characters. */
function shown(v: DuckDBValue): string {
  const s = String(toJsonSafe(v));
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 77)}...` : s);
}

/** Statistics and checks of `op` (the `index`-th) on `ctx.from`. */
export async function resolveOperation(conn: DuckDBConnection, op: Operation, index: number, ctx: ResolveContext): Promise<Resolved> {
  const fail = (detail: string): never => {
    throw new OperationError(index, op.op, detail);
  };
  const column = (name: string): RelationColumn => ctx.columns.find((c) => c.name === name) ?? fail(`no column named ${JSON.stringify(name)}`);
  switch (op.op) {
    case 'cast': {
      if (op.on_error === 'fail') {
        const c = column(op.column);
        const rows = await queryRows(conn, `SELECT CAST(${id(c.name)} AS VARCHAR) AS v FROM ${ctx.from} WHERE ${id(c.name)} IS NOT NULL AND ${castSql(c.name, c.duckType, op.to)} IS NULL LIMIT 1`);
        if (rows.length) fail(`the value ${shown(rows[0].v)} of column ${JSON.stringify(c.name)} does not convert to ${op.to}`);
      }
      return {};
    }
    case 'parse_dates': {
      const c = column(op.column);
      const dateFormat = await resolveDateFormat(conn, op, c, ctx, fail);
      if (op.on_error === 'fail') {
        const parsed = parseDatesSql(c.name, c.duckType, dateFormat);
        const rows = await queryRows(conn, `SELECT CAST(${id(c.name)} AS VARCHAR) AS v FROM ${ctx.from} WHERE ${id(c.name)} IS NOT NULL AND ${parsed} IS NULL LIMIT 1`);
        if (rows.length) fail(`the value ${shown(rows[0].v)} of column ${JSON.stringify(c.name)} is not a date${dateFormat ? ` in the format ${JSON.stringify(dateFormat)}` : ''}`);
      }
      return { dateFormat };
    }
    case 'impute':
      return { fill: await resolveFill(conn, op, column(op.column), ctx, fail) };
    case 'handle_outliers':
      return { bounds: await resolveBounds(conn, op, column(op.column), ctx) };
    case 'one_hot_encode':
      return { categories: await resolveCategories(conn, op, ctx, fail) };
    case 'ordinal_encode': {
      if (op.order) return { order: op.order };
      const col = id(op.column);
      const rows = await queryRows(conn, `SELECT CAST(v AS VARCHAR) AS v FROM (SELECT DISTINCT ${col} AS v FROM ${ctx.from} WHERE ${col} IS NOT NULL) ORDER BY v LIMIT ${MAX_ORDINAL_VALUES + 1}`);
      if (rows.length > MAX_ORDINAL_VALUES) fail(`column ${JSON.stringify(op.column)} has more than ${MAX_ORDINAL_VALUES} distinct values; give an order, or use bin or one_hot_encode`);
      return { order: rows.map((r) => String(r.v)) };
    }
    case 'bin':
      return { edges: await resolveEdges(conn, op, ctx) };
    case 'join':
      return { join: await resolveJoin(conn, op, ctx, fail) };
    default:
      return {};
  }
}

async function resolveDateFormat(
  conn: DuckDBConnection,
  op: Extract<Operation, { op: 'parse_dates' }>,
  c: RelationColumn,
  ctx: ResolveContext,
  fail: (detail: string) => never,
): Promise<string | null> {
  if (isNumber(c.dtype) && c.dtype !== 'int64') fail(`column ${JSON.stringify(c.name)} is ${c.dtype}, not text`);
  if (c.dtype === 'datetime64') return null;
  const values = `(SELECT trim(CAST(${id(c.name)} AS VARCHAR)) AS v FROM ${ctx.from} WHERE ${id(c.name)} IS NOT NULL LIMIT ${DATE_SNIFF_VALUES})`;
  const candidates = op.format !== undefined ? [op.format] : DATE_FORMATS;
  let counts: Record<string, DuckDBValue>;
  try {
    const items = candidates.map((f, i) => `count(${parseDatesSql('v', 'VARCHAR', f)}) AS ${id(`f${i}`)}`);
    counts = await queryOne(conn, `SELECT count(*) AS n, ${items.join(', ')} FROM ${values}`);
  } catch (err) {
    const m = String((err as { message?: unknown }).message ?? err);
    if (op.format !== undefined && /format specifier|strptime/i.test(m)) fail(`${JSON.stringify(op.format)} is not a valid date format: ${m.split('\n')[0]}`);
    throw err;
  }
  if (Number(counts.n) === 0) return op.format ?? null;
  let best = 0;
  candidates.forEach((_, i) => {
    if (Number(counts[`f${i}`]) > Number(counts[`f${best}`])) best = i;
  });
  if (Number(counts[`f${best}`]) === 0) {
    const first = await queryOne(conn, `SELECT v FROM ${values} LIMIT 1`);
    if (op.format !== undefined) fail(`no value of column ${JSON.stringify(c.name)} matches the format ${JSON.stringify(op.format)} (for example ${shown(first.v)})`);
    fail(`no known date format matches the values of column ${JSON.stringify(c.name)} (for example ${shown(first.v)}); give a format such as "%d/%m/%Y"`);
  }
  return candidates[best];
}

/** A SQL literal of `value` as the type of column `c`. */
function literalFor(c: RelationColumn, value: string | number | boolean, fail: (detail: string) => never): string {
  if (typeof value === 'number') return numberLiteral(value, c.dtype === 'int64' && Number.isInteger(value));
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (c.dtype === 'datetime64') {
    if (!/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?$/.test(value)) fail(`${JSON.stringify(value)} is not a date (write "YYYY-MM-DD" or "YYYY-MM-DD HH:MM:SS")`);
    return `CAST(${sqlString(value)} AS TIMESTAMP)`;
  }
  return sqlString(value);
}

async function resolveFill(conn: DuckDBConnection, op: Extract<Operation, { op: 'impute' }>, c: RelationColumn, ctx: ResolveContext, fail: (detail: string) => never): Promise<string | null> {
  const col = id(c.name);
  switch (op.strategy) {
    case 'constant':
      return literalFor(c, op.value!, fail);
    case 'mean':
    case 'median': {
      const agg = op.strategy === 'mean' ? `avg(CAST(${col} AS DOUBLE))` : quantileSql(`CAST(${col} AS DOUBLE)`, '0.5', ctx.rowsBound);
      const v = toNumber((await queryOne(conn, `SELECT ${agg} AS v FROM ${ctx.from}`)).v);
      return v === null ? null : numberLiteral(v, false);
    }
    case 'mode': {
      const rows = await queryRows(conn, `SELECT CAST(${col} AS VARCHAR) AS v FROM ${ctx.from} WHERE ${col} IS NOT NULL GROUP BY ${col} ORDER BY count(*) DESC, ${col} LIMIT 1`);
      return rows.length ? `CAST(${sqlString(String(rows[0].v))} AS ${c.duckType})` : null;
    }
  }
}

async function resolveBounds(conn: DuckDBConnection, op: Extract<Operation, { op: 'handle_outliers' }>, c: RelationColumn, ctx: ResolveContext): Promise<Resolved['bounds']> {
  const x = `CAST(${id(c.name)} AS DOUBLE)`;
  const [pa, pb] = op.method === 'iqr' ? [25, 75] : [op.lower_percentile ?? DEFAULT_PERCENTILES[0], op.upper_percentile ?? DEFAULT_PERCENTILES[1]];
  const q = await queryOne(conn, `SELECT ${quantileSql(x, String(pa / 100), ctx.rowsBound)} AS a, ${quantileSql(x, String(pb / 100), ctx.rowsBound)} AS b FROM ${ctx.from}`);
  const a = toNumber(q.a);
  const b = toNumber(q.b);
  if (a === null || b === null) return null;
  const f = op.factor ?? DEFAULT_IQR_FACTOR;
  let [lo, hi] = op.method === 'iqr' ? [a - f * (b - a), b + f * (b - a)] : [a, b];
  // Clipping whole numbers to whole bounds (inside the fences) keeps the column int64.
  if (c.dtype === 'int64' && op.action === 'clip') {
    [lo, hi] = [Math.ceil(lo), Math.floor(hi)];
    if (lo > hi) lo = hi = Math.round((a + b) / 2);
    return { lo: numberLiteral(lo, true), hi: numberLiteral(hi, true) };
  }
  return { lo: numberLiteral(lo, false), hi: numberLiteral(hi, false) };
}

async function resolveCategories(
  conn: DuckDBConnection,
  op: Extract<Operation, { op: 'one_hot_encode' }>,
  ctx: ResolveContext,
  fail: (detail: string) => never,
): Promise<NonNullable<Resolved['categories']>> {
  const col = id(op.column);
  const rows = await queryRows(conn, `SELECT CAST(${col} AS VARCHAR) AS v, count(*) AS n FROM ${ctx.from} WHERE ${col} IS NOT NULL GROUP BY 1 ORDER BY n DESC, v LIMIT ${op.max_categories + 1}`);
  const values = rows.slice(0, op.max_categories).map((r) => String(r.v));
  const taken = new Set(ctx.columns.filter((c) => op.keep_original || c.name !== op.column).map((c) => c.name));
  const made = new Set<string>();
  const nameFor = (suffix: string): string => {
    let name = `${op.column}_${suffix}`.slice(0, MAX_NAME);
    // Two long values cut to the same name: numbered apart.
    for (let i = 2; made.has(name); i++) name = `${`${op.column}_${suffix}`.slice(0, MAX_NAME - String(i).length - 1)}~${i}`;
    if (taken.has(name)) fail(`the new column ${JSON.stringify(name)} would replace an existing column; rename that one first`);
    made.add(name);
    return name;
  };
  const names = values.map(nameFor);
  const other = rows.length > op.max_categories ? nameFor('other') : null;
  return { values, names, other };
}

async function resolveEdges(conn: DuckDBConnection, op: Extract<Operation, { op: 'bin' }>, ctx: ResolveContext): Promise<NonNullable<Resolved['edges']>> {
  if (op.edges) return { edges: op.edges, clamp: false };
  const k = op.bins ?? DEFAULT_BINS;
  const x = `CAST(${id(op.column)} AS DOUBLE)`;
  if (op.strategy === 'equal_width') {
    const r = await queryOne(conn, `SELECT min(${x}) AS lo, max(${x}) AS hi FROM ${ctx.from}`);
    const lo = toNumber(r.lo);
    const hi = toNumber(r.hi);
    if (lo === null || hi === null) return { edges: [], clamp: true };
    if (lo === hi) return { edges: [lo, hi], clamp: true };
    return { edges: Array.from({ length: k + 1 }, (_, i) => (i === k ? hi : lo + ((hi - lo) * i) / k)), clamp: true };
  }
  const items = Array.from({ length: k + 1 }, (_, i) => `${quantileSql(x, String(i / k), ctx.rowsBound)} AS ${id(`q${i}`)}`);
  const r = await queryOne(conn, `SELECT ${items.join(', ')} FROM ${ctx.from}`);
  const qs = Array.from({ length: k + 1 }, (_, i) => toNumber(r[`q${i}`])).filter((v): v is number => v !== null);
  // Repeated values make equal quantiles: one edge each (fewer bins).
  return { edges: [...new Set(qs)], clamp: true };
}

async function resolveJoin(conn: DuckDBConnection, op: Extract<Operation, { op: 'join' }>, ctx: ResolveContext, fail: (detail: string) => never): Promise<NonNullable<Resolved['join']>> {
  const right = Object.hasOwn(ctx.joins, op.dataset_version_id) ? ctx.joins[op.dataset_version_id] : fail(`dataset version ${op.dataset_version_id} is not available to join`);
  const keys = op.on.map((k) => id(k.right));
  const repeated = await queryRows(
    conn,
    `SELECT ${keys.map((k, i) => `CAST(${k} AS VARCHAR) AS ${id(`k${i}`)}`).join(', ')}, count(*) AS n FROM ${right.relation}
     WHERE ${keys.map((k) => `${k} IS NOT NULL`).join(' AND ')} GROUP BY ${keys.join(', ')} HAVING count(*) > 1 ORDER BY n DESC LIMIT 1`,
  );
  if (repeated.length) {
    const where = op.on.map((k, i) => `${JSON.stringify(k.right)} = ${shown(repeated[0][`k${i}`])}`).join(' and ');
    fail(`the joined version has ${Number(repeated[0].n)} rows where ${where}; its key columns must be unique, or the join would multiply rows`);
  }
  return right;
}

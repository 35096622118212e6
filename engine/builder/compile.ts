/**
 * One operation → one DuckDB `SELECT` over the relation the operations before it leave. Statistics the operation
 * needs (an imputed mean, outlier fences, one-hot categories, bin edges...) were computed beforehand (resolve.ts)
 * and arrive here as {@link Resolved} values, inlined as literals. Every name goes through `sqlIdent`, every value
 * through `sqlString` or a re-rendered number: no text of an operation reaches SQL as it is.
 *
 * Each SELECT keeps the input's columns in place (`* EXCLUDE`/`* REPLACE`, which keep the SQL short for tables of
 * thousands of columns) and appends new ones at the end, with the hidden row-number column passing through.
 */
import { baseDtype } from '../data/dtypes';
import { sqlIdent as id, sqlString } from '../data/duck';
import { compileExpression, duckTypeOf, numberLiteral, parseExpression } from './expression';
import { joinedColumns, missingIndicatorName, outlierFlagName } from './validate';
import { ColumnInfo } from '../data/dtypes';
import { Operation } from './operations';

/** A column of the relation an operation reads, with its DuckDB type (the canonical stored types). */
export interface RelationColumn extends ColumnInfo {
  duckType: string;
}

/** Statistics and facts an operation was resolved with (see resolve.ts); absent where it needs none. */
export interface Resolved {
  /** impute: the fill value as a SQL literal; null when the column has no values to take it from. */
  fill?: string | null;
  /** handle_outliers: the bounds as SQL literals; null when the column has no values. */
  bounds?: { lo: string; hi: string } | null;
  /** one_hot_encode: the values that get a column, its names, and the name of the "other" column if any. */
  categories?: { values: string[]; names: string[]; other: string | null };
  /** ordinal_encode: the values in code order. */
  order?: string[];
  /** bin: the edges as numbers and whether values past the outer ones go to the outer bins. */
  edges?: { edges: number[]; clamp: boolean };
  /** parse_dates: the strptime format, or null for DuckDB's own ISO parsing. */
  dateFormat?: string | null;
  /** join: the right side as a relation, with its columns. */
  join?: { relation: string; columns: RelationColumn[] };
}

/** What a compiled operation reads from. */
export interface CompileContext {
  /** The relation (a view name, quoted). */
  from: string;
  columns: RelationColumn[];
  /** The hidden row-number column (file order), carried through every operation. */
  row: string;
}

function select(ctx: CompileContext, parts: { exclude?: string[]; replace?: [string, string][]; add?: [string, string][]; where?: string }): string {
  const exclude = parts.exclude?.length ? ` EXCLUDE (${parts.exclude.map(id).join(', ')})` : '';
  const replace = parts.replace?.length ? ` REPLACE (${parts.replace.map(([n, sql]) => `${sql} AS ${id(n)}`).join(', ')})` : '';
  const add = (parts.add ?? []).map(([n, sql]) => `, ${sql} AS ${id(n)}`).join('');
  return `SELECT *${exclude}${replace}${add} FROM ${ctx.from}${parts.where ? ` WHERE ${parts.where}` : ''}`;
}

/** `name`'s column replaced by `sql` when it exists, else added at the end. */
function setColumn(ctx: CompileContext, name: string, sql: string, exclude: string[] = []): string {
  const exists = ctx.columns.some((c) => c.name === name) && !exclude.includes(name);
  return exists ? select(ctx, { exclude, replace: [[name, sql]] }) : select(ctx, { exclude, add: [[name, sql]] });
}

const WHOLE_NUMBER = String.raw`\s*[-+]?\d+\s*`;

/**
 * SQL converting column `c` (DuckDB type `duckType`) to dtype `to`; a value that does not convert is NULL (so
 * `on_error: 'fail'` can find one: non-null before, null after). Only whole numbers become int64, where DuckDB's
 * own cast would round 2.5 to 3.
 */
export function castSql(c: string, duckType: string, to: string): string {
  const from = baseDtype(duckType);
  const col = id(c);
  switch (to) {
    case 'int64':
      if (from === 'int64') return `CAST(${col} AS BIGINT)`;
      if (from === 'bool') return `CAST(${col} AS BIGINT)`;
      if (from === 'float64') return `(CASE WHEN ${col} = trunc(${col}) AND abs(${col}) < 9.2e18 THEN CAST(${col} AS BIGINT) END)`;
      return `(CASE WHEN regexp_full_match(${col}, ${sqlString(WHOLE_NUMBER)}) THEN TRY_CAST(trim(${col}) AS BIGINT) END)`;
    case 'float64':
      return from === 'object' ? `TRY_CAST(trim(${col}) AS DOUBLE)` : `CAST(${col} AS DOUBLE)`;
    case 'bool':
      if (from === 'bool') return col;
      if (from === 'object') return `(CASE WHEN lower(trim(${col})) IN ('true', 't', 'yes', 'y', '1') THEN TRUE WHEN lower(trim(${col})) IN ('false', 'f', 'no', 'n', '0') THEN FALSE END)`;
      return `(CASE WHEN ${col} = 0 THEN FALSE WHEN ${col} = 1 THEN TRUE END)`;
    case 'datetime64':
      return from === 'datetime64' ? `CAST(${col} AS TIMESTAMP)` : `TRY_CAST(trim(${col}) AS TIMESTAMP)`;
    default:
      return `CAST(${col} AS VARCHAR)`;
  }
}

/** SQL parsing column `c` as dates with `format` (null: DuckDB's ISO forms), a non-date being NULL. */
export function parseDatesSql(c: string, duckType: string, format: string | null): string {
  if (baseDtype(duckType) === 'datetime64') return `CAST(${id(c)} AS TIMESTAMP)`;
  const text = `trim(CAST(${id(c)} AS VARCHAR))`;
  return format === null ? `TRY_CAST(${text} AS TIMESTAMP)` : `try_strptime(${text}, ${sqlString(format)})`;
}

/** SQL of text tidied as `normalize_text` says. */
function normalizeSql(c: string, op: Extract<Operation, { op: 'normalize_text' }>): string {
  let x = id(c);
  if (op.trim) x = `regexp_replace(${x}, '^\\s+|\\s+$', '', 'g')`;
  if (op.collapse_whitespace) x = `regexp_replace(${x}, '\\s+', ' ', 'g')`;
  if (op.case === 'lower') x = `lower(${x})`;
  if (op.case === 'upper') x = `upper(${x})`;
  return op.empty_as_null ? `(CASE WHEN regexp_full_match(${id(c)}, '\\s*') THEN NULL ELSE ${x} END)` : x;
}

/** The bin index of `c` given its edges: 0 below the second edge, ..., the last bin closed on the right. */
function binSql(c: string, edges: number[], clamp: boolean): string {
  const col = id(c);
  const lit = (n: number): string => numberLiteral(n, false);
  if (edges.length < 2) return `(CASE WHEN ${col} IS NULL THEN NULL ELSE CAST(0 AS BIGINT) END)`;
  const whens = [`WHEN ${col} IS NULL THEN NULL`];
  if (!clamp) whens.push(`WHEN ${col} < ${lit(edges[0])} OR ${col} > ${lit(edges[edges.length - 1])} THEN NULL`);
  for (let i = 1; i < edges.length - 1; i++) whens.push(`WHEN ${col} < ${lit(edges[i])} THEN ${i - 1}`);
  return `CAST((CASE ${whens.join(' ')} ELSE ${edges.length - 2} END) AS BIGINT)`;
}

/** 1 where `cond` holds, else 0 (also for null), as int64. */
const flag = (cond: string): string => `CAST((CASE WHEN ${cond} THEN 1 ELSE 0 END) AS BIGINT)`;

/** The SELECT that performs `op` on `ctx.from`, given what resolve.ts found for it. */
export function compileOperation(op: Operation, r: Resolved, ctx: CompileContext): string {
  const typeOf = (name: string): string => ctx.columns.find((c) => c.name === name)?.duckType ?? 'VARCHAR';
  switch (op.op) {
    case 'drop_columns':
      return select(ctx, { exclude: [...new Set(op.columns)] });
    case 'rename_column':
      return op.column === op.to ? select(ctx, {}) : `SELECT * RENAME (${id(op.column)} AS ${id(op.to)}) FROM ${ctx.from}`;
    case 'cast':
      return select(ctx, { replace: [[op.column, castSql(op.column, typeOf(op.column), op.to)]] });
    case 'parse_dates':
      return select(ctx, { replace: [[op.column, parseDatesSql(op.column, typeOf(op.column), r.dateFormat ?? null)]] });
    case 'impute': {
      const col = id(op.column);
      const numeric = op.strategy === 'mean' || op.strategy === 'median';
      const value = numeric ? `CAST(${col} AS DOUBLE)` : col;
      const filled = r.fill ? `coalesce(${value}, ${r.fill})` : value;
      const add: [string, string][] = op.indicator ? [[missingIndicatorName(op.column), flag(`${col} IS NULL`)]] : [];
      return select(ctx, { replace: [[op.column, filled]], add });
    }
    case 'handle_outliers': {
      if (!r.bounds) return op.action === 'flag' ? select(ctx, { add: [[outlierFlagName(op.column), 'CAST(0 AS BIGINT)']] }) : select(ctx, {});
      const col = id(op.column);
      const { lo, hi } = r.bounds;
      if (op.action === 'clip') return select(ctx, { replace: [[op.column, `(CASE WHEN ${col} < ${lo} THEN ${lo} WHEN ${col} > ${hi} THEN ${hi} ELSE ${col} END)`]] });
      if (op.action === 'flag') return select(ctx, { add: [[outlierFlagName(op.column), flag(`${col} < ${lo} OR ${col} > ${hi}`)]] });
      return select(ctx, { where: `${col} IS NULL OR (${col} >= ${lo} AND ${col} <= ${hi})` });
    }
    case 'deduplicate': {
      // The first row (in file order) of each group of equal rows; NULLs group together, as in pandas.
      const keys = (op.columns ?? ctx.columns.map((c) => c.name)).map(id).join(', ');
      return `SELECT * FROM ${ctx.from} WHERE ${id(ctx.row)} IN (SELECT min(${id(ctx.row)}) FROM ${ctx.from} GROUP BY ${keys})`;
    }
    case 'filter_rows':
      return select(ctx, { where: compileExpression(parseExpression(op.condition, ctx.columns)) });
    case 'one_hot_encode': {
      const cats = r.categories!;
      const text = `CAST(${id(op.column)} AS VARCHAR)`;
      const add: [string, string][] = cats.values.map((v, i) => [cats.names[i], flag(`${text} = ${sqlString(v)}`)]);
      if (cats.other !== null) {
        const known = cats.values.length ? ` AND ${text} NOT IN (${cats.values.map(sqlString).join(', ')})` : '';
        add.push([cats.other, flag(`${text} IS NOT NULL${known}`)]);
      }
      return select(ctx, { exclude: op.keep_original ? [] : [op.column], add });
    }
    case 'ordinal_encode': {
      const order = r.order ?? [];
      const text = `CAST(${id(op.column)} AS VARCHAR)`;
      const sql = order.length === 0 ? 'CAST(NULL AS BIGINT)' : `CAST((CASE ${text} ${order.map((v, i) => `WHEN ${sqlString(v)} THEN ${i}`).join(' ')} END) AS BIGINT)`;
      return select(ctx, { replace: [[op.column, sql]] });
    }
    case 'bin':
      return setColumn(ctx, op.into ?? op.column, binSql(op.column, r.edges!.edges, r.edges!.clamp));
    case 'derive': {
      const e = parseExpression(op.expression, ctx.columns);
      return setColumn(ctx, op.name, `CAST(${compileExpression(e)} AS ${duckTypeOf(e)})`);
    }
    case 'join':
      return joinSql(op, r.join!, ctx);
    case 'split_column': {
      const parts = `string_split(${id(op.column)}, ${sqlString(op.separator)})`;
      return select(ctx, { exclude: op.keep_original ? [] : [op.column], add: op.into.map((n, i) => [n, `${parts}[${i + 1}]`]) });
    }
    case 'normalize_text':
      return select(ctx, { replace: [...new Set(op.columns)].map((c) => [c, normalizeSql(c, op)]) });
  }
}

/**
 * The left table with the right side's columns, matched on the keys. The right side is projected to positional
 * aliases first, so no name of either side can clash with the other's inside the query; rows whose keys are NULL
 * never match (resolve.ts has checked the right keys are unique, so no row is multiplied).
 */
function joinSql(op: Extract<Operation, { op: 'join' }>, right: NonNullable<Resolved['join']>, ctx: CompileContext): string {
  const added = joinedColumns(op, ctx.columns, right.columns);
  const inner = [...op.on.map((k, i) => `${id(k.right)} AS ${id(`k${i}`)}`), ...added.map((a, i) => `${id(a.from.name)} AS ${id(`c${i}`)}`)];
  const notNull = op.on.map((k) => `${id(k.right)} IS NOT NULL`).join(' AND ');
  const on = op.on.map((k, i) => `l.${id(k.left)} = r.${id(`k${i}`)}`).join(' AND ');
  const cols = added.map((a, i) => `r.${id(`c${i}`)} AS ${id(a.as)}`).join(', ');
  const how = op.how === 'inner' ? 'INNER' : 'LEFT';
  return `SELECT l.*, ${cols} FROM ${ctx.from} AS l ${how} JOIN (SELECT ${inner.join(', ')} FROM ${right.relation} WHERE ${notNull}) AS r ON ${on}`;
}

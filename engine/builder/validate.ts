/**
 * Checks a list of operations against a table's columns before anything runs, one operation after the other on the
 * schema the previous ones leave: every column named exists, has a type the operation accepts, and no operation
 * creates a name that already exists. The execution checks each operation again on the real schema of its input
 * (validate.ts's {@link checkOperation}), where the columns one-hot encoding makes are known.
 */
import { ColumnInfo, Dtype } from '../data/dtypes';
import { DEFAULT_MAX_COLUMNS } from '../data/column-limit';
import { OperationError, ExpressionError } from './errors';
import { dtypeOf, parseExpression, suggestion } from './expression';
import { CAST_TYPES, Operation } from './operations';

/** Columns that hold text (category is text the ingest found few distinct values in). */
export const isText = (d: Dtype): boolean => d === 'object' || d === 'category';
export const isNumber = (d: Dtype): boolean => d === 'int64' || d === 'float64';

/** Bins when `bin` names none. */
export const DEFAULT_BINS = 5;
/** Percentiles of `handle_outliers` by `percentile` when not given. */
export const DEFAULT_PERCENTILES = [1, 99] as const;
/** Tukey's factor. */
export const DEFAULT_IQR_FACTOR = 1.5;

/** Name of the 0/1 column `impute` adds with `indicator`. */
export const missingIndicatorName = (column: string): string => `${column}_missing`;
/** Name of the 0/1 column `handle_outliers` adds with `action: 'flag'`. */
export const outlierFlagName = (column: string): string => `${column}_outlier`;
/** Suffix of a joined column whose name the left table already has. */
export const JOIN_CLASH_SUFFIX = '_right';

/** A schema being changed operation by operation. */
class Schema {
  /**
   * Prefixes (`<column>_`) of columns one-hot encoding will create: their names depend on the data, so before
   * execution a later operation naming such a column is taken on trust (as int64).
   */
  readonly openPrefixes: string[] = [];

  constructor(
    public columns: ColumnInfo[],
    private readonly index: number,
    private readonly op: string,
  ) {}

  fail(detail: string): never {
    throw new OperationError(this.index, this.op, detail);
  }

  find(name: string): ColumnInfo | undefined {
    const c = this.columns.find((x) => x.name === name);
    if (c) return c;
    return this.openPrefixes.some((p) => name.startsWith(p)) ? { name, dtype: 'int64' } : undefined;
  }

  /** The column named `name`, or the error naming it. */
  get(name: string): ColumnInfo {
    return this.find(name) ?? this.fail(`no column named ${JSON.stringify(name)}${suggestion(name, this.columns)}`);
  }

  has(name: string): boolean {
    return this.columns.some((c) => c.name === name);
  }

  /** Refuses a new column `name` that exists already (other than `replacing`). */
  checkNew(name: string, replacing?: string): void {
    if (name !== replacing && this.has(name)) this.fail(`a column named ${JSON.stringify(name)} exists already`);
  }

  set(name: string, dtype: Dtype): void {
    const i = this.columns.findIndex((c) => c.name === name);
    if (i >= 0) this.columns[i] = { name, dtype };
    else this.columns.push({ name, dtype });
  }

  drop(names: readonly string[]): void {
    const gone = new Set(names);
    this.columns = this.columns.filter((c) => !gone.has(c.name));
  }

  requireType(col: ColumnInfo, ok: (d: Dtype) => boolean, what: string): void {
    if (!ok(col.dtype)) this.fail(`column ${JSON.stringify(col.name)} is ${col.dtype}, not ${what}`);
  }
}

/** Whether the dtype of a join key on one side can match the other's. */
function keysMatch(a: Dtype, b: Dtype): boolean {
  return (isNumber(a) && isNumber(b)) || (isText(a) && isText(b)) || a === b;
}

/** Whether `from` converts to `to` by `cast` (datetime to number and number/bool to datetime do not). */
function castable(from: Dtype, to: (typeof CAST_TYPES)[number]): boolean {
  if (to === 'category' || to === 'object') return true;
  if (from === 'datetime64') return to === 'datetime64';
  if (to === 'datetime64') return isText(from);
  return true;
}

/** The dtype `impute` leaves: the mean or median of whole numbers is fractional. */
function imputedDtype(s: Schema, col: ColumnInfo, op: Extract<Operation, { op: 'impute' }>): Dtype {
  switch (op.strategy) {
    case 'mean':
    case 'median':
      s.requireType(col, isNumber, 'numeric (mean and median need numbers)');
      return 'float64';
    case 'mode':
      return col.dtype;
    case 'constant': {
      const v = op.value;
      if (v === undefined) s.fail(`strategy "constant" needs a value`);
      if (isNumber(col.dtype)) {
        if (typeof v !== 'number') s.fail(`column ${JSON.stringify(col.name)} is ${col.dtype}: the value must be a number`);
        return col.dtype === 'int64' && !Number.isInteger(v) ? 'float64' : col.dtype;
      }
      if (col.dtype === 'bool' && typeof v !== 'boolean') s.fail(`column ${JSON.stringify(col.name)} is bool: the value must be true or false`);
      if (col.dtype === 'datetime64' && (typeof v !== 'string' || Number.isNaN(Date.parse(v)))) {
        s.fail(`column ${JSON.stringify(col.name)} is datetime64: the value must be a date such as "2024-01-31"`);
      }
      if (isText(col.dtype) && typeof v !== 'string') s.fail(`column ${JSON.stringify(col.name)} is text: the value must be a string`);
      return col.dtype;
    }
  }
}

/**
 * The schema after `op` (the `index`-th of its list) on `columns`.
 * @param joins columns of the dataset versions a `join` may name, by id
 * @param openPrefixes what the operations before left of `validateOperations`' state (see `Schema.openPrefixes`)
 * @param maxColumns most columns a table may have (the service's configured limit)
 * @throws OperationError when the operation does not fit
 */
export function checkOperation(
  op: Operation,
  index: number,
  columns: ColumnInfo[],
  joins: Record<string, ColumnInfo[]> = {},
  openPrefixes: string[] = [],
  maxColumns = DEFAULT_MAX_COLUMNS,
): { columns: ColumnInfo[]; openPrefixes: string[] } {
  const s = new Schema(
    columns.map((c) => ({ ...c })),
    index,
    op.op,
  );
  s.openPrefixes.push(...openPrefixes);
  switch (op.op) {
    case 'drop_columns':
      op.columns.forEach((c) => s.get(c));
      s.drop(op.columns);
      if (s.columns.length === 0) s.fail('it would drop every column');
      break;
    case 'rename_column': {
      const col = s.get(op.column);
      s.checkNew(op.to, op.column);
      s.columns = s.columns.map((c) => (c.name === op.column ? { name: op.to, dtype: col.dtype } : c));
      break;
    }
    case 'cast': {
      const col = s.get(op.column);
      if (!castable(col.dtype, op.to))
        s.fail(`column ${JSON.stringify(col.name)} is ${col.dtype} and cannot be cast to ${op.to}${op.to === 'datetime64' ? ' (parse_dates reads dates from text)' : ''}`);
      s.set(op.column, op.to);
      break;
    }
    case 'parse_dates': {
      const col = s.get(op.column);
      s.requireType(col, (d) => isText(d) || d === 'int64' || d === 'datetime64', 'text');
      s.set(op.column, 'datetime64');
      break;
    }
    case 'impute': {
      const col = s.get(op.column);
      if (op.strategy !== 'constant' && op.value !== undefined) s.fail(`a value is only used with strategy "constant"`);
      const dtype = imputedDtype(s, col, op);
      if (op.indicator) s.checkNew(missingIndicatorName(op.column));
      s.set(op.column, dtype);
      if (op.indicator) s.set(missingIndicatorName(op.column), 'int64');
      break;
    }
    case 'handle_outliers': {
      const col = s.get(op.column);
      s.requireType(col, isNumber, 'numeric');
      if (op.method === 'iqr' && (op.lower_percentile !== undefined || op.upper_percentile !== undefined)) s.fail('percentiles are only used with method "percentile"');
      if (op.method === 'percentile' && op.factor !== undefined) s.fail('a factor is only used with method "iqr"');
      const lo = op.lower_percentile ?? DEFAULT_PERCENTILES[0];
      const hi = op.upper_percentile ?? DEFAULT_PERCENTILES[1];
      if (op.method === 'percentile' && lo >= hi) s.fail(`the lower percentile (${lo}) must be below the upper one (${hi})`);
      if (op.action === 'flag') {
        s.checkNew(outlierFlagName(op.column));
        s.set(outlierFlagName(op.column), 'int64');
      }
      break;
    }
    case 'deduplicate':
      op.columns?.forEach((c) => s.get(c));
      break;
    case 'filter_rows': {
      const e = parse(s, op.condition, 'condition');
      if (e.type !== 'bool') s.fail(`the condition must be true or false for each row, but it is a ${e.type}`);
      break;
    }
    case 'one_hot_encode': {
      s.get(op.column);
      if (!op.keep_original) s.drop([op.column]);
      s.openPrefixes.push(`${op.column}_`);
      break;
    }
    case 'ordinal_encode': {
      const col = s.get(op.column);
      s.requireType(col, (d) => d !== 'float64' && d !== 'datetime64', 'text, whole numbers or bool');
      if (op.order && new Set(op.order).size !== op.order.length) s.fail('the order lists a value twice');
      s.set(op.column, 'int64');
      break;
    }
    case 'bin': {
      const col = s.get(op.column);
      s.requireType(col, isNumber, 'numeric');
      if (op.strategy === 'edges' && !op.edges) s.fail('strategy "edges" needs edges');
      if (op.edges && op.bins !== undefined) s.fail('give either bins or edges, not both');
      if (op.edges && op.edges.some((e, i) => i > 0 && e <= op.edges![i - 1])) s.fail('edges must increase');
      if (op.into !== undefined) s.checkNew(op.into, op.column);
      s.set(op.into ?? op.column, 'int64');
      break;
    }
    case 'derive': {
      const e = parse(s, op.expression, 'expression');
      s.set(op.name, dtypeOf(e));
      break;
    }
    case 'join':
      checkJoin(s, op, joins);
      break;
    case 'split_column': {
      const col = s.get(op.column);
      s.requireType(col, isText, 'text');
      if (new Set(op.into).size !== op.into.length) s.fail('the new column names repeat');
      op.into.forEach((n) => s.checkNew(n, op.keep_original ? undefined : op.column));
      if (!op.keep_original) s.drop([op.column]);
      op.into.forEach((n) => s.set(n, 'object'));
      break;
    }
    case 'normalize_text':
      op.columns.forEach((n) => s.requireType(s.get(n), isText, 'text'));
      break;
  }
  if (s.columns.length > maxColumns) s.fail(`the table would have ${s.columns.length} columns; at most ${maxColumns} are allowed`);
  return { columns: s.columns, openPrefixes: s.openPrefixes };
}

function parse(s: Schema, text: string, what: string): ReturnType<typeof parseExpression> {
  try {
    return parseExpression(text, s.columns);
  } catch (err) {
    if (err instanceof ExpressionError) s.fail(`the ${what} ${JSON.stringify(text)}: ${err.message}`);
    throw err;
  }
}

/** Right-hand columns a join brings, with the names they get on the left. */
export function joinedColumns(op: Extract<Operation, { op: 'join' }>, left: readonly ColumnInfo[], right: readonly ColumnInfo[]): { from: ColumnInfo; as: string }[] {
  const rightKeys = new Set(op.on.map((k) => k.right));
  const wanted = op.columns ?? right.filter((c) => !rightKeys.has(c.name)).map((c) => c.name);
  const leftNames = new Set(left.map((c) => c.name));
  return wanted.map((name) => {
    const from = right.find((c) => c.name === name) ?? { name, dtype: 'object' as Dtype };
    return { from, as: leftNames.has(name) ? `${name}${JOIN_CLASH_SUFFIX}` : name };
  });
}

function checkJoin(s: Schema, op: Extract<Operation, { op: 'join' }>, joins: Record<string, ColumnInfo[]>): void {
  const right = Object.hasOwn(joins, op.dataset_version_id) ? joins[op.dataset_version_id] : undefined;
  if (!right) s.fail(`dataset version ${op.dataset_version_id} is not available to join`);
  const rightSchema = new Schema(right, 0, op.op);
  for (const k of op.on) {
    const l = s.get(k.left);
    const r = rightSchema.find(k.right) ?? s.fail(`the joined version has no column named ${JSON.stringify(k.right)}${suggestion(k.right, right)}`);
    if (!keysMatch(l.dtype, r.dtype)) s.fail(`key ${JSON.stringify(k.left)} is ${l.dtype} but ${JSON.stringify(k.right)} of the joined version is ${r.dtype}`);
  }
  for (const name of op.columns ?? []) {
    if (!rightSchema.find(name)) s.fail(`the joined version has no column named ${JSON.stringify(name)}${suggestion(name, right)}`);
  }
  const added = joinedColumns(op, s.columns, right);
  if (added.length === 0) s.fail('the joined version has no columns besides its keys');
  const seen = new Set(s.columns.map((c) => c.name));
  for (const a of added) {
    if (seen.has(a.as)) s.fail(`the joined column ${JSON.stringify(a.from.name)} would be named ${JSON.stringify(a.as)}, which exists already`);
    seen.add(a.as);
    s.columns.push({ name: a.as, dtype: a.from.dtype });
  }
}

/**
 * The schema after `ops` on a table of `columns`: checks each operation on what the ones before it leave.
 * Columns one-hot encoding makes depend on the data and are not in the result (later operations may still name
 * them: `<column>_<value>` is taken on trust until execution).
 * @param joins columns of the dataset versions `join` operations may name, by id
 * @param maxColumns most columns a table may have (the service's configured limit; ingest's default)
 * @throws OperationError for the first operation that does not fit, e.g. `Operation 3 (cast): no column named "agee"`
 */
export function validateOperations(ops: Operation[], columns: ColumnInfo[], joins: Record<string, ColumnInfo[]> = {}, maxColumns = DEFAULT_MAX_COLUMNS): ColumnInfo[] {
  let state = { columns, openPrefixes: [] as string[] };
  ops.forEach((op, i) => {
    state = checkOperation(op, i, state.columns, joins, state.openPrefixes, maxColumns);
  });
  return state.columns;
}

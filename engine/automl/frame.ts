/**
 * Column-major data frame used by the tree learners, its CSV loader and the feature preparation
 * step (dropping useless columns, detecting the problem kind, encoding the target).
 */

/** Numeric column; NaN marks a missing value. */
export interface NumericColumn {
  kind: 'numeric';
  values: Float64Array;
}

/** Categorical column; code -1 marks a missing value, other codes index `levels`. */
export interface CategoricalColumn {
  kind: 'categorical';
  codes: Int32Array;
  levels: string[];
}

/** Date/time column as milliseconds since the Unix epoch (UTC); NaN marks a missing value. */
export interface DatetimeColumn {
  kind: 'datetime';
  epochMs: Float64Array;
}

export type Column = NumericColumn | CategoricalColumn | DatetimeColumn;

/** A frame: named columns of equal length. */
export interface Frame {
  names: string[];
  columns: Column[];
  nrows: number;
}

export type ProblemKind = 'regression' | 'binary' | 'multiclass';
export type RequestedKind = 'auto' | 'regression' | 'classification' | 'binary' | 'multiclass';

/** Builds a frame, checking that every column has the same length. */
export function makeFrame(names: string[], columns: Column[]): Frame {
  if (names.length !== columns.length) throw new Error('makeFrame: names and columns differ in length');
  const nrows = columns.length ? columnLength(columns[0]) : 0;
  for (let j = 0; j < columns.length; j++) {
    if (columnLength(columns[j]) !== nrows) throw new Error(`makeFrame: column ${names[j]} has a different length`);
  }
  return { names: names.slice(), columns: columns.slice(), nrows };
}

/** Number of rows held by a column. */
export function columnLength(c: Column): number {
  return c.kind === 'numeric' ? c.values.length : c.kind === 'categorical' ? c.codes.length : c.epochMs.length;
}

/** Builds a categorical column from strings; null/undefined/'' are missing. Levels are sorted. */
export function categoricalFromStrings(values: ReadonlyArray<string | null | undefined>): CategoricalColumn {
  const distinct = new Set<string>();
  for (const v of values) if (v !== null && v !== undefined && v !== '') distinct.add(v);
  const levels = [...distinct].sort();
  const index = new Map<string, number>();
  levels.forEach((l, i) => index.set(l, i));
  const codes = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    codes[i] = v === null || v === undefined || v === '' ? -1 : (index.get(v) as number);
  }
  return { kind: 'categorical', codes, levels };
}

/** Returns the named column or throws. */
export function getColumn(frame: Frame, name: string): Column {
  const j = frame.names.indexOf(name);
  if (j < 0) throw new Error(`column not found: ${name}`);
  return frame.columns[j];
}

/** Copies the given rows of a frame (used once at preparation time, never inside training). */
export function selectRows(frame: Frame, rows: ArrayLike<number>): Frame {
  const columns: Column[] = frame.columns.map((c): Column => {
    if (c.kind === 'numeric') {
      const v = new Float64Array(rows.length);
      for (let i = 0; i < rows.length; i++) v[i] = c.values[rows[i]];
      return { kind: 'numeric', values: v };
    }
    if (c.kind === 'datetime') {
      const v = new Float64Array(rows.length);
      for (let i = 0; i < rows.length; i++) v[i] = c.epochMs[rows[i]];
      return { kind: 'datetime', epochMs: v };
    }
    const codes = new Int32Array(rows.length);
    for (let i = 0; i < rows.length; i++) codes[i] = c.codes[rows[i]];
    return { kind: 'categorical', codes, levels: c.levels };
  });
  return { names: frame.names.slice(), columns, nrows: rows.length };
}

export interface ReadCsvOptions {
  /** Force header detection on or off; by default DuckDB's sniffer decides. */
  header?: boolean;
  /** Keep only the first n rows (a quick way to subsample large files in tests). */
  limit?: number;
}

const NUMERIC_TYPES = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL.*)$/;
const DATETIME_TYPES = /^(DATE|TIMESTAMP.*|DATETIME)$/;

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

function sqlIdent(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/**
 * Reads a CSV file with DuckDB's read_csv_auto. VARCHAR and BOOLEAN columns become categorical,
 * numeric columns numeric, DATE/TIMESTAMP columns datetime; any other type is read as text.
 * Header-less files (DuckDB names their columns column0, column1, ...) get the names C1..Cn.
 */
export async function readCsvFrame(path: string, opts: ReadCsvOptions = {}): Promise<Frame> {
  // Loaded lazily so that code which never reads CSV does not pay for the native module.
  const duck = await import('@duckdb/node-api');
  const instance = await duck.DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    const args = [sqlString(path)];
    if (opts.header !== undefined) args.push(`header=${opts.header ? 'true' : 'false'}`);
    const source = `read_csv_auto(${args.join(', ')})`;
    const described = await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`);
    const rows = described.getRowObjectsJS();
    const rawNames = rows.map((r) => String(r['column_name']));
    const types = rows.map((r) => String(r['column_type']).toUpperCase());
    const selects = rawNames.map((n, j) => {
      const id = sqlIdent(n);
      if (NUMERIC_TYPES.test(types[j])) return `CAST(${id} AS DOUBLE)`;
      if (DATETIME_TYPES.test(types[j])) return `CAST(epoch_ms(CAST(${id} AS TIMESTAMP)) AS DOUBLE)`;
      return `CAST(${id} AS VARCHAR)`;
    });
    const limit = opts.limit !== undefined ? ` LIMIT ${Math.floor(opts.limit)}` : '';
    const result = await conn.runAndReadAll(`SELECT ${selects.join(', ')} FROM ${source}${limit}`);
    const data = result.getColumnsJS();
    const headerless = rawNames.every((n) => /^column\d+$/.test(n));
    const names = headerless ? rawNames.map((_, j) => `C${j + 1}`) : rawNames;
    const columns: Column[] = rawNames.map((_, j): Column => {
      const col = data[j];
      if (NUMERIC_TYPES.test(types[j]) || DATETIME_TYPES.test(types[j])) {
        const v = new Float64Array(col.length);
        for (let i = 0; i < col.length; i++) {
          const x = col[i];
          v[i] = x === null || x === undefined ? NaN : Number(x);
        }
        return DATETIME_TYPES.test(types[j]) ? { kind: 'datetime', epochMs: v } : { kind: 'numeric', values: v };
      }
      return categoricalFromStrings(col.map((x) => (x === null || x === undefined ? null : String(x))));
    });
    return makeFrame(names, columns);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** Suffixes of the numeric features a datetime column expands into, in order. */
export const DATETIME_PARTS = ['year', 'month', 'day', 'dayofweek', 'hour', 'epoch'] as const;

/**
 * Replaces each datetime column by numeric features name_year, name_month (1-12), name_day,
 * name_dayofweek (0 = Monday, as pandas), name_hour and name_epoch (seconds), all in UTC.
 */
export function expandDatetimes(frame: Frame): Frame {
  const names: string[] = [];
  const columns: Column[] = [];
  frame.columns.forEach((c, j) => {
    if (c.kind !== 'datetime') {
      names.push(frame.names[j]);
      columns.push(c);
      return;
    }
    const parts = DATETIME_PARTS.map(() => new Float64Array(c.epochMs.length));
    for (let i = 0; i < c.epochMs.length; i++) {
      const ms = c.epochMs[i];
      if (Number.isNaN(ms)) {
        for (const p of parts) p[i] = NaN;
        continue;
      }
      const d = new Date(ms);
      parts[0][i] = d.getUTCFullYear();
      parts[1][i] = d.getUTCMonth() + 1;
      parts[2][i] = d.getUTCDate();
      parts[3][i] = (d.getUTCDay() + 6) % 7;
      parts[4][i] = d.getUTCHours();
      parts[5][i] = ms / 1000;
    }
    DATETIME_PARTS.forEach((p, k) => {
      names.push(`${frame.names[j]}_${p}`);
      columns.push({ kind: 'numeric', values: parts[k] });
    });
  });
  return { names, columns, nrows: frame.nrows };
}

/** Encoded target: class indices (as numbers) for classification, values for regression. */
export interface Target {
  name: string;
  kind: ProblemKind;
  /** Class index (0..K-1) for classification, the value for regression. */
  y: Float64Array;
  /** Class labels in index order; empty for regression. */
  classes: string[];
}

/** Distinct non-missing values of a numeric array, sorted ascending. */
function distinctNumbers(values: Float64Array, cap: number): number[] {
  const s = new Set<number>();
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isNaN(v)) {
      s.add(v);
      if (s.size > cap) break;
    }
  }
  return [...s].sort((a, b) => a - b);
}

/**
 * Decides the problem kind from the target column and the requested kind. 'auto' treats
 * categorical targets and numeric targets with exactly two integer values as classification;
 * 'classification' also accepts integer-valued numeric targets with at most `maxClasses` values.
 */
export function detectProblemKind(target: Column, requested: RequestedKind = 'auto', maxClasses = 10): ProblemKind {
  if (target.kind === 'datetime') throw new Error('a datetime column cannot be a target');
  let nclasses: number;
  let classifiable: boolean;
  if (target.kind === 'categorical') {
    const used = new Set<number>();
    for (let i = 0; i < target.codes.length; i++) if (target.codes[i] >= 0) used.add(target.codes[i]);
    nclasses = used.size;
    classifiable = true;
  } else {
    const d = distinctNumbers(target.values, maxClasses);
    nclasses = d.length;
    classifiable = d.length <= maxClasses && d.every((v) => Number.isInteger(v));
  }
  const classification = (): ProblemKind => {
    if (!classifiable) throw new Error('target is not categorical or integer-valued with few distinct values');
    if (nclasses < 2) throw new Error('classification target has fewer than two classes');
    return nclasses === 2 ? 'binary' : 'multiclass';
  };
  switch (requested) {
    case 'regression':
      if (target.kind === 'categorical') throw new Error('regression needs a numeric target');
      return 'regression';
    case 'classification':
      return classification();
    case 'binary': {
      const k = classification();
      if (k !== 'binary') throw new Error(`binary requested but the target has ${nclasses} classes`);
      return k;
    }
    case 'multiclass':
      return classification();
    case 'auto':
      if (target.kind === 'categorical') return classification();
      return classifiable && nclasses === 2 ? 'binary' : 'regression';
  }
}

/** Encodes the target column for the given kind (rows with a missing target must be removed first). */
export function encodeTarget(name: string, col: Column, kind: ProblemKind): Target {
  const n = columnLength(col);
  const y = new Float64Array(n);
  if (kind === 'regression') {
    if (col.kind !== 'numeric') throw new Error('regression needs a numeric target');
    y.set(col.values);
    return { name, kind, y, classes: [] };
  }
  if (col.kind === 'categorical') {
    // Keep only levels that occur so class indices are dense.
    const used = new Set<number>();
    for (let i = 0; i < n; i++) if (col.codes[i] >= 0) used.add(col.codes[i]);
    const codes = [...used].sort((a, b) => a - b);
    const remap = new Map<number, number>();
    codes.forEach((c, k) => remap.set(c, k));
    for (let i = 0; i < n; i++) y[i] = col.codes[i] < 0 ? NaN : (remap.get(col.codes[i]) as number);
    return { name, kind, y, classes: codes.map((c) => col.levels[c]) };
  }
  if (col.kind !== 'numeric') throw new Error('unsupported target column');
  const d = distinctNumbers(col.values, Infinity);
  const index = new Map<number, number>();
  d.forEach((v, k) => index.set(v, k));
  for (let i = 0; i < n; i++) y[i] = Number.isNaN(col.values[i]) ? NaN : (index.get(col.values[i]) as number);
  return { name, kind, y, classes: d.map((v) => String(v)) };
}

export interface PrepareOptions {
  target: string;
  kind?: RequestedKind;
  /** Columns never used as features. */
  ignore?: string[];
  /** A string column whose distinct/non-missing ratio exceeds this is an identifier (default 0.9). */
  idRatio?: number;
}

/** Result of feature preparation: features only, the encoded target and a log of decisions. */
export interface PreparedData {
  features: Frame;
  target: Target;
  kind: ProblemKind;
  log: string[];
  dropped: string[];
}

function isMissingTarget(col: Column, i: number): boolean {
  if (col.kind === 'numeric') return Number.isNaN(col.values[i]);
  if (col.kind === 'categorical') return col.codes[i] < 0;
  return Number.isNaN(col.epochMs[i]);
}

/**
 * Prepares a frame for the tree learners: removes rows with a missing target, expands datetimes,
 * drops constant columns and identifier-like columns (string columns that are almost all unique,
 * or free-text columns, multi-word values more than half unique; integer columns strictly
 * increasing down the file, a row id), logging one line per decision, and encodes the target.
 */
export function prepareFeatures(frame: Frame, opts: PrepareOptions): PreparedData {
  const log: string[] = [];
  const dropped: string[] = [];
  const tcol = getColumn(frame, opts.target);
  const keep: number[] = [];
  for (let i = 0; i < frame.nrows; i++) if (!isMissingTarget(tcol, i)) keep.push(i);
  let f = frame;
  if (keep.length < frame.nrows) {
    log.push(`dropped ${frame.nrows - keep.length} rows with a missing target ${opts.target}`);
    f = selectRows(frame, keep);
  }
  const kind = detectProblemKind(getColumn(f, opts.target), opts.kind ?? 'auto');
  log.push(`problem kind: ${kind}`);
  const target = encodeTarget(opts.target, getColumn(f, opts.target), kind);
  const ignore = new Set(opts.ignore ?? []);
  const idRatio = opts.idRatio ?? 0.9;
  const expanded = expandDatetimes({
    names: f.names.filter((n) => n !== opts.target && !ignore.has(n)),
    columns: f.columns.filter((_, j) => f.names[j] !== opts.target && !ignore.has(f.names[j])),
    nrows: f.nrows,
  });
  const names: string[] = [];
  const columns: Column[] = [];
  expanded.columns.forEach((c, j) => {
    const name = expanded.names[j];
    // Datetime parts of time-sorted files increase strictly too; they are not row ids.
    const reason = dropReason(c, idRatio, !f.names.includes(name));
    if (reason) {
      log.push(`dropped column ${name}: ${reason}`);
      dropped.push(name);
    } else {
      names.push(name);
      columns.push(c);
    }
  });
  return { features: { names, columns, nrows: f.nrows }, target, kind, log, dropped };
}

function dropReason(c: Column, idRatio: number, fromDatetime: boolean): string | null {
  if (c.kind === 'numeric') {
    let first = NaN;
    let constant = true;
    // A row id: integers strictly increasing down the file (rows may have been dropped since).
    let isRowId = c.values.length > 2 && !fromDatetime;
    for (let i = 0; i < c.values.length; i++) {
      const v = c.values[i];
      if (isRowId && (!Number.isInteger(v) || (i > 0 && !(v > c.values[i - 1])))) isRowId = false;
      if (Number.isNaN(v)) continue;
      if (Number.isNaN(first)) first = v;
      else if (v !== first) constant = false;
    }
    if (constant) return 'constant';
    if (isRowId) return 'identifier (strictly increasing integers, a row id)';
    return null;
  }
  if (c.kind === 'categorical') {
    const counts = new Int32Array(c.levels.length);
    let nonMissing = 0;
    for (let i = 0; i < c.codes.length; i++) {
      if (c.codes[i] >= 0) {
        counts[c.codes[i]]++;
        nonMissing++;
      }
    }
    let used = 0;
    let multiWord = 0;
    for (let k = 0; k < counts.length; k++) {
      if (counts[k] > 0) {
        used++;
        if (/\S\s+\S/.test(c.levels[k])) multiWord++;
      }
    }
    if (used <= 1) return 'constant';
    const ratio = used / nonMissing;
    if (ratio > idRatio) return `identifier-like (unique ratio ${ratio.toFixed(3)})`;
    if (ratio > 0.5 && multiWord > used / 2) return `free text (unique ratio ${ratio.toFixed(3)}, multi-word values)`;
    return null;
  }
  return null;
}

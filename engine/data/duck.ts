/**
 * Thin helpers around @duckdb/node-api shared by the data engine: connection lifetime,
 * SQL literal quoting and JSON-safe value conversion.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DuckDBConnection,
  DuckDBDateValue,
  DuckDBInstance,
  DuckDBTimestampValue,
  DuckDBValue,
} from '@duckdb/node-api';
import { setOwn } from '../own-keys';
import { DataValidationError } from './errors';

/** A value that survives JSON.stringify unchanged: no bigint, no NaN, no DuckDB value objects. */
export type JsonSafe = string | number | boolean | null;

/**
 * Memory DuckDB may hold per connection before it spills to disk. The API process must stay under 1 GB with
 * multi-GB uploads (bench/ingest): the CSV → Parquet copy and the hash aggregations of `analyze` spill past this
 * instead of growing the process. Quantile states are not bounded by it (DuckDB does not track them).
 */
export const DUCKDB_MEMORY_LIMIT = '512MB';

/**
 * Runs `fn` with a fresh in-memory DuckDB connection and always closes it.
 * A fresh instance per call keeps calls independent (no shared catalog state) and costs ~1 ms. Each instance
 * spills into its own temporary folder (DuckDB only creates it when it spills), removed afterwards.
 */
export async function withConnection<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  const spillDir = join(tmpdir(), `mlsvc-duckdb-${randomUUID()}`);
  // Threads explicit: DuckDB's own guess can miss CPU quotas of containers, and every scan here parallelises.
  const instance = await DuckDBInstance.create(':memory:', {
    threads: String(availableParallelism()),
    memory_limit: DUCKDB_MEMORY_LIMIT,
    temp_directory: spillDir,
  });
  const conn = await instance.connect();
  try {
    return await fn(conn);
  } finally {
    conn.closeSync();
    instance.closeSync();
    await rm(spillDir, { recursive: true, force: true });
  }
}

/** DuckDB's messages for a file it cannot read as Parquet, or a query over it that ran out of its memory limit. */
const DATA_FAULT = /^(Invalid Input Error|Invalid Error|Conversion Error|Out of Memory Error)\b/;

/**
 * `err` as a {@link DataValidationError} when DuckDB raised it for the data of `path` (a corrupt file, a query past
 * the memory limit): the same data fails the same way again, so callers must not retry it (a job's attempt fails
 * for good). The path is left out of the message. Any other error is returned as it is.
 */
export function asDataFault(err: unknown, path: string): unknown {
  // Not `instanceof Error`: the native addon's errors may come from another realm (a test sandbox).
  const message = (err as { message?: unknown } | null)?.message;
  const m = typeof message === 'string' ? message : String(err);
  if (err instanceof DataValidationError || !DATA_FAULT.test(m)) return err;
  const first = m.split('\n')[0].split(path).join('<file>');
  return new DataValidationError(
    m.startsWith('Out of Memory Error')
      ? `The dataset needs more memory than one DuckDB connection may use (${DUCKDB_MEMORY_LIMIT}): ${first}`
      : `The stored dataset cannot be read: ${first}`,
  );
}

/**
 * Aggregates per query when one query would compute the same statistic for many columns. DuckDB evaluates an
 * ungrouped aggregate query with a state, an expression and intermediate vectors per aggregate, and plans a query of
 * thousands of select items slowly; splitting a wide table's aggregates into queries of this many keeps every query
 * small and its memory bounded (2,000 columns: a few queries, each well under 100 MB), while a table of normal width
 * still needs one query (one scan).
 */
export const AGGREGATES_PER_QUERY = 256;

/**
 * `count(DISTINCT ...)` aggregates per query. Each gets its own hash table of about 2 MB from its first row on, all
 * charged to the connection's {@link DUCKDB_MEMORY_LIMIT}: 300 of them in one query ran out of 512 MB on 20 rows.
 */
export const DISTINCT_AGGREGATES_PER_QUERY = 32;

/**
 * Values the exact quantile states (`quantile_cont`) of one query may hold together. DuckDB keeps every value such a
 * state reads in memory, outside its memory limit (see {@link DUCKDB_MEMORY_LIMIT}): 8 bytes each, up to twice that
 * while its buffer grows. The exact quartiles of 400M rows took a process past 6 GB; 16M values take ~128-256 MB.
 */
export const EXACT_QUANTILE_VALUES = 16_000_000;

/**
 * SQL of the quantiles `qs` (a number or a list literal) of the numeric expression `expr` over a relation of `rows`
 * rows: exact (`quantile_cont`, pandas' linear interpolation) up to {@link EXACT_QUANTILE_VALUES} rows, DuckDB's
 * t-digest (`approx_quantile`) past them, whose state stays a few KB however many rows it reads (within ~1% of the
 * values' range, measured: 0.5% on 10M sorted integers). {@link aggregateInBatches} keeps the exact ones of a query
 * within the budget when told the rows.
 */
export function quantileSql(expr: string, qs: string, rows: number): string {
  return exactQuantiles(rows) ? `quantile_cont(${expr}, ${qs})` : `approx_quantile(CAST(${expr} AS DOUBLE), ${qs})`;
}

/** Whether {@link quantileSql} computes exact quantiles over `rows` rows. */
export function exactQuantiles(rows: number): boolean {
  return rows <= EXACT_QUANTILE_VALUES;
}

/** Splits `items` into consecutive batches of at most `size` (none for no items). */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** An aggregate over distinct values, e.g. `count(DISTINCT x)` (not `a IS DISTINCT FROM b`). */
const DISTINCT_ITEM = /\(\s*DISTINCT\b/i;
/** An exact quantile, whose state holds every value it reads (see {@link EXACT_QUANTILE_VALUES}). */
const EXACT_QUANTILE_ITEM = /\bquantile_(cont|disc)\s*\(|\bmedian\s*\(/i;

/** A select item of an aggregate query and the table columns it reads. */
export interface Aggregate {
  sql: string;
  columns: readonly string[];
}

/**
 * Runs the aggregate select items `items` (distinct aliases) as few single-row queries as the limits allow, in
 * order: at most {@link AGGREGATES_PER_QUERY} items per query, of which at most {@link DISTINCT_AGGREGATES_PER_QUERY}
 * aggregate distinct values (`count(DISTINCT x)`) and, when `opts.rows` (the relation's rows) is given, at most
 * {@link EXACT_QUANTILE_VALUES} / rows are exact quantiles. `from` is the relation, or makes it from the columns one
 * query's items read (see `CanonicalTable.relation`). Returns the merged row; no items: an empty row, no query.
 */
export async function aggregateInBatches(
  conn: DuckDBConnection,
  items: readonly Aggregate[],
  from: string | ((columns: string[]) => string),
  opts: { rows?: number } = {},
): Promise<Record<string, DuckDBValue>> {
  const row: Record<string, DuckDBValue> = {};
  const maxQuantiles = opts.rows === undefined ? Infinity : Math.max(1, Math.floor(EXACT_QUANTILE_VALUES / Math.max(1, opts.rows)));
  let batch: Aggregate[] = [];
  let distinct = 0;
  let quantiles = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const rel = typeof from === 'string' ? from : from([...new Set(batch.flatMap((b) => b.columns))]);
    Object.assign(row, await queryOne(conn, `SELECT ${batch.map((b) => b.sql).join(', ')} FROM ${rel}`));
    batch = [];
    distinct = 0;
    quantiles = 0;
  };
  for (const item of items) {
    const isDistinct = DISTINCT_ITEM.test(item.sql);
    const isQuantile = EXACT_QUANTILE_ITEM.test(item.sql);
    if (batch.length === AGGREGATES_PER_QUERY || (isDistinct && distinct === DISTINCT_AGGREGATES_PER_QUERY) || (isQuantile && quantiles === maxQuantiles)) await flush();
    batch.push(item);
    if (isDistinct) distinct++;
    if (isQuantile) quantiles++;
  }
  await flush();
  return row;
}

/**
 * `xor` of hash expressions as a balanced tree: a left-leaning chain over thousands of columns nests deeper than
 * DuckDB's expression depth limit (1,000).
 */
export function xorAll(exprs: readonly string[]): string {
  if (exprs.length === 0) throw new Error('xorAll needs at least one expression');
  if (exprs.length === 1) return exprs[0];
  const mid = Math.ceil(exprs.length / 2);
  return `xor(${xorAll(exprs.slice(0, mid))}, ${xorAll(exprs.slice(mid))})`;
}

/** Quotes a string as a SQL string literal. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** Quotes a name as a SQL identifier. */
export function sqlIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `read_parquet(...)` table expression for a path. */
export function parquetSource(path: string): string {
  return `read_parquet(${sqlString(path)})`;
}

/**
 * Runs a query and returns its rows as objects with raw DuckDB values, keyed by column name.
 * Built here rather than by the driver's getRowObjects, which assigns keys: a column named
 * `__proto__` would set the row's prototype instead of becoming a key.
 */
export async function queryRows(conn: DuckDBConnection, sql: string): Promise<Record<string, DuckDBValue>[]> {
  const reader = await conn.runAndReadAll(sql);
  const names = reader.deduplicatedColumnNames();
  return reader.getRows().map((values) => {
    const row: Record<string, DuckDBValue> = {};
    names.forEach((name, i) => setOwn(row, name, values[i]));
    return row;
  });
}

/** Runs a query expected to return exactly one row. */
export async function queryOne(conn: DuckDBConnection, sql: string): Promise<Record<string, DuckDBValue>> {
  const rows = await queryRows(conn, sql);
  if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
  return rows[0];
}

const MICROS_PER_MS = 1000n;

/**
 * Converts a DuckDB value into something JSON can carry: bigint → number (precision loss above 2^53 is accepted:
 * the API speaks JSON numbers), non-finite doubles → null, dates/timestamps → ISO-8601 strings, anything else
 * (decimals, intervals, lists...) → its DuckDB string form.
 */
export function toJsonSafe(value: DuckDBValue): JsonSafe {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof DuckDBTimestampValue) {
    const ms = value.micros / MICROS_PER_MS;
    const date = new Date(Number(ms));
    return Number.isNaN(date.getTime()) ? value.toString() : date.toISOString();
  }
  if (value instanceof DuckDBDateValue) {
    const date = new Date(value.days * 86_400_000);
    return Number.isNaN(date.getTime()) ? value.toString() : date.toISOString().slice(0, 10);
  }
  return String(value);
}

/** Converts a DuckDB value to a finite number or null (for statistics columns). */
export function toNumber(value: DuckDBValue): number | null {
  const v = toJsonSafe(value);
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return null;
}

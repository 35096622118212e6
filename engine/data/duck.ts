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

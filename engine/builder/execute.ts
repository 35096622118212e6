/**
 * Runs a list of operations on a Parquet table with DuckDB and writes the result as a canonical Parquet table (the
 * form ingest writes, engine/data/table.ts), streamed: the input becomes a chain of views, one per operation
 * (compile.ts), and one `COPY (SELECT ...)` writes the last one. No row passes through JavaScript; memory is bounded
 * by DuckDB's limit (engine/data/duck.ts), which spills sorts, joins, aggregations and temporary tables to disk.
 *
 * A view is computed again by every query that reads it, so the result of an operation that changes rows (a
 * deduplication, a join, a filter) is materialised once, into a temporary table, and the later operations chain from
 * that: their statistics queries and the final COPY do not repeat its aggregate or its join.
 *
 * Before each operation is compiled it is checked again on the real columns of its input (validate.ts) and its
 * statistics are computed on that input (resolve.ts). `previewOperations` runs the same on a deterministic sample.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBConnection } from '@duckdb/node-api';
import { ColumnInfo, baseDtype, canonicalExpr, describeColumns, inferDtypes } from '../data/dtypes';
import { rememberDtypes } from '../data/dtype-cache';
import { aggregateInBatches, asDataFault, parquetSource, queryOne, queryRows, sqlIdent as id, sqlString, toJsonSafe, withConnection } from '../data/duck';
import { JsonRow } from '../data/export';
import { IngestOptions, parquetOptions } from '../data/ingest';
import { DEFAULT_MAX_COLUMNS } from '../data/column-limit';
import { DataValidationError } from '../data/errors';
import { checkSize, DEFAULT_MAX_CELLS, DEFAULT_MAX_ROWS } from '../data/size-limit';
import { CANONICAL_KV_OPTION, isCanonicalFile, openCanonical } from '../data/table';
import { setOwn } from '../own-keys';
import { compileOperation, RelationColumn } from './compile';
import { reportWhileRunning, STATEMENT_PROGRESS_MS, trackStatementProgress } from './progress';
import { OperationError, OperationsAbortedError } from './errors';
import { Operation, operationSchema } from './operations';
import { resolveOperation, ResolveContext } from './resolve';
import { ExecutionSummary, summarize, TableFacts } from './summary';
import { checkOperation, validateOperations } from './validate';

/**
 * Called as the execution advances: `done` of `total` units (one per operation, one for writing the result), and
 * while one statement runs, every `progressEveryMs`, with DuckDB's progress of it ("deduplicate: 43 %").
 */
export type ProgressFn = (done: number, total: number, message: string) => void;

export interface ExecuteParams {
  /** The step's input Parquet file. */
  input: string;
  /** Where the result goes; written only once complete (a failure leaves nothing there). */
  output: string;
  operations: Operation[];
  /** Parquet files of the dataset versions `join` operations name, by dataset version id. */
  joins?: Record<string, string>;
  onProgress?: ProgressFn;
  /** Aborts between operations and queries, and interrupts a running query. */
  signal?: AbortSignal;
  /** The service's dataset limits (as an upload's); ingest's defaults when absent. */
  limits?: IngestOptions;
  /** Time between two progress reports while one statement runs (DuckDB's progress of it); default 2 s. */
  progressEveryMs?: number;
}

export interface PreviewParams {
  input: string;
  operations: Operation[];
  joins?: Record<string, string>;
  /** Rows of the input sampled (deterministically) to run the operations on; default 1,000. */
  sampleRows?: number;
  /** Rows of the result returned; default 20. */
  previewRows?: number;
  /** The service's dataset limits; only the column limit applies to a preview. */
  limits?: IngestOptions;
}

export interface PreviewResult {
  columns: ColumnInfo[];
  rows: JsonRow[];
  summary: ExecutionSummary;
}

/** Default rows a preview runs on and shows. */
export const PREVIEW_SAMPLE_ROWS = 1000;
export const PREVIEW_ROWS = 20;
/** Seed of the preview's sample (export.ts `sample` draws the same way). */
const SAMPLE_SEED = 42;

/** Operations that may change the row count (the others keep every row). */
const ROW_CHANGING = new Set(['filter_rows', 'deduplicate', 'handle_outliers', 'join']);
const changesRows = (op: Operation): boolean => ROW_CHANGING.has(op.op) && !(op.op === 'handle_outliers' && op.action !== 'drop_rows') && !(op.op === 'join' && op.how === 'left');
/**
 * Operations whose result is materialised (a temporary table) rather than chained as a view: computing them again
 * for every later query would repeat a whole-table aggregate or join.
 */
const materialised = (op: Operation): boolean => changesRows(op) || op.op === 'join';
/** Operations after which file order must be restored (hash joins and semi-joins do not keep it). */
const REORDERS = new Set(['deduplicate', 'join']);

/** Canonical DuckDB types (dtypes.ts); DOUBLE is canonical only when no NaN can have been made. */
const CANONICAL_TYPES = new Set(['BIGINT', 'BOOLEAN', 'TIMESTAMP', 'VARCHAR']);

/** Options of the result's Parquet COPY: as ingest writes a stored table, marked canonical. */
function resultParquetOptions(columns: number, rows: number): string {
  return `${parquetOptions(columns, rows)}, ${CANONICAL_KV_OPTION}`;
}

/** Throws when the signal has aborted: its reason when that is an error, else {@link OperationsAbortedError}. */
function checkAborted(signal?: AbortSignal): void {
  if (!signal?.aborted) return;
  throw signal.reason instanceof Error && signal.reason.name !== 'AbortError' ? signal.reason : new OperationsAbortedError();
}

/** DuckDB's messages for values an operation cannot compute (an integer overflow, a value out of range...). */
const VALUE_FAULT = /^(Out of Range Error|Conversion Error|Invalid Input Error)\b/;

/**
 * `err` as a {@link DataValidationError} when the data made DuckDB fail (the same data fails the same way again, so
 * a job must not retry it), else as it is.
 */
function dataFault(err: unknown, path: string): unknown {
  const message = (err as { message?: unknown } | null)?.message;
  if (err instanceof DataValidationError || typeof message !== 'string') return err;
  if (VALUE_FAULT.test(message)) return new DataValidationError(`The operations cannot run on this data: ${message.split('\n')[0]}`);
  return asDataFault(err, path);
}

/** Missing values per column of a Parquet file: from its footer when DuckDB wrote it canonical, else by counting. */
async function nullCounts(conn: DuckDBConnection, path: string, columns: ColumnInfo[], relation: (names?: readonly string[]) => string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (await isCanonicalFile(conn, path)) {
    const rows = await queryRows(
      conn,
      `SELECT column_id AS i, sum(stats_null_count) AS n, count(*) FILTER (WHERE stats_null_count IS NULL) AS unknown
       FROM parquet_metadata(${sqlString(path)}) GROUP BY column_id ORDER BY column_id`,
    );
    if (rows.length === columns.length && rows.every((r) => Number(r.unknown) === 0)) {
      rows.forEach((r, i) => out.set(columns[i].name, Number(r.n)));
      return out;
    }
  }
  const counts = await aggregateInBatches(
    conn,
    columns.map((c, i) => ({ sql: `count(*) - count(${id(c.name)}) AS ${id(`n${i}`)}`, columns: [c.name] })),
    (names) => relation(names),
  );
  columns.forEach((c, i) => out.set(c.name, Number(counts[`n${i}`])));
  return out;
}

/** Columns of a relation with DuckDB types and dtypes (text as object: category is told apart on the result). */
async function relationColumns(conn: DuckDBConnection, relation: string, hidden?: string): Promise<RelationColumn[]> {
  const cols = await describeColumns(conn, relation);
  return cols.filter((c) => c.name !== hidden).map((c) => ({ name: c.name, duckType: c.duckType, dtype: baseDtype(c.duckType) }));
}

/** A name for the hidden row-number column that no column of the table has. */
function hiddenRowName(columns: readonly ColumnInfo[]): string {
  const names = new Set(columns.map((c) => c.name));
  let name = '__builder_row';
  while (names.has(name)) name += '_';
  return name;
}

/** The right-hand tables the `join`s of `ops` name (others given are not opened): relations and dtypes, by id. */
async function openJoins(conn: DuckDBConnection, ops: Operation[], paths: Record<string, string>): Promise<{ joins: ResolveContext['joins']; joinColumns: Record<string, ColumnInfo[]> }> {
  const joins: ResolveContext['joins'] = {};
  const joinColumns: Record<string, ColumnInfo[]> = {};
  for (const [versionId, path] of Object.entries(paths)) {
    if (!ops.some((op) => op.op === 'join' && op.dataset_version_id === versionId)) continue;
    const right = await openCanonical(conn, path);
    const relation = right.relation();
    const described = await relationColumns(conn, relation);
    joins[versionId] = { relation, columns: described.map((c, i) => ({ ...c, dtype: right.columns[i]?.dtype ?? c.dtype })) };
    joinColumns[versionId] = right.columns;
  }
  return { joins, joinColumns };
}

interface RunParams {
  input: string;
  output: string;
  operations: Operation[];
  joins: Record<string, string>;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  limits: IngestOptions;
  /** Refuse a result without rows or past the row and cell limits (an execution; a preview shows what it gets). */
  strict: boolean;
  progressEveryMs?: number;
}

/** Runs `p.operations` on `conn`, writing `p.output` (via a part file); returns the summary. */
async function run(conn: DuckDBConnection, p: RunParams): Promise<ExecutionSummary> {
  const ops = p.operations.map((op) => operationSchema.parse(op));
  const total = ops.length + 1;
  const onProgress = p.onProgress;
  /** Runs `work` reporting the progress of its statements as `done` of `total`, e.g. "deduplicate: 43 %". */
  const reporting = async <T>(done: number, label: string, work: () => Promise<T>): Promise<T> =>
    onProgress ? reportWhileRunning(conn, p.progressEveryMs ?? STATEMENT_PROGRESS_MS, (pct) => onProgress(done, total, pct === null ? `${label}: running` : `${label}: ${pct} %`), work) : work();
  if (onProgress) await trackStatementProgress(conn);
  const table = await openCanonical(conn, p.input);
  const { joins, joinColumns } = await openJoins(conn, ops, p.joins);
  // Everything that can be told from the schema is refused before any data is read.
  const maxColumns = p.limits.maxColumns ?? DEFAULT_MAX_COLUMNS;
  validateOperations(ops, table.columns, joinColumns, maxColumns);
  checkAborted(p.signal);

  const before: TableFacts = {
    rows: Number((await queryOne(conn, `SELECT count(*) AS n FROM ${parquetSource(p.input)}`)).n),
    columns: table.columns,
    nulls: await reporting(0, 'reading the input', () => nullCounts(conn, p.input, table.columns, (names) => table.relation(names))),
  };
  const row = hiddenRowName(table.columns);
  // File order as a column: restores order after joins and deduplication, and picks the first of duplicates.
  const numbered = table.columns.some((c) => c.name === 'file_row_number')
    ? `SELECT *, row_number() OVER () - 1 AS ${id(row)} FROM ${table.relation()}`
    : `SELECT * EXCLUDE (file_row_number), file_row_number AS ${id(row)} FROM ${table.relation(undefined, true)}`;
  await conn.run(`CREATE OR REPLACE TEMP VIEW ${id('v0')} AS ${numbered}`);

  let from = id('v0');
  let columns = await relationColumns(conn, from, row);
  let openPrefixes: string[] = [];
  let reordered = false;
  const touched = new Set<string>();
  const opRows: number[] = [];
  let rows = before.rows;
  for (const [i, op] of ops.entries()) {
    checkAborted(p.signal);
    p.onProgress?.(i, total, `Operation ${i + 1} of ${ops.length}: ${op.op}`);
    ({ openPrefixes } = checkOperation(op, i, columns, joinColumns, openPrefixes, maxColumns));
    const ctx: ResolveContext = { from, columns, row, rowsBound: before.rows, joins };
    const resolved = await reporting(i, op.op, () => resolveOperation(conn, op, i, ctx));
    checkAborted(p.signal);
    const relation = id(`v${i + 1}`);
    const select = compileOperation(op, resolved, ctx);
    if (materialised(op)) {
      // Computed here, once; its row count is then the table's (cheap to read).
      await reporting(i, op.op, () => conn.run(`CREATE OR REPLACE TEMP TABLE ${relation} AS ${select}`));
      rows = Number((await queryOne(conn, `SELECT count(*) AS n FROM ${relation}`)).n);
    } else {
      await conn.run(`CREATE OR REPLACE TEMP VIEW ${relation} AS ${select}`);
    }
    from = relation;
    columns = await relationColumns(conn, from, row);
    // One-hot encoding's columns are only known now.
    if (columns.length > maxColumns) throw new OperationError(i, op.op, `the table would have ${columns.length} columns; at most ${maxColumns} are allowed`);
    if (op.op === 'derive') touched.add(op.name);
    if (op.op === 'cast' || op.op === 'parse_dates') touched.add(op.column);
    if (REORDERS.has(op.op)) reordered = true;
    // Only materialised operations change the count: every operation's is the latest table's.
    opRows.push(rows);
  }
  checkAborted(p.signal);
  p.onProgress?.(ops.length, total, 'Writing the result');

  // The canonical stored form (NaN as NULL, UTC timestamps), as ingest writes it; untouched columns already are.
  const replace = columns
    .filter((c) => !CANONICAL_TYPES.has(c.duckType.toUpperCase()) && (touched.has(c.name) || c.duckType.toUpperCase() !== 'DOUBLE'))
    .map((c) => `${canonicalExpr(c.name, c.duckType)} AS ${id(c.name)}`);
  const projection = `SELECT * EXCLUDE (${id(row)})${replace.length ? ` REPLACE (${replace.join(', ')})` : ''} FROM ${from}${reordered ? ` ORDER BY ${id(row)}` : ''}`;
  const part = `${p.output}.${randomUUID()}.part`;
  try {
    await reporting(ops.length, 'writing the result', () => conn.run(`COPY (${projection}) TO ${sqlString(part)} (${resultParquetOptions(columns.length, before.rows)})`));
    checkAborted(p.signal);
    const rowsAfter = Number((await queryOne(conn, `SELECT count(*) AS n FROM ${parquetSource(part)}`)).n);
    const operations = ops.map((op, i) => ({ op: op.op, rows_after: opRows[i] }));
    if (p.strict) {
      const emptied = operations.findIndex((o) => o.rows_after === 0);
      if (emptied >= 0) throw new OperationError(emptied, ops[emptied].op, 'no rows are left; a dataset needs at least one row');
      checkSize(rowsAfter, columns.length, { maxRows: p.limits.maxRows ?? DEFAULT_MAX_ROWS, maxCells: p.limits.maxCells ?? DEFAULT_MAX_CELLS });
    }
    const stored = await describeColumns(conn, parquetSource(part));
    const after = await reporting(ops.length, 'checking the result', async (): Promise<TableFacts> => {
      const described = await inferDtypes(conn, stored, () => parquetSource(part));
      return { rows: rowsAfter, columns: described, nulls: await nullCounts(conn, part, described, () => parquetSource(part)) };
    });
    await rename(part, p.output);
    rememberDtypes(p.output, after.columns);
    p.onProgress?.(total, total, 'Done');
    return summarize(before, after, operations);
  } finally {
    await rm(part, { force: true });
  }
}

/**
 * Runs `operations` on the Parquet table `input` and writes the result to `output` as a canonical table (a stored
 * dataset version's form). Streamed: memory is bounded by DuckDB's limit however large the table.
 * @throws OperationError for an operation that does not fit the table or its data (e.g. a value `cast` with
 *   `on_error: 'fail'` cannot convert, or a join whose right keys repeat), or a result without rows
 * @throws the signal's reason (or an OperationsAbortedError) when `signal` aborts
 */
export async function executeOperations(p: ExecuteParams): Promise<ExecutionSummary> {
  checkAborted(p.signal);
  return withConnection(async (conn) => {
    const interrupt = (): void => conn.interrupt();
    p.signal?.addEventListener('abort', interrupt);
    try {
      return await run(conn, { ...p, joins: p.joins ?? {}, limits: p.limits ?? {}, strict: true });
    } catch (err) {
      // DuckDB's "INTERRUPT Error" is the abort, said as such.
      checkAborted(p.signal);
      throw dataFault(err, p.input);
    } finally {
      p.signal?.removeEventListener('abort', interrupt);
    }
  });
}

/**
 * Runs `operations` on a deterministic sample of `input` (the same rows every time, in file order) and answers the
 * result's first rows, its columns and the summary. Statistics (means, fences, categories...) are the sample's.
 */
export async function previewOperations(p: PreviewParams): Promise<PreviewResult> {
  const dir = await mkdtemp(join(tmpdir(), 'mlsvc-builder-preview-'));
  try {
    return await withConnection(async (conn) => {
      const samplePath = join(dir, 'sample.parquet');
      await writeSample(conn, p.input, samplePath, Math.max(1, Math.floor(p.sampleRows ?? PREVIEW_SAMPLE_ROWS)));
      const output = join(dir, 'result.parquet');
      const summary = await run(conn, { input: samplePath, output, operations: p.operations, joins: p.joins ?? {}, limits: p.limits ?? {}, strict: false });
      const limit = Math.max(0, Math.floor(p.previewRows ?? PREVIEW_ROWS));
      const raw = await queryRows(conn, `SELECT * FROM ${parquetSource(output)} LIMIT ${limit}`);
      const rows = raw.map((r) => {
        const o: JsonRow = {};
        for (const [k, v] of Object.entries(r)) setOwn(o, k, toJsonSafe(v));
        return o;
      });
      return { columns: summary.columns_after, rows, summary };
    });
  } catch (err) {
    throw dataFault(err, p.input);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Writes `n` rows of `input` drawn by a hash of (row number, seed), in file order, as a canonical table: the whole
 * table when it has no more rows.
 */
async function writeSample(conn: DuckDBConnection, input: string, out: string, n: number): Promise<void> {
  const table = await openCanonical(conn, input);
  const rows = Number((await queryOne(conn, `SELECT count(*) AS n FROM ${parquetSource(input)}`)).n);
  const clash = table.columns.some((c) => c.name === 'file_row_number');
  const source =
    rows <= n || clash
      ? `SELECT * FROM ${table.relation()} LIMIT ${n}`
      : `SELECT * EXCLUDE (file_row_number) FROM (SELECT * FROM ${table.relation(undefined, true)} ORDER BY hash(file_row_number, ${SAMPLE_SEED}) LIMIT ${n}) ORDER BY file_row_number`;
  await conn.run(`COPY (${source}) TO ${sqlString(out)} (${resultParquetOptions(table.columns.length, Math.min(rows, n))})`);
  rememberDtypes(out, table.columns);
}

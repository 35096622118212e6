import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { CategoricalColumn, Column, Frame, makeFrame } from '../frame';
import { ExperimentDataError } from './prepare';

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL.*)$/;
const DATETIME = /^(DATE|TIMESTAMP.*|DATETIME)$/;

/** Seed of the row sample: fixed, so every thread and every attempt of one experiment reads the same rows. */
const SAMPLE_SEED = 1_000_003;

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

function sqlIdent(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** A frame read from a file of `fileRows` rows: all of them, or a sample (`frame.nrows` < `fileRows`). */
export interface FrameRead {
  frame: Frame;
  fileRows: number;
}

/**
 * Reads a stored dataset version (the canonical Parquet of engine/data) into a column-major
 * frame: numbers as Float64Array (NaN missing), DATE/TIMESTAMP as epoch milliseconds,
 * everything else (text, booleans) as categorical codes. See {@link readParquetFrameWithin}.
 */
export async function readParquetFrame(path: string): Promise<Frame> {
  return (await readParquetFrameWithin(path, Infinity)).frame;
}

/**
 * {@link readParquetFrame} of at most `maxCells` cells (rows × columns): a file of more is read as a seeded sample of
 * its rows (each row kept when a hash of its position and a fixed seed falls in the kept share, so the same rows
 * every time; file order kept). Memory stays about the frame's own: DuckDB streams the rows chunk by chunk (under its
 * memory limit, spilling past it) straight into typed arrays; no array of JavaScript values per column is ever built
 * (30M rows × 2 columns read through one took 3.9 GB).
 * @throws ExperimentDataError (named `DataError`) when DuckDB cannot read the file or runs out of its memory limit
 */
export async function readParquetFrameWithin(path: string, maxCells: number): Promise<FrameRead> {
  // Loaded lazily, as DuckDB itself: code that never reads Parquet does not pay for the native module.
  const { asDataFault, withConnection } = await import('../../data/duck');
  try {
    return await withConnection((conn) => readWithin(conn, path, maxCells));
  } catch (err) {
    const fault = asDataFault(err, path);
    throw fault === err ? err : new ExperimentDataError((fault as Error).message);
  }
}

async function readWithin(conn: DuckDBConnection, path: string, maxCells: number): Promise<FrameRead> {
  const source = `read_parquet(${sqlString(path)}, file_row_number = true)`;
  const described = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(path)})`)).getRowObjectsJS();
  const names = described.map((r) => String(r['column_name']));
  const types = described.map((r) => String(r['column_type']).toUpperCase());
  // Answered from the Parquet footer, not a scan.
  const fileRows = Number((await conn.runAndReadAll(`SELECT count(*) FROM read_parquet(${sqlString(path)})`)).getRows()[0][0]);
  const keep = Math.min(fileRows, Math.floor(maxCells / Math.max(1, names.length)));
  let filter = '';
  let rows = fileRows;
  if (keep < fileRows) {
    // hash() is a UBIGINT: a row is kept when its hash is below this share of 2^64.
    const threshold = BigInt(Math.floor((keep / fileRows) * 2 ** 53)) << 11n;
    filter = ` WHERE hash(file_row_number, ${SAMPLE_SEED}) < ${threshold}::UBIGINT`;
    rows = Number((await conn.runAndReadAll(`SELECT count(*) FROM ${source}${filter}`)).getRows()[0][0]);
    // The kept share is a binomial draw around `keep`: the few rows past it are cut off the end.
    if (rows > keep) {
      filter += ` LIMIT ${keep}`;
      rows = keep;
    }
  }
  const selects = names.map((n, j) => {
    const id = sqlIdent(n);
    if (NUMERIC.test(types[j])) return `CAST(${id} AS DOUBLE)`;
    if (DATETIME.test(types[j])) return `CAST(epoch_ms(CAST(${id} AS TIMESTAMP)) AS DOUBLE)`;
    return `CAST(${id} AS VARCHAR)`;
  });
  const sinks = types.map((t) => (NUMERIC.test(t) || DATETIME.test(t) ? new NumberSink(rows) : new LevelSink(rows)));
  if (names.length > 0 && rows > 0) {
    const result = await conn.stream(`SELECT ${selects.join(', ')} FROM ${source}${filter}`);
    let at = 0;
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const n = Math.min(chunk.rowCount, rows - at);
      sinks.forEach((sink, j) => sink.put(chunk.getColumnValues(j), at, n));
      at += n;
    }
    if (at !== rows) throw new Error(`read ${at} rows of ${rows}`);
  }
  const columns = sinks.map((sink, j): Column => {
    if (sink instanceof LevelSink) return sink.column();
    return DATETIME.test(types[j]) ? { kind: 'datetime', epochMs: sink.values } : { kind: 'numeric', values: sink.values };
  });
  return { frame: makeFrame(names, columns), fileRows };
}

/** A numeric or datetime column filled chunk by chunk; NULL is NaN. */
class NumberSink {
  readonly values: Float64Array;
  constructor(rows: number) {
    this.values = new Float64Array(rows);
  }
  put(chunk: readonly DuckDBValue[], at: number, n: number): void {
    for (let i = 0; i < n; i++) {
      const x = chunk[i];
      this.values[at + i] = x === null || x === undefined ? NaN : Number(x);
    }
  }
}

/**
 * A categorical column filled chunk by chunk, as `categoricalFromStrings` builds it (NULL and '' missing, levels
 * sorted): codes in order of first appearance while reading, renumbered to the sorted levels at the end.
 */
class LevelSink {
  private readonly codes: Int32Array;
  private readonly seen = new Map<string, number>();
  constructor(rows: number) {
    this.codes = new Int32Array(rows);
  }
  put(chunk: readonly DuckDBValue[], at: number, n: number): void {
    for (let i = 0; i < n; i++) {
      const x = chunk[i];
      if (x === null || x === undefined || x === '') {
        this.codes[at + i] = -1;
        continue;
      }
      const s = String(x);
      let code = this.seen.get(s);
      if (code === undefined) this.seen.set(s, (code = this.seen.size));
      this.codes[at + i] = code;
    }
  }
  column(): CategoricalColumn {
    const levels = [...this.seen.keys()].sort();
    const renumber = new Int32Array(levels.length);
    levels.forEach((level, sorted) => (renumber[this.seen.get(level) as number] = sorted));
    for (let i = 0; i < this.codes.length; i++) if (this.codes[i] >= 0) this.codes[i] = renumber[this.codes[i]];
    return { kind: 'categorical', codes: this.codes, levels };
  }
}

/**
 * Upload ingestion: detects format/encoding by content, lets DuckDB parse CSV or Parquet, and writes the
 * canonical stored form `destDir/data.parquet` (ZSTD) with canonical column types (see dtypes.ts).
 *
 * Memory stays bounded for multi-GB inputs: non-UTF-8 text is re-encoded by a stream, and DuckDB streams
 * `COPY (SELECT ... FROM read_csv(...)) TO parquet`; no row ever enters JavaScript.
 *
 * Headerless files get generated names `column_1`, `column_2`, ... (1-based, in file order).
 *
 * Rows and cells are limited (size-limit.ts): a Parquet file by its footer before any data is read, a CSV while it is
 * converted (the copy stops one row past the limit), and both again by the stored file's footer.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBConnection } from '@duckdb/node-api';
import { TextEncoding, detectFormat } from './detect';
import { rememberDtypes } from './dtype-cache';
import { checkColumnCount, DEFAULT_MAX_COLUMNS, headerFieldsAtLeast } from './column-limit';
import { checkSize, DEFAULT_MAX_CELLS, DEFAULT_MAX_ROWS, mayHaveMoreRows, rowLimit, SizeLimits, stoppedAtLimit } from './size-limit';
import { ColumnInfo, DuckColumn, canonicalExpr, describeColumns, inferDtypes } from './dtypes';
import { DUCKDB_MEMORY_LIMIT, parquetSource, queryOne, sqlIdent, sqlString, withConnection } from './duck';
import { DataValidationError, UnsupportedFileTypeError } from './errors';
import { writeSniffSample } from './sniff-sample';
import { CANONICAL_KV_OPTION } from './table';
import { transcodeToUtf8 } from './transcode';

/** What `ingestFile` found and wrote. */
export interface IngestResult {
  format: 'csv' | 'parquet';
  /** Detected text encoding; null for Parquet. */
  encoding: TextEncoding | null;
  /** Field delimiter; null for Parquet. */
  delimiter: string | null;
  /** Whether the first CSV row was a header (always true for Parquet, whose columns are named). */
  has_header: boolean;
  row_count: number;
  column_count: number;
  columns: ColumnInfo[];
  /** Size in bytes of the uploaded source file. */
  bytes: number;
  /** Size in bytes of the stored `data.parquet`. */
  stored_bytes: number;
  /** Absolute path of the stored Parquet file. */
  parquet_path: string;
}

/** File name of the canonical stored form inside `destDir`. */
export const STORED_FILE_NAME = 'data.parquet';

/** Delimiters tried when diagnosing a file the sniffer could only read as one column. */
const DELIMITER_CANDIDATES = [',', ';', '\t', '|'];
/**
 * ZSTD level 1: on the 1.1 GB benchmark CSV it writes within ~10% of Snappy's time (level 3, DuckDB's default,
 * costs ~40% more) while the file stays ~30% smaller than Snappy's. Row groups of up to 122,880 rows (DuckDB's
 * vector size × 60) let every later scan split work across threads.
 */
export function parquetOptions(columns: number, rows: number): string {
  return `FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1, ROW_GROUP_SIZE ${rowGroupRows(columns, rows)}`;
}

/** Values (rows × columns) from which a table is written in smaller row groups (see {@link rowGroupRows}). */
const MANY_VALUES = 20_000_000;
/** Values per row group the writer aims at for such a table. */
const ROW_GROUP_VALUES = 4_000_000;

/**
 * Rows per row group for a table of `columns` columns and about `rows` rows. DuckDB buffers a whole row group
 * before writing it, and its copy behaves very differently with the group size on wide tables (measured on a
 * 2-core machine): a 100 MB CSV of 2,000 small-integer columns (25,000 rows) took over 5 minutes in groups of
 * 122,880 rows, 200 s in groups of 8,192 and 7 s in groups of 2,048; yet smaller groups ran a 1,000-row CSV of 2,000
 * mixed columns out of 512 MB and made a 2,400-row CSV of 2,000 text columns ten times slower. So only a table of
 * many values gets groups of about {@link ROW_GROUP_VALUES} values (never under 2,048 rows); any other keeps 122,880.
 */
export function rowGroupRows(columns: number, rows: number): number {
  if (rows * columns <= MANY_VALUES) return 122_880;
  return Math.max(2048, Math.min(122_880, Math.floor(ROW_GROUP_VALUES / Math.max(1, columns))));
}

/** About how many records a CSV holds: its size over the mean record length of its first MB (quotes ignored). */
async function estimateCsvRows(csvPath: string): Promise<number> {
  const fh = await open(csvPath, 'r');
  try {
    const size = (await fh.stat()).size;
    const buf = Buffer.alloc(Math.min(size, 1024 * 1024));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    let newlines = 0;
    for (let i = 0; i < bytesRead; i++) if (buf[i] === 0x0a) newlines++;
    return bytesRead === 0 ? 0 : Math.round((size * Math.max(1, newlines)) / bytesRead);
  } finally {
    await fh.close();
  }
}

const NUMERIC_NAME = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

interface CsvDialect {
  delimiter: string;
  quote: string;
  escape: string;
  skipRows: number;
  hasHeader: boolean;
  columnNames: string[];
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const isUnicodeError = (m: string): boolean => /Invalid unicode/i.test(m);
const isSniffFailure = (m: string): boolean => /not possible to automatically detect/i.test(m);
const isConversionError = (m: string): boolean => /Could not convert|Conversion Error/i.test(m);
const isOutOfMemory = (m: string): boolean => /Out of Memory Error/i.test(m);

/** The error for a file DuckDB could not convert within its memory limit (e.g. thousands of text columns). */
function tooLargeError(m: string): DataValidationError {
  return new DataValidationError(
    `The file needs more memory to convert than one upload may use (${DUCKDB_MEMORY_LIMIT}); upload fewer columns or rows (${m.split('\n')[0]})`,
  );
}

/** Turns DuckDB's "Expected Number of Columns" CSV error into a readable ragged-rows error, or null. */
function raggedError(m: string): DataValidationError | null {
  const cols = /Expected Number of Columns:\s*(\d+)\s*Found:\s*(\d+)/i.exec(m);
  if (!cols) return null;
  const line = /CSV Error on Line:\s*(\d+)/i.exec(m);
  const where = line ? `line ${line[1]}` : 'a row';
  return new DataValidationError(
    `Ragged rows: ${where} has ${cols[2]} fields but ${cols[1]} were expected; every row must have the same number of fields`,
  );
}

function readCsvExpr(path: string, d: CsvDialect, fullTypeScan: boolean): string {
  const opts = [
    `delim=${sqlString(d.delimiter)}`,
    `quote=${sqlString(d.quote)}`,
    `escape=${sqlString(d.escape)}`,
    `header=${d.hasHeader}`,
    `skip=${d.skipRows}`,
  ];
  if (!d.hasHeader) opts.push(`names=[${d.columnNames.map(sqlString).join(', ')}]`);
  // A value that contradicts the type guessed from the sample (e.g. "n/a" at row 5M of an int column)
  // fails the copy; the retry scans everything for types, which costs a second pass only for such files.
  if (fullTypeScan) opts.push('sample_size=-1');
  return `read_csv(${sqlString(path)}, ${opts.join(', ')})`;
}

/**
 * Sniffs the dialect, guarding against headers the sniffer invents and diagnosing ragged files. The sniffer reads
 * `samplePath` when given (the start of a large file, see sniff-sample.ts), the diagnosis the whole file.
 */
async function sniffDialect(conn: DuckDBConnection, path: string, samplePath: string | null): Promise<CsvDialect> {
  let row;
  try {
    row = await queryOne(conn, `SELECT Delimiter, Quote, Escape, SkipRows, HasHeader, Columns FROM sniff_csv(${sqlString(samplePath ?? path)})`);
  } catch (err) {
    const m = message(err);
    if (isUnicodeError(m)) throw err;
    if (isSniffFailure(m)) throw new UnsupportedFileTypeError();
    throw new DataValidationError(`Could not read the CSV file: ${m.split('\n')[0]}`);
  }
  const columns = queryColumns(row.Columns);
  const quote = sniffedChar(row.Quote);
  const dialect: CsvDialect = {
    delimiter: String(row.Delimiter),
    // "No quote" only means the sample had none; RFC 4180 quoting is harmless then and saves a failure at row 5M.
    quote: quote === '' ? '"' : quote,
    escape: quote === '' ? '"' : sniffedChar(row.Escape),
    skipRows: Number(row.SkipRows ?? 0),
    hasHeader: row.HasHeader === true,
    columnNames: columns,
  };
  if (columns.length === 0) throw new DataValidationError('The file has no columns');
  if (columns.length === 1) await diagnoseSingleColumn(conn, path, columns[0]);
  // The sniffer skips leading lines that do not fit the table it found; accepting that would
  // silently drop rows, so a skip means the rows disagree on their field count.
  if (dialect.skipRows > 0) {
    throw new DataValidationError(
      `Ragged rows: the first ${dialect.skipRows} line(s) do not have the same number of '${dialect.delimiter}'-separated fields as the rest; every row must have the same number of fields`,
    );
  }
  // An all-numeric first row is data: real headers are names (the UCI files without header rows rely on this).
  if (dialect.hasHeader && columns.every((c) => NUMERIC_NAME.test(c))) dialect.hasHeader = false;
  if (!dialect.hasHeader) dialect.columnNames = columns.map((_, i) => `column_${i + 1}`);
  return dialect;
}

/** sniff_csv reports "no character" as the text '(empty)'. */
function sniffedChar(value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  return s === '(empty)' ? '' : s;
}

function queryColumns(value: unknown): string[] {
  // sniff_csv returns Columns as a LIST of STRUCT{name, type}; the node API gives {items: [{entries: {...}}]}.
  const items = (value as { items?: { entries?: { name?: unknown } }[] } | null)?.items ?? [];
  return items.map((it) => String(it.entries?.name ?? ''));
}

/**
 * When the sniffer settles on one column although the header contains a delimiter, the usual cause is
 * rows with differing field counts; re-reading with that delimiter turns it into a precise error.
 */
async function diagnoseSingleColumn(conn: DuckDBConnection, path: string, header: string): Promise<void> {
  for (const delim of DELIMITER_CANDIDATES) {
    if (!header.includes(delim)) continue;
    let padded;
    try {
      padded = await queryOne(
        conn,
        `SELECT Quote, Escape, HasHeader, len(Columns) AS n FROM sniff_csv(${sqlString(path)}, delim=${sqlString(delim)}, null_padding=true)`,
      );
    } catch {
      continue;
    }
    const maxFields = Number(padded.n);
    if (maxFields < 2) continue;
    const base = `${sqlString(path)}, delim=${sqlString(delim)}, quote=${sqlString(sniffedChar(padded.Quote))}, escape=${sqlString(sniffedChar(padded.Escape))}, auto_detect=false, header=false`;
    const varcharCols = (n: number): string =>
      `{${Array.from({ length: n }, (_, i) => `'f${i}': 'VARCHAR'`).join(', ')}}`;
    // The first line's field count is what every row must match; padding lets us read it whatever it is.
    const first = await queryOne(conn, `SELECT * FROM read_csv(${base}, null_padding=true, columns=${varcharCols(maxFields)}) LIMIT 1`);
    let expected = maxFields;
    while (expected > 1 && (first[`f${expected - 1}`] === null || first[`f${expected - 1}`] === undefined)) expected--;
    try {
      await conn.run(`SELECT count(*) FROM read_csv(${base}, columns=${varcharCols(expected)})`);
    } catch (err) {
      const ragged = raggedError(message(err));
      if (ragged) throw ragged;
      continue;
    }
    throw new DataValidationError(`Ragged rows: rows do not all have the same number of '${delim}'-separated fields`);
  }
}

/** DuckDB types that are already their canonical stored type (see dtypes.ts); DOUBLE only while it holds no NaN. */
const CANONICAL_TYPES = new Set(['BIGINT', 'DOUBLE', 'BOOLEAN', 'TIMESTAMP', 'VARCHAR']);

/**
 * Whether a DOUBLE column of a Parquet file DuckDB wrote may hold NaN: DuckDB writes no min/max statistics for a
 * chunk holding NaN, so a chunk with neither that is not all NULL may.
 */
async function mayHoldNaN(conn: DuckDBConnection, parquetPath: string, cols: DuckColumn[]): Promise<boolean> {
  const doubles = cols.map((c, i) => (c.duckType.toUpperCase() === 'DOUBLE' ? i : -1)).filter((i) => i >= 0);
  if (doubles.length === 0) return false;
  const r = await queryOne(
    conn,
    `SELECT count(*) AS n FROM parquet_metadata(${sqlString(parquetPath)})
     WHERE column_id IN (${doubles.join(', ')}) AND (stats_min_value IS NULL OR stats_max_value IS NULL
       OR lower(stats_min_value) = 'nan' OR lower(stats_max_value) = 'nan') AND coalesce(stats_null_count, -1) <> num_values`,
  );
  return Number(r.n) > 0;
}

/**
 * CSV columns from which a conversion to canonical types reads the CSV into Parquet first: the CSV reader feeding a
 * projection of thousands of expressions ran out of 512 MB at 5,000 columns (1,000 rows), while the same projection
 * over Parquet did not.
 */
const WIDE_CSV_COLUMNS = 1000;

/**
 * Writes `source` in canonical form to `outPath`, marked as such (see table.ts). A CSV whose columns all have
 * canonical types (most CSVs) is copied as it is and only rewritten when it turns out to hold NaN: a projection of
 * one expression per column costs DuckDB more than linear time and memory in the number of columns. A wide CSV
 * with other types is copied as it is too, then converted from that Parquet (see {@link WIDE_CSV_COLUMNS}).
 */
async function copyToParquet(
  conn: DuckDBConnection,
  source: string,
  outPath: string,
  opts: { maxColumns: number; fromCsv: boolean; rows: number },
): Promise<void> {
  const { maxColumns, fromCsv } = opts;
  const cols = await describeColumns(conn, source);
  checkColumns(cols, maxColumns);
  const options = `${parquetOptions(cols.length, opts.rows)}, ${CANONICAL_KV_OPTION}`;
  const canonical = (from: string): string =>
    `SELECT ${cols.map((c) => `${canonicalExpr(c.name, c.duckType)} AS ${sqlIdent(c.name)}`).join(', ')} FROM ${from}`;
  const asIs = cols.every((c) => CANONICAL_TYPES.has(c.duckType.toUpperCase()));
  // Parquet from elsewhere may hold NaN whatever its statistics say (Arrow's writer leaves NaN out of min/max).
  if (!fromCsv || (!asIs && cols.length <= WIDE_CSV_COLUMNS)) {
    await conn.run(`COPY (${canonical(source)}) TO ${sqlString(outPath)} (${options})`);
    return;
  }
  await conn.run(`COPY (SELECT * FROM ${source}) TO ${sqlString(outPath)} (${options})`);
  if (asIs && !(await mayHoldNaN(conn, outPath, cols))) return;
  const rewritten = `${outPath}.nan`;
  try {
    await conn.run(`COPY (${canonical(parquetSource(outPath))}) TO ${sqlString(rewritten)} (${options})`);
    await rename(rewritten, outPath);
  } finally {
    await rm(rewritten, { force: true });
  }
}

/** Refuses a table without columns or with more than `maxColumns`. */
function checkColumns(cols: DuckColumn[], maxColumns: number): void {
  if (cols.length === 0) throw new DataValidationError('The file has no columns');
  checkColumnCount(cols.length, maxColumns);
}

/**
 * `read_csv` of the whole file, or of its first {@link rowLimit} + 1 rows when it may hold more (so the copy stops
 * there and the row count tells the file is too large; see {@link mayHaveMoreRows}).
 */
async function limitedCsvSource(csvPath: string, readExpr: string, columns: number, limits: SizeLimits): Promise<string> {
  const most = rowLimit(columns, limits);
  return (await mayHaveMoreRows(csvPath, most)) ? `(SELECT * FROM ${readExpr} LIMIT ${most + 1})` : readExpr;
}

async function ingestCsv(
  conn: DuckDBConnection,
  csvPath: string,
  outPath: string,
  maxColumns: number,
  limits: SizeLimits,
): Promise<CsvDialect> {
  // DuckDB's sniffer takes long on a very wide file; a header already past the limit is refused before it runs.
  checkColumnCount(await headerFieldsAtLeast(csvPath), maxColumns, true);
  const samplePath = `${outPath}.sniff.csv`;
  let dialect: CsvDialect;
  try {
    dialect = await sniffDialect(conn, csvPath, (await writeSniffSample(csvPath, samplePath)) ? samplePath : null);
  } finally {
    await rm(samplePath, { force: true });
  }
  checkColumnCount(dialect.columnNames.length, maxColumns);
  const rows = await estimateCsvRows(csvPath);
  for (const fullTypeScan of [false, true]) {
    try {
      const source = await limitedCsvSource(csvPath, readCsvExpr(csvPath, dialect, fullTypeScan), dialect.columnNames.length, limits);
      await copyToParquet(conn, source, outPath, { maxColumns, fromCsv: true, rows: Math.min(rows, rowLimit(dialect.columnNames.length, limits) + 1) });
      return dialect;
    } catch (err) {
      if (err instanceof DataValidationError) throw err;
      const m = message(err);
      const ragged = raggedError(m);
      if (ragged) throw ragged;
      if (isUnicodeError(m)) throw err;
      if (isOutOfMemory(m)) throw tooLargeError(m);
      if (isConversionError(m) && !fullTypeScan) continue;
      throw new DataValidationError(`Could not read the CSV file: ${m.split('\n')[0]}`);
    }
  }
  /* istanbul ignore next -- the loop either returns or throws */
  throw new Error('unreachable');
}

/** Options of {@link ingestFile}. */
export interface IngestOptions {
  /** Most columns accepted; default {@link DEFAULT_MAX_COLUMNS}. */
  maxColumns?: number;
  /** Most rows accepted; default {@link DEFAULT_MAX_ROWS}. */
  maxRows?: number;
  /** Most cells (rows × columns) accepted; default {@link DEFAULT_MAX_CELLS}. */
  maxCells?: number;
}

/**
 * Refuses a Parquet file past the limits from its footer alone (row count and top-level columns), before DuckDB
 * reads any of its data: a file of a few MB may claim hundreds of millions of rows. Returns its row count.
 */
async function checkParquetFooter(conn: DuckDBConnection, path: string, maxColumns: number, limits: SizeLimits): Promise<number> {
  const meta = await queryOne(conn, `SELECT coalesce(sum(num_rows), 0) AS n FROM parquet_file_metadata(${sqlString(path)})`);
  const cols = await describeColumns(conn, parquetSource(path));
  checkColumns(cols, maxColumns);
  const rows = Number(meta.n);
  checkSize(rows, cols.length, limits);
  return rows;
}

/**
 * Ingests an uploaded CSV or Parquet file into `destDir/data.parquet`.
 * @param srcPath uploaded file (any name; the content decides the format)
 * @param destDir folder for the stored form (created if missing)
 * @throws UnsupportedFileTypeError when the content is neither text nor Parquet
 * @throws TooManyColumnsError (a DataValidationError) past `options.maxColumns`
 * @throws TooManyRowsError, TooManyCellsError (DataValidationErrors) past `options.maxRows`, `options.maxCells`
 * @throws DataValidationError for empty files, files without data rows (a header only), ragged rows, files without
 *   columns, corrupt Parquet
 */
export async function ingestFile(srcPath: string, destDir: string, options: IngestOptions = {}): Promise<IngestResult> {
  const maxColumns = options.maxColumns ?? DEFAULT_MAX_COLUMNS;
  const limits: SizeLimits = { maxRows: options.maxRows ?? DEFAULT_MAX_ROWS, maxCells: options.maxCells ?? DEFAULT_MAX_CELLS };
  await mkdir(destDir, { recursive: true });
  const detected = await detectFormat(srcPath);
  const bytes = (await stat(srcPath)).size;
  const finalPath = join(destDir, STORED_FILE_NAME);
  const tmpId = randomUUID();
  const partPath = join(destDir, `.${tmpId}.parquet.part`);
  const utf8Path = join(destDir, `.${tmpId}.utf8.csv`);

  try {
    return await withConnection(async (conn) => {
      let encoding: TextEncoding | null = null;
      let dialect: CsvDialect | null = null;
      if (detected.format === 'parquet') {
        try {
          const rows = await checkParquetFooter(conn, srcPath, maxColumns, limits);
          await copyToParquet(conn, parquetSource(srcPath), partPath, { maxColumns, fromCsv: false, rows });
        } catch (err) {
          if (err instanceof DataValidationError) throw err;
          if (isOutOfMemory(message(err))) throw tooLargeError(message(err));
          throw new DataValidationError(`Could not read the Parquet file: ${message(err).split('\n')[0]}`);
        }
      } else {
        encoding = detected.encoding;
        const tryRead = async (enc: TextEncoding): Promise<CsvDialect> => {
          let path = srcPath;
          if (enc === 'windows-1252' || enc === 'utf-16le' || enc === 'utf-16be') {
            await transcodeToUtf8(srcPath, utf8Path, enc);
            path = utf8Path;
          }
          return ingestCsv(conn, path, partPath, maxColumns, limits);
        };
        try {
          dialect = await tryRead(encoding);
        } catch (err) {
          // The 64 KiB sample looked like UTF-8 but a later byte is not: the file is a single-byte encoding.
          if (!(encoding === 'utf-8' || encoding === 'utf-8-bom') || !isUnicodeError(message(err))) throw err;
          encoding = 'windows-1252';
          dialect = await tryRead(encoding);
        }
      }
      // Answered from the Parquet footer, not a scan.
      const countRow = await queryOne(conn, `SELECT count(*) AS n FROM ${parquetSource(partPath)}`);
      // A header without rows is no dataset: nothing to profile, train on or preview.
      if (Number(countRow.n) === 0) throw new DataValidationError('The file has no data rows');
      const stored = await describeColumns(conn, parquetSource(partPath));
      // A CSV copy that stopped one row past the limit; else the exact count (a Parquet footer that understated it).
      if (dialect && Number(countRow.n) === rowLimit(stored.length, limits) + 1) throw stoppedAtLimit(stored.length, limits);
      checkSize(Number(countRow.n), stored.length, limits);
      await rename(partPath, finalPath);
      const source = parquetSource(finalPath);
      const columns = await inferDtypes(conn, stored, () => source);
      const storedBytes = (await stat(finalPath)).size;
      rememberDtypes(finalPath, columns);
      const result: IngestResult = {
        format: detected.format,
        encoding,
        delimiter: dialect ? dialect.delimiter : null,
        has_header: dialect ? dialect.hasHeader : true,
        row_count: Number(countRow.n),
        column_count: columns.length,
        columns,
        bytes,
        stored_bytes: storedBytes,
        parquet_path: finalPath,
      };
      return result;
    });
  } finally {
    await rm(partPath, { force: true });
    await rm(utf8Path, { force: true });
  }
}

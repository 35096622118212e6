/**
 * The limits on a dataset's rows and cells (rows × columns), and the cheap look at a CSV that tells whether its
 * conversion must watch them.
 *
 * The upload's byte limit does not bound rows: Parquet compresses a constant column to almost nothing (400M rows of
 * two constant columns fit in 3 MB), and every later step (the conversion, the quality report, the profile, training)
 * costs time, disk or memory in rows. So rows and cells have limits of their own: a Parquet file is checked against
 * the row count of its footer before any of its data is read, a CSV while it is converted (see ingest.ts).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { TooManyCellsError, TooManyRowsError } from './errors';

/**
 * Rows a dataset may have unless the caller says otherwise (the service passes its `MAX_DATASET_ROWS`). A 100 MB CSV
 * (the default upload limit) holds at most ~50M rows, so this only refuses what compression made of a bigger table.
 * 50M rows profile in about a minute on 2 cores within DuckDB's memory limit.
 */
export const DEFAULT_MAX_ROWS = 50_000_000;

/**
 * Cells (rows × columns) a dataset may have unless the caller says otherwise (`MAX_DATASET_CELLS`): 4 GB as doubles,
 * more than any 100 MB upload of real data decompresses to, while each pass of a profile over it stays within minutes.
 */
export const DEFAULT_MAX_CELLS = 500_000_000;

/** Both limits, as the ingest takes them. */
export interface SizeLimits {
  maxRows: number;
  maxCells: number;
}

/** Most rows a table of `columns` columns may have under both limits. */
export function rowLimit(columns: number, limits: SizeLimits): number {
  return Math.min(limits.maxRows, Math.floor(limits.maxCells / Math.max(1, columns)));
}

/** Throws {@link TooManyRowsError} or {@link TooManyCellsError} when a table of `rows` × `columns` is past a limit. */
export function checkSize(rows: number, columns: number, limits: SizeLimits): void {
  if (rows > limits.maxRows) throw new TooManyRowsError(rows, limits.maxRows);
  if (rows * columns > limits.maxCells) throw new TooManyCellsError(rows, columns, limits.maxCells);
}

/** The refusal of a conversion that stopped after {@link rowLimit} + 1 rows: the file has more than the limit allows. */
export function stoppedAtLimit(columns: number, limits: SizeLimits): Error {
  const limit = rowLimit(columns, limits);
  return limit === limits.maxRows ? new TooManyRowsError(limit + 1, limits.maxRows, true) : new TooManyCellsError(limit, columns, limits.maxCells, true);
}

/**
 * Whether the CSV at `path` may hold more than `rows` data rows: a record ends at a line feed (or the file's end), so
 * a file of at most `rows` - 1 line feeds cannot. The count stops as soon as it passes; a file of fewer bytes than
 * `rows` is not read at all. Used to leave the limit out of the conversion of the files that cannot reach it (a
 * LIMIT makes DuckDB's copy slower).
 */
export async function mayHaveMoreRows(path: string, rows: number): Promise<boolean> {
  if ((await stat(path)).size < rows) return false;
  let lineFeeds = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(0x0a); i >= 0; i = chunk.indexOf(0x0a, i + 1)) {
      if (++lineFeeds >= rows) return true;
    }
  }
  return false;
}

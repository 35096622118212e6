/**
 * The limit on columns per dataset, and a cheap early look at a CSV header's width.
 *
 * The ingest and every analysis of a table cost more than linear time in its number of columns inside DuckDB
 * (binding a query over thousands of columns, the CSV sniffer, the Parquet writer's per-column buffers), so the
 * width is what bounds one upload's time and memory. Rows and cells have limits of their own (size-limit.ts): the
 * upload's byte limit does not bound them.
 */
import { open } from 'node:fs/promises';
import { TooManyColumnsError } from './errors';

/**
 * Columns a dataset may have unless the caller says otherwise (the service passes its `MAX_DATASET_COLUMNS`).
 * Measured with DuckDB's 512 MB per connection on a 2-core machine: 2,000 columns of any type upload and analyze
 * (100 MB CSVs of 2,000 columns: upload 13-20 s, analyze 4-14 s, the process growing by at most ~730 MB), while
 * DuckDB's CSV-to-Parquet copy of 3,000 text columns already needs more than 512 MB, even for 20 rows (5,000 numeric
 * columns still fit).
 */
export const DEFAULT_MAX_COLUMNS = 2000;

/** Bytes of a CSV's start read to count its header's fields before DuckDB's sniffer sees the file. */
export const HEADER_PEEK_BYTES = 1024 * 1024;

/** Delimiters the header count tries (DuckDB's sniffer tries the same). */
const DELIMITERS = [',', ';', '\t', '|'];

/**
 * A lower bound on the number of fields of the first record of a UTF-8 CSV, from at most {@link HEADER_PEEK_BYTES}:
 * per delimiter, the fields of the first record ('"' quotes respected; a record cut by the peek counts what was
 * read); of the delimiters that split it at all, the smallest count. Whatever the true delimiter, the record has at
 * least that many fields, so a count past the limit proves the file too wide before any parsing.
 */
export async function headerFieldsAtLeast(csvPath: string): Promise<number> {
  const fh = await open(csvPath, 'r');
  let text: string;
  try {
    const buf = Buffer.alloc(HEADER_PEEK_BYTES);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    text = buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
  let best = 1;
  for (const delim of DELIMITERS) {
    const n = firstRecordFields(text, delim);
    if (n > 1 && (best === 1 || n < best)) best = n;
  }
  return best;
}

/** Fields of the first record of `text` split on `delim`, RFC 4180 quotes respected. */
export function firstRecordFields(text: string, delim: string): number {
  let fields = 1;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === delim) fields++;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
  }
  return fields;
}

/** Throws {@link TooManyColumnsError} when `columns` exceeds `limit`. */
export function checkColumnCount(columns: number, limit: number, atLeast = false): void {
  if (columns > limit) throw new TooManyColumnsError(columns, limit, atLeast);
}

/**
 * Content-based format and encoding detection. The file name is never consulted: a Parquet file
 * named .csv is Parquet, binary garbage named .csv is unsupported.
 */
import { open } from 'node:fs/promises';
import { TextDecoder } from 'node:util';
import { DataValidationError, UnsupportedFileTypeError } from './errors';

/** Text encodings the ingest understands. `windows-1252` also covers Latin-1 (a superset of its printable range). */
export type TextEncoding = 'utf-8' | 'utf-8-bom' | 'windows-1252' | 'utf-16le' | 'utf-16be';

/** What a file's content turned out to be. */
export type DetectedFormat = { format: 'parquet' } | { format: 'csv'; encoding: TextEncoding };

/** Bytes inspected up front; large enough to see many rows, small enough to be instant. */
export const SNIFF_BYTES = 64 * 1024;
/**
 * Share of control characters (other than tab, CR, LF, FF) above which text is called binary.
 * Random bytes have ~10%; real CSVs have essentially none.
 */
const MAX_CONTROL_RATIO = 0.01;

function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c) || code === 0x7f;
}

function controlRatio(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) if (isControl(text.charCodeAt(i))) n++;
  return n / text.length;
}

/**
 * Detects whether `path` holds Parquet or delimited text and, for text, its encoding.
 * @throws DataValidationError for an empty (or whitespace/BOM-only) file or a truncated Parquet file
 * @throws UnsupportedFileTypeError for anything that is neither Parquet nor text
 */
export async function detectFormat(path: string): Promise<DetectedFormat> {
  const fh = await open(path, 'r');
  let head: Buffer;
  let size: number;
  let tail = Buffer.alloc(0);
  try {
    size = (await fh.stat()).size;
    if (size === 0) throw new DataValidationError('File is empty');
    head = Buffer.alloc(Math.min(SNIFF_BYTES, size));
    await fh.read(head, 0, head.length, 0);
    if (size >= 8) {
      tail = Buffer.alloc(4);
      await fh.read(tail, 0, 4, size - 4);
    }
  } finally {
    await fh.close();
  }
  const wholeFile = size <= head.length;

  if (head.subarray(0, 4).toString('latin1') === 'PAR1') {
    if (tail.toString('latin1') !== 'PAR1') throw new DataValidationError('Parquet file is truncated or corrupt');
    return { format: 'parquet' };
  }

  let encoding: TextEncoding;
  let text: string;
  if (head[0] === 0xff && head[1] === 0xfe) {
    // FF FE 00 00 is the UTF-32 LE BOM, which we do not accept.
    if (head[2] === 0 && head[3] === 0) throw new UnsupportedFileTypeError();
    encoding = 'utf-16le';
    text = new TextDecoder('utf-16le').decode(head.subarray(0, head.length - (head.length % 2)));
  } else if (head[0] === 0xfe && head[1] === 0xff) {
    encoding = 'utf-16be';
    text = new TextDecoder('utf-16be').decode(head.subarray(0, head.length - (head.length % 2)));
  } else {
    if (head.includes(0)) throw new UnsupportedFileTypeError();
    const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
    try {
      // stream: true so a multi-byte character cut at the end of the sample is not an error.
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(head, { stream: !wholeFile });
      encoding = bom ? 'utf-8-bom' : 'utf-8';
    } catch {
      encoding = 'windows-1252';
      text = new TextDecoder('windows-1252').decode(head);
    }
  }
  if (controlRatio(text) > MAX_CONTROL_RATIO) throw new UnsupportedFileTypeError();
  if (wholeFile && text.replace(/^\uFEFF/, '').trim().length === 0) throw new DataValidationError('File is empty');
  return { format: 'csv', encoding };
}

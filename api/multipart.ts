import { basename, decodeText, parseContentType, parseDisposition } from './multipart-headers';

/** Text fields kept per request; later ones are ignored. */
export const MAX_FIELDS = 20;
/** Bytes kept of one text field; the rest is dropped. */
export const MAX_FIELD_BYTES = 64 * 1024;
/** File parts considered per request: only the first, and only when it is named `file`. */
const MAX_FILES = 1;
/** A part's header block may not be longer than this (the limit Node applies to request headers). */
export const MAX_PART_HEADER_BYTES = 16 * 1024;

/** A body that is not well-formed multipart. */
export class MalformedMultipart extends Error {}

export interface PartHandlers {
  field(name: string, value: string): void;
  /** A file part begins; answers whether its bytes are wanted. */
  fileStart(name: string | undefined, filename: string | undefined): boolean;
  fileData(bytes: Buffer): void;
  fileEnd(): void;
}

type Sink = { kind: 'skip' } | { kind: 'file' } | { kind: 'field'; name: string; charset: string; chunks: Buffer[]; bytes: number };

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const SKIP: Sink = { kind: 'skip' };

/**
 * Streaming multipart/form-data parser. Part bodies are scanned for the delimiter with `Buffer.indexOf` (native
 * code) and handed on as views of the incoming chunks, never copied: busboy's per-byte JavaScript scan cost about
 * as much CPU as the rest of receiving a large upload. Semantics follow busboy's: the preamble and epilogue are
 * ignored, a part with a filename (or of type application/octet-stream) is a file, field values are truncated
 * at {@link MAX_FIELD_BYTES}, fields past {@link MAX_FIELDS} and files past {@link MAX_FILES} are skipped.
 */
export class MultipartParser {
  private readonly delimiter: Buffer;
  private state: 'body' | 'afterDelimiter' | 'headers' | 'done' = 'body';
  private sink: Sink = SKIP;
  /** Unconsumed bytes of the previous chunk: a possible start of the delimiter, or an unfinished header block. */
  private carry: Buffer = Buffer.alloc(0);
  private fields = 0;
  private files = 0;

  constructor(
    boundary: string,
    private readonly on: PartHandlers,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
    // The first boundary has no line break before it: supply one, as busboy does.
    this.push(CRLF);
  }

  push(chunk: Buffer): void {
    const buf = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = Buffer.alloc(0);
    let pos = 0;
    while (pos < buf.length && this.state !== 'done') {
      if (this.state === 'body') pos = this.scanBody(buf, pos);
      else if (this.state === 'afterDelimiter') pos = this.afterDelimiter(buf, pos);
      else pos = this.readHeaders(buf, pos);
    }
  }

  /** The body ended: it must have ended with the closing delimiter. */
  end(): void {
    if (this.state !== 'done') throw new MalformedMultipart('Unexpected end of form');
  }

  private keep(buf: Buffer, from: number): number {
    this.carry = Buffer.from(buf.subarray(from));
    return buf.length;
  }

  private scanBody(buf: Buffer, pos: number): number {
    const at = buf.indexOf(this.delimiter, pos);
    if (at >= 0) {
      this.deliver(buf.subarray(pos, at));
      this.endPart();
      this.state = 'afterDelimiter';
      return at + this.delimiter.length;
    }
    const held = this.partialDelimiterAtEnd(buf, pos);
    this.deliver(buf.subarray(pos, buf.length - held));
    return this.keep(buf, buf.length - held);
  }

  /** Length of the longest tail of `buf[pos..]` that is a proper prefix of the delimiter (0 when none). */
  private partialDelimiterAtEnd(buf: Buffer, pos: number): number {
    const longest = Math.min(this.delimiter.length - 1, buf.length - pos);
    for (let n = longest; n > 0; n--) {
      const start = buf.length - n;
      if (buf[start] === 13 && buf.compare(this.delimiter, 0, n, start, buf.length) === 0) return n;
    }
    return 0;
  }

  /** After a delimiter: `--` closes the body, CRLF opens the next part; anything else is not a boundary. */
  private afterDelimiter(buf: Buffer, pos: number): number {
    if (buf.length - pos < 2) return this.keep(buf, pos);
    if (buf[pos] === 45 && buf[pos + 1] === 45) {
      this.state = 'done';
      return buf.length;
    }
    if (buf[pos] === 13 && buf[pos + 1] === 10) {
      this.state = 'headers';
      return pos + 2;
    }
    // busboy treats the text as the (already closed) part's data: dropped up to the next delimiter.
    this.sink = SKIP;
    this.state = 'body';
    return pos;
  }

  private readHeaders(buf: Buffer, pos: number): number {
    if (buf.length - pos < 2) return this.keep(buf, pos);
    let end: number;
    let next: number;
    if (buf[pos] === 13 && buf[pos + 1] === 10) {
      end = pos;
      next = pos + 2;
    } else {
      end = buf.indexOf(HEADER_END, pos);
      if (end < 0) {
        if (buf.length - pos > MAX_PART_HEADER_BYTES) throw new MalformedMultipart('Malformed part header');
        return this.keep(buf, pos);
      }
      next = end + HEADER_END.length;
    }
    if (end - pos > MAX_PART_HEADER_BYTES) throw new MalformedMultipart('Malformed part header');
    // No header may hold a NUL byte (RFC 5322); busboy's grammar would end the name there and drop the part unread.
    if (buf.subarray(pos, end).includes(0)) throw new MalformedMultipart('Malformed part header');
    this.startPart(parseHeaderBlock(buf.toString('latin1', pos, end)));
    this.state = 'body';
    return next;
  }

  private startPart(headers: Map<string, string>): void {
    this.sink = SKIP;
    const disposition = headers.get('content-disposition');
    const disp = disposition ? parseDisposition(disposition) : undefined;
    if (!disp || disp.type !== 'form-data') return;
    // An empty name is still a field the handlers see (and check), not a part dropped unread.
    const name = disp.params.name;
    const rawFilename = disp.params['filename*'] || disp.params.filename || undefined;
    const filename = rawFilename === undefined ? undefined : basename(rawFilename);
    let type = 'text/plain';
    let charset = 'utf8';
    const contentType = headers.get('content-type');
    const parsed = contentType ? parseContentType(contentType) : undefined;
    if (parsed) {
      type = `${parsed.type}/${parsed.subtype}`;
      if (typeof parsed.params.charset === 'string') charset = parsed.params.charset.toLowerCase();
    }
    if (type === 'application/octet-stream' || filename !== undefined) {
      if (this.files === MAX_FILES) return;
      this.files++;
      if (this.on.fileStart(name, filename)) this.sink = { kind: 'file' };
    } else {
      if (this.fields === MAX_FIELDS || name === undefined) return;
      this.fields++;
      this.sink = { kind: 'field', name, charset, chunks: [], bytes: 0 };
    }
  }

  private deliver(bytes: Buffer): void {
    if (bytes.length === 0) return;
    const sink = this.sink;
    if (sink.kind === 'file') this.on.fileData(bytes);
    else if (sink.kind === 'field' && sink.bytes < MAX_FIELD_BYTES) {
      const kept = bytes.subarray(0, MAX_FIELD_BYTES - sink.bytes);
      sink.chunks.push(Buffer.from(kept));
      sink.bytes += kept.length;
    }
  }

  private endPart(): void {
    const sink = this.sink;
    this.sink = SKIP;
    if (sink.kind === 'file') this.on.fileEnd();
    else if (sink.kind === 'field') {
      this.on.field(sink.name, decodeText(Buffer.concat(sink.chunks), sink.charset) ?? '');
    }
  }
}

const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;

/** `Name: value` lines (folded lines joined) into lower-cased names → first value. */
function parseHeaderBlock(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  let last: string | undefined;
  for (const line of block.split('\r\n')) {
    if ((line.startsWith(' ') || line.startsWith('\t')) && last !== undefined) {
      headers.set(last, `${headers.get(last)} ${line.trim()}`);
      continue;
    }
    const m = HEADER_LINE.exec(line);
    if (!m) throw new MalformedMultipart('Malformed part header');
    const name = m[1].toLowerCase();
    if (headers.has(name)) {
      last = undefined;
      continue;
    }
    headers.set(name, m[2]);
    last = name;
  }
  return headers;
}

/** The boundary of a multipart/form-data content type, or null when the header is not one. */
export function multipartBoundary(contentType: string): string | null {
  const parsed = parseContentType(contentType);
  if (!parsed || parsed.type !== 'multipart' || parsed.subtype !== 'form-data') return null;
  const boundary = parsed.params.boundary;
  return typeof boundary === 'string' && boundary.length > 0 ? boundary : null;
}

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from './context';
import { badRequest, HttpError } from './errors';
import { inputIssues } from './validation';

export interface ReceivedUpload {
  fields: Record<string, string>;
  file?: { path: string; filename: string; bytes: number };
  /** Removes the temporary file; call in `finally`. */
  cleanup(): void;
}

/** Room for multipart boundaries and small text fields on top of the file limit. */
const MULTIPART_OVERHEAD = 64 * 1024;
/** Text fields kept per request; later ones are ignored. */
const MAX_FIELDS = 20;
/** Bytes kept of one text field; the rest is dropped. */
const MAX_FIELD_BYTES = 64 * 1024;
/** File parts considered per request: only the first, and only when it is named `file`. */
const MAX_FILES = 1;
/** A part's header block may not be longer than this (the limit Node applies to request headers). */
const MAX_PART_HEADER_BYTES = 16 * 1024;

/**
 * busboy's own header grammar (content type and disposition parameters, RFC 5987 `filename*`, charsets), so names,
 * file names and field values decode exactly as they did when busboy parsed the whole body. Only its byte-at-a-time
 * body scan is replaced (see {@link MultipartParser}).
 */
interface ParamMap {
  [name: string]: string | undefined;
}
interface BusboyUtils {
  parseContentType(s: string): { type: string; subtype: string; params: ParamMap } | undefined;
  parseDisposition(s: string, decode: (v: string) => string): { type: string; params: ParamMap } | undefined;
  basename(p: string): string;
  convertToUTF8(data: Buffer, charset: string, hint: number): string | undefined;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- an internal path of busboy, pinned by the lockfile, with no type declarations
const busboyUtils = require('busboy/lib/utils.js') as BusboyUtils;
/** busboy's default for disposition parameters: their bytes as read (latin1), not re-decoded. */
const keepLatin1 = (v: string): string => v;

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
    const disp = disposition ? busboyUtils.parseDisposition(disposition, keepLatin1) : undefined;
    if (!disp || disp.type !== 'form-data') return;
    // An empty name is still a field the handlers see (and check), not a part dropped unread.
    const name = disp.params.name;
    const rawFilename = disp.params['filename*'] || disp.params.filename || undefined;
    const filename = rawFilename === undefined ? undefined : busboyUtils.basename(rawFilename);
    let type = 'text/plain';
    let charset = 'utf8';
    const contentType = headers.get('content-type');
    const parsed = contentType ? busboyUtils.parseContentType(contentType) : undefined;
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
      this.on.field(sink.name, busboyUtils.convertToUTF8(Buffer.concat(sink.chunks), sink.charset, 0) ?? '');
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
function multipartBoundary(contentType: string): string | null {
  const parsed = busboyUtils.parseContentType(contentType);
  if (!parsed || parsed.type !== 'multipart' || parsed.subtype !== 'form-data') return null;
  const boundary = parsed.params.boundary;
  return typeof boundary === 'string' && boundary.length > 0 ? boundary : null;
}

/**
 * The upload's file on disk. Writes are synchronous, on the event loop: measured on the 1.2 GB benchmark, writing
 * from the libuv pool while the loop reads the socket cost two to three times the CPU of writing each chunk in
 * place (~1 s vs 2.5-3.5 s on 2 cores), and a chunk is at most one socket read (64 KiB), so the loop never
 * stalls for long.
 */
class UploadFile {
  private fd: number | null = null;
  bytes = 0;

  constructor(readonly path: string) {}

  write(chunk: Buffer): void {
    if (this.fd === null) this.fd = fs.openSync(this.path, 'w');
    for (let off = 0; off < chunk.length;) off += fs.writeSync(this.fd, chunk, off, chunk.length - off);
    this.bytes += chunk.length;
  }

  close(): void {
    if (this.fd === null) this.fd = fs.openSync(this.path, 'w');
    fs.closeSync(this.fd);
    this.fd = -1;
  }

  /** Closes (if open) and deletes the file. */
  discard(): void {
    if (this.fd !== null && this.fd >= 0) fs.closeSync(this.fd);
    this.fd = -1;
    fs.rmSync(this.path, { force: true });
  }
}

/**
 * Streams a multipart upload's single `file` part to a temporary file, enforcing
 * `maxFileBytes` while the body streams: a declared Content-Length above the limit is
 * refused before reading, and a stream that grows past it is cut off. Nothing is left
 * behind on any failure.
 */
export interface UploadOptions {
  tmpRoot: string;
  maxFileBytes: number;
  /** A client that sends nothing for this long is cut off with 408 (slow-loris uploads hold no connection). */
  idleTimeoutMs: number;
  /**
   * Called with the text fields read so far when the file part begins, before its bytes are
   * kept: an access check that refuses here spares receiving the whole file. The body is paused
   * while it runs.
   */
  beforeFile?: (fields: Record<string, string>) => Promise<void>;
}

export async function receiveUpload(ctx: AppContext, opts: UploadOptions): Promise<ReceivedUpload> {
  const { tmpRoot, maxFileBytes } = opts;
  const type = ctx.get('content-type');
  if (!/^multipart\/form-data/i.test(type)) throw new HttpError(415, 'Expected multipart/form-data');
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > maxFileBytes + MULTIPART_OVERHEAD) {
    closeAfterAnswer(ctx);
    throw tooLarge(maxFileBytes);
  }
  const boundary = multipartBoundary(type);
  if (boundary === null) throw badRequest('Malformed multipart body');

  fs.mkdirSync(tmpRoot, { recursive: true });
  const tmp = new UploadFile(path.join(tmpRoot, `${randomUUID()}.upload`));
  const fields: Record<string, string> = {};
  let file: ReceivedUpload['file'];
  let filename = 'upload';
  let ended = false;

  let idle: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      /** The before-file check, once started; the body stays paused until it settles. */
      let check: Promise<void> | undefined;
      let checked = false;
      const parser = new MultipartParser(boundary, {
        field: (name, value) => {
          // Text fields reach names, descriptions and stored JSON: a NUL is refused here, as in JSON bodies.
          const nul = inputIssues({ [name]: value }, 'body');
          if (nul.length) throw new HttpError(422, nul);
          fields[name] = value;
        },
        fileStart: (name, fname) => {
          if (name === 'file' && fname?.includes('\u0000')) throw new HttpError(422, inputIssues(fname, ['body', 'file', 'filename']));
          filename = fname ?? 'upload';
          if (name === 'file' && opts.beforeFile && !check) {
            check = opts.beforeFile({ ...fields });
            // Observed here so a refusal never goes unhandled; onData and 'end' act on it.
            check.catch(() => undefined);
          }
          return name === 'file';
        },
        fileData: (bytes) => {
          if (tmp.bytes + bytes.length > maxFileBytes) throw tooLarge(maxFileBytes);
          tmp.write(bytes);
        },
        fileEnd: () => {
          tmp.close();
          file = { path: tmp.path, filename, bytes: tmp.bytes };
        },
      });
      const stop = (err: unknown) => {
        clearTimeout(idle);
        ctx.req.off('data', onData);
        ctx.req.pause();
        reject(err instanceof MalformedMultipart ? badRequest('Upload was incomplete or malformed') : err);
      };
      const armIdle = () => {
        clearTimeout(idle);
        idle = setTimeout(() => stop(new HttpError(408, `Upload stalled: no data for ${Math.round(opts.idleTimeoutMs / 1000)} s`)), opts.idleTimeoutMs);
      };
      const onData = (chunk: Buffer) => {
        armIdle();
        try {
          parser.push(chunk);
        } catch (err) {
          stop(err);
          return;
        }
        if (check && !checked) {
          checked = true;
          ctx.req.pause();
          clearTimeout(idle);
          check.then(() => {
            // The whole body may have arrived with this chunk: after its end there is nothing left to wait for.
            if (!ended) armIdle();
            ctx.req.resume();
          }, stop);
        }
      };
      armIdle();
      ctx.req.on('data', onData);
      ctx.req.on('end', () => {
        ended = true;
        clearTimeout(idle);
        (check ?? Promise.resolve()).then(() => {
          try {
            parser.end();
            resolve();
          } catch (err) {
            stop(err);
          }
        }, stop);
      });
      ctx.req.on('aborted', () => stop(badRequest('Upload was incomplete or malformed')));
      ctx.req.on('error', () => stop(badRequest('Upload was incomplete or malformed')));
    });
  } catch (err) {
    clearTimeout(idle);
    tmp.discard();
    // Refused early (over the limit, malformed): the rest of the body is not parsed.
    if (!ended) closeAfterAnswer(ctx);
    throw err;
  }
  // A timer left armed keeps the process alive for up to idleTimeoutMs (it held test runs ~55 s at their end).
  clearTimeout(idle);
  return { fields, file, cleanup: () => fs.rmSync(tmp.path, { force: true }) };
}

function tooLarge(max: number): HttpError {
  return new HttpError(413, `File exceeds the upload limit of ${max} bytes`);
}

/** How long the rest of a refused body is read and dropped after the answer before the socket is destroyed. */
const LINGER_MS = 2000;

/**
 * Ends the connection after the answer to a body that was not read to its end. The answer says `Connection: close`,
 * so the client does not reuse the connection. Node then ends the socket with `destroySoon()`, and closing a socket
 * with unread bytes makes the kernel reset it, which can destroy the answer before the client reads it (a client
 * still sending reported EPIPE instead of 413). So this connection's `destroySoon` sends the FIN and drops what the
 * client still sends for at most {@link LINGER_MS} before destroying the socket.
 */
export function closeAfterAnswer(ctx: AppContext): void {
  const socket = ctx.req.socket;
  ctx.set('Connection', 'close');
  socket.destroySoon = () => {
    socket.end();
    ctx.req.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

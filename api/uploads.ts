import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from './context';
import { badRequest, HttpError } from './errors';
import { MalformedMultipart, MultipartParser, multipartBoundary } from './multipart';
import { inputIssues } from './validation';

export interface ReceivedUpload {
  fields: Record<string, string>;
  file?: { path: string; filename: string; bytes: number };
  /** Removes the temporary file; call in `finally`. */
  cleanup(): void;
}

/** Room for multipart boundaries and small text fields on top of the file limit. */
const MULTIPART_OVERHEAD = 64 * 1024;
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
  /** What sets `maxFileBytes`, named in the 413 (`max_upload_bytes of the plan`). */
  limitName?: string;
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
  const tooLarge = () => fileTooLarge(maxFileBytes, opts.limitName);
  const type = ctx.get('content-type');
  if (!/^multipart\/form-data/i.test(type)) throw new HttpError(415, 'Expected multipart/form-data');
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > maxFileBytes + MULTIPART_OVERHEAD) {
    closeAfterAnswer(ctx);
    throw tooLarge();
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
          if (tmp.bytes + bytes.length > maxFileBytes) throw tooLarge();
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

function fileTooLarge(max: number, limitName?: string): HttpError {
  return new HttpError(413, `File exceeds the upload limit of ${max} bytes${limitName ? ` (${limitName})` : ''}`);
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

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import busboy from 'busboy';
import type { AppContext } from './context';
import { badRequest, HttpError } from './errors';

export interface ReceivedUpload {
  fields: Record<string, string>;
  file?: { path: string; filename: string; bytes: number };
  /** Removes the temporary file; call in `finally`. */
  cleanup(): void;
}

/** Room for multipart boundaries and small text fields on top of the file limit. */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * Streams a multipart upload's single `file` part to a temporary file, enforcing
 * `maxFileBytes` while the body streams: a declared Content-Length above the limit is
 * refused before reading, and a stream that grows past it is cut off. Nothing is left
 * behind on any failure.
 */
export async function receiveUpload(ctx: AppContext, tmpRoot: string, maxFileBytes: number): Promise<ReceivedUpload> {
  const type = ctx.get('content-type');
  if (!/^multipart\/form-data/i.test(type)) throw new HttpError(415, 'Expected multipart/form-data');
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > maxFileBytes + MULTIPART_OVERHEAD) throw tooLarge(ctx, maxFileBytes);

  fs.mkdirSync(tmpRoot, { recursive: true });
  const tmpPath = path.join(tmpRoot, `${randomUUID()}.upload`);
  const cleanup = () => fs.rmSync(tmpPath, { force: true });
  const fields: Record<string, string> = {};
  let file: ReceivedUpload['file'];
  let fileWrite: Promise<void> | undefined;
  let fileStream: NodeJS.ReadableStream & { destroy(): void } | undefined;
  let overLimit = false;

  try {
    await new Promise<void>((resolve, reject) => {
      let bb: busboy.Busboy;
      try {
        bb = busboy({ headers: ctx.req.headers, limits: { fileSize: maxFileBytes, files: 1, fields: 20, fieldSize: 64 * 1024 } });
      } catch {
        return reject(badRequest('Malformed multipart body'));
      }
      bb.on('field', (name, value) => {
        fields[name] = value;
      });
      bb.on('file', (name, stream, info) => {
        if (name !== 'file') {
          stream.resume();
          return;
        }
        fileStream = stream;
        let bytes = 0;
        const counter = new Transform({
          transform(chunk: Buffer, _e, cb) {
            bytes += chunk.length;
            cb(null, chunk);
          },
        });
        stream.on('limit', () => {
          overLimit = true;
          ctx.req.unpipe(bb);
          reject(tooLarge(ctx, maxFileBytes));
        });
        fileWrite = pipeline(stream, counter, fs.createWriteStream(tmpPath)).then(() => {
          file = { path: tmpPath, filename: info.filename ?? 'upload', bytes };
        });
        fileWrite.catch(reject);
      });
      bb.on('error', () => reject(badRequest('Upload was incomplete or malformed')));
      bb.on('close', () => resolve());
      ctx.req.on('aborted', () => reject(badRequest('Upload was incomplete or malformed')));
      ctx.req.pipe(bb);
    });
    if (fileWrite) await fileWrite;
  } catch (err) {
    // The file may still be opening or writing: stop it and let it close, or the removal below
    // could run first and the file be created after it.
    fileStream?.destroy();
    await fileWrite?.catch(() => undefined);
    cleanup();
    // Past the limit the rest of the body is not read; the answer goes out with
    // `Connection: close` and the socket ends after it.
    if (overLimit) ctx.res.once('finish', () => ctx.req.socket.destroySoon());
    throw err;
  }
  return { fields, file, cleanup };
}

function tooLarge(ctx: AppContext, max: number): HttpError {
  // The rest of the body is not read: close the connection after answering.
  ctx.set('Connection', 'close');
  return new HttpError(413, `File exceeds the upload limit of ${max} bytes`);
}

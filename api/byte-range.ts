import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { ByteRange } from '../platform/artifact-store';

/**
 * The one byte range a `Range` header asks of an object of `size` bytes (RFC 9110 §14): `bytes=a-b`, `bytes=a-` or
 * `bytes=-n` (the last n bytes), clipped to the object. `'unsatisfiable'` when it starts past the end (416); `null`
 * when there is no header, it is malformed, or it asks for several ranges: the whole object is then sent, which the
 * RFC allows a server to do for any range request.
 */
export function parseByteRange(header: string | undefined, size: number): Required<ByteRange> | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (!Number.isSafeInteger(suffix)) return null;
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? Number.MAX_SAFE_INTEGER : Number(m[2]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/** The responses a ranged download documents beside its 200. */
export const RANGE_RESPONSES = {
  206: { description: 'The byte range a `Range: bytes=…` header asked for (one range; several are answered whole, 200)', contentType: ['application/octet-stream', '*/*'] },
  416: { description: 'Range not satisfiable: it starts past the end of the file (`Content-Range: bytes */size`)' },
};

/**
 * Answers with a stored file, all of it or the one byte range the request's `Range` header asks for (206 with
 * Content-Range; 416 past the end). `open` reads only what is sent. `disposition` is `inline` for documents shown in a
 * frame.
 */
export function sendStoredFile(
  ctx: Context,
  file: { filename: string; contentType: string; sizeBytes: number },
  open: (range?: ByteRange) => Readable,
  disposition: 'attachment' | 'inline' = 'attachment',
): { detail: string } | undefined {
  const range = parseByteRange(ctx.get('range'), file.sizeBytes);
  ctx.set('Accept-Ranges', 'bytes');
  if (range === 'unsatisfiable') {
    ctx.status = 416;
    ctx.set('Content-Range', `bytes */${file.sizeBytes}`);
    return { detail: 'Range not satisfiable' };
  }
  ctx.type = file.contentType;
  ctx.attachment(file.filename, { type: disposition });
  if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${file.sizeBytes}`);
    ctx.length = range.end - range.start + 1;
  } else ctx.length = file.sizeBytes;
  ctx.body = open(range ?? undefined);
  return undefined;
}

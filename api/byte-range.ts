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

/**
 * Minimal HTTP client for the benchmark: cookie-session login, JSON calls, and a streaming multipart upload that
 * reads the file with fs.createReadStream and declares Content-Length, so neither side ever buffers the file.
 */
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';

export interface Session {
  base: string;
  cookie: string;
  csrf: string;
}

/** Logs in and keeps the session and CSRF cookies. */
export async function login(base: string, email: string, password: string): Promise<Session> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  const csrf = cookies.find((c) => c.startsWith('csrf_token='))?.slice('csrf_token='.length);
  if (!csrf) throw new Error('login set no csrf_token cookie');
  return { base, cookie: cookies.join('; '), csrf };
}

/** POSTs JSON with the session; returns the parsed body or throws on a non-2xx status. */
export async function postJson<T>(s: Session, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${s.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: s.cookie, 'x-csrf-token': s.csrf },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Streams `filePath` as the `file` part of a multipart POST with text `fields`; resolves with status and body. */
export async function uploadMultipart(s: Session, path: string, fields: Record<string, string>, filePath: string): Promise<{ status: number; body: string }> {
  const boundary = `----bench${randomUUID().replace(/-/g, '')}`;
  let head = '';
  for (const [k, v] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${basename(filePath)}"\r\nContent-Type: text/csv\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(head) + statSync(filePath).size + Buffer.byteLength(tail);
  const url = new URL(`${s.base}${path}`);

  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        method: 'POST',
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(length),
          cookie: s.cookie,
          'x-csrf-token': s.csrf,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    async function* body(): AsyncGenerator<Buffer> {
      yield Buffer.from(head);
      for await (const chunk of createReadStream(filePath, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
      yield Buffer.from(tail);
    }
    pipeline(Readable.from(body()), req).catch(reject);
  });
}

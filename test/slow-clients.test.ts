import net from 'node:net';
import zlib from 'node:zlib';
import { ApiClient, createProject, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';

/**
 * Issue 13, finding 6: a slow or unauthorized client holds no connection open. Bodies are read
 * after authentication, within a deadline; uploads are cut off when they stall; an upload into a
 * project the caller cannot write to is refused before its file is read.
 */
let stack: TestStack;
let owner: { client: ApiClient };
let projectId: string;

beforeAll(async () => {
  stack = await startStack({ workers: [], env: { BODY_TIMEOUT_SECS: '1', UPLOAD_IDLE_TIMEOUT_SECS: '1' } });
  owner = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Slow');
});
afterAll(async () => {
  await stack?.stop();
});

interface RawExchange {
  /** Everything the server sent. */
  text: string;
  status: number;
  /** When the answer's first byte came, from the first byte sent. */
  answeredAfterMs: number;
  /** Whether the server closed the connection. */
  closed: boolean;
}

/**
 * Sends `head` (and then each of `later` after `gapMs`, unless the server has answered), and
 * collects what comes back until the server closes or `waitMs` pass.
 */
function rawExchange(head: string | Buffer, later: (string | Buffer)[] = [], opts: { gapMs?: number; waitMs?: number } = {}): Promise<RawExchange> {
  const { port } = new URL(stack.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const started = Date.now();
    let answeredAfterMs = -1;
    let text = '';
    let closed = false;
    const finish = () => {
      clearTimeout(deadline);
      socket.destroy();
      resolve({ text, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), answeredAfterMs, closed });
    };
    const deadline = setTimeout(finish, opts.waitMs ?? 5000);
    socket.on('data', (d) => {
      if (answeredAfterMs < 0) answeredAfterMs = Date.now() - started;
      text += d.toString('latin1');
    });
    socket.on('end', () => {
      closed = true;
      finish();
    });
    socket.on('error', (err) => (text ? finish() : reject(err)));
    socket.write(head);
    let i = 0;
    const next = () => {
      if (i >= later.length || answeredAfterMs >= 0 || socket.destroyed) return;
      socket.write(later[i++]);
      setTimeout(next, opts.gapMs ?? 100);
    };
    setTimeout(next, opts.gapMs ?? 100);
  });
}

function headers(method: string, path: string, extra: Record<string, string | number>): string {
  return `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${Object.entries(extra)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
}

function authHeaders(client: ApiClient): Record<string, string> {
  return { Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'X-CSRF-Token': client.cookies.get('csrf_token')! };
}

describe('slow and unauthorized clients', () => {
  it('a JSON body that stops arriving is answered 408 within the deadline and the connection is closed', async () => {
    const r = await rawExchange(headers('POST', '/api/auth/login', { 'Content-Type': 'application/json', 'Content-Length': 100 }) + '{"email":', [], { waitMs: 5000 });
    expect(r.status).toBe(408);
    expect(r.answeredAfterMs).toBeLessThan(3000);
    expect(r.text).toMatch(/"detail":"The request body did not arrive within 1 s"/);
    expect(r.closed).toBe(true);
  });

  it('a compressed JSON body that stops arriving is answered 408 like a plain one, and the API keeps serving', async () => {
    const gz = zlib.gzipSync(JSON.stringify({ email: 'nobody@example.com', password: 'a long password' }));
    const head = headers('POST', '/api/auth/login', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': gz.length });
    const r = await rawExchange(Buffer.concat([Buffer.from(head), gz.subarray(0, 10)]), [], { waitMs: 5000 });
    expect(r.status).toBe(408);
    expect(r.answeredAfterMs).toBeLessThan(3000);
    expect(r.text).toMatch(/"detail":"The request body did not arrive within 1 s"/);
    expect(r.closed).toBe(true);
    // Still serving (a 503 would only say Temporal was slow to answer the check on a loaded machine).
    expect([200, 503]).toContain((await new ApiClient(stack.baseUrl).get('/healthz')).status);
  });

  it('a request without credentials is refused before its body is read', async () => {
    const r = await rawExchange(headers('POST', '/api/projects', { 'Content-Type': 'application/json', 'Content-Length': 100 }) + '{"na', [], { waitMs: 3000 });
    expect(r.status).toBe(401);
    expect(r.answeredAfterMs).toBeLessThan(800);
    expect(r.closed).toBe(true);
  });

  it('an upload that stalls is cut off with 408', async () => {
    const boundary = 'XBOUNDARYX';
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="project_id"\r\n\r\n${projectId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nslow\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\na,b\n1,2\n`;
    const head = headers('POST', '/api/datasets/upload', { ...authHeaders(owner.client), 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': 100_000 });
    const r = await rawExchange(head + part, [], { waitMs: 5000 });
    expect(r.status).toBe(408);
    expect(r.text).toMatch(/Upload stalled/);
    expect(r.closed).toBe(true);
  });

  it('an upload into a project the caller cannot write to is refused before its file is received', async () => {
    const outsider = await signUp(stack.baseUrl, stack.mail);
    const boundary = 'XBOUNDARYX';
    const fields = `--${boundary}\r\nContent-Disposition: form-data; name="project_id"\r\n\r\n${projectId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nnot yours\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n\r\n`;
    const chunk = Buffer.alloc(256 * 1024, 'x');
    const size = 5 * 1024 * 1024;
    const head = headers('POST', '/api/datasets/upload', { ...authHeaders(outsider.client), 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': fields.length + size });
    const r = await rawExchange(
      head + fields + 'a,b\n',
      Array.from({ length: size / chunk.length }, () => chunk),
      { gapMs: 50, waitMs: 8000 },
    );
    expect(r.status).toBe(404);
    expect(r.text).toMatch(/Project not found/);
    // 20 chunks at 50 ms would take a second: the answer came before the file did.
    expect(r.answeredAfterMs).toBeLessThan(900);
    const [{ n }] = await stack.ds.query('SELECT count(*)::int AS n FROM datasets');
    expect(n).toBe(0);
  });
});

import { linkIn, SmtpSink } from './smtp-sink';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test responses are inspected field by field
export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
  raw?: Buffer;
}

/** fetch's failure when the socket closed before any byte of the answer came (a stale keep-alive connection). */
function connectionClosedUnanswered(err: unknown): boolean {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'ECONNRESET' || cause?.message === 'other side closed';
}

/**
 * A browser-like HTTP client: keeps cookies, echoes the csrf_token cookie in X-CSRF-Token
 * (unless told not to), or sends a Bearer key instead.
 */
export class ApiClient {
  readonly cookies = new Map<string, string>();
  bearer?: string;
  sendCsrf = true;

  constructor(readonly baseUrl: string) {}

  withKey(key: string): ApiClient {
    const c = new ApiClient(this.baseUrl);
    c.bearer = key;
    return c;
  }

  async request(method: string, path: string, body?: unknown, opts: { headers?: Record<string, string>; raw?: boolean; rawBody?: string | Buffer | FormData } = {}): Promise<Res> {
    const headers: Record<string, string> = { ...opts.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = this.cookies.get('csrf_token');
    if (this.sendCsrf && csrf && method !== 'GET') headers['x-csrf-token'] = csrf;
    const send = () =>
      fetch(this.baseUrl + path, {
        method,
        headers,
        body: opts.rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
        redirect: 'manual',
      });
    // A reused keep-alive connection the server closed just before the request went out fails without an answer;
    // browsers retry an idempotent request once on a new connection then (RFC 9112 §9.3.1), and so does this client.
    const res = await send().catch((err: unknown) => {
      if ((method === 'GET' || method === 'HEAD') && connectionClosedUnanswered(err)) return send();
      throw err;
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const [k, v] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      const expired = attrs.some((a) => /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (!v || expired) this.cookies.delete(k);
      else this.cookies.set(k, v);
    }
    const buf = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    const parsed = type.includes('json') && buf.length ? JSON.parse(buf.toString('utf8')) : buf.toString('utf8');
    return { status: res.status, body: parsed, headers: res.headers, raw: buf };
  }

  /** multipart/form-data POST with text fields and an optional `file` part. */
  upload(path: string, fields: Record<string, string>, file?: { name: string; data: Buffer | string }) {
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    if (file) fd.append('file', new Blob([typeof file.data === 'string' ? file.data : new Uint8Array(file.data)]), file.name);
    return this.request('POST', path, undefined, { rawBody: fd });
  }

  get(path: string, opts?: { headers?: Record<string, string> }) {
    return this.request('GET', path, undefined, opts);
  }
  post(path: string, body?: unknown, opts?: { headers?: Record<string, string>; rawBody?: string | Buffer }) {
    return this.request('POST', path, body, opts);
  }
  put(path: string, body?: unknown) {
    return this.request('PUT', path, body);
  }
  patch(path: string, body?: unknown) {
    return this.request('PATCH', path, body);
  }
  del(path: string) {
    return this.request('DELETE', path);
  }
}

let counter = 0;

/** A unique email for a test user. */
export function uniqueEmail(tag = 'user'): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${counter}@example.test`;
}

/** Registers, follows the mailed activation link and logs in: a ready cookie client. */
export async function signUp(baseUrl: string, mail: SmtpSink, o: { email?: string; name?: string; password?: string } = {}) {
  const email = o.email ?? uniqueEmail();
  const password = o.password ?? 'correct horse battery';
  const name = o.name ?? 'Test User';
  const client = new ApiClient(baseUrl);
  const reg = await client.post('/api/auth/register', { email, name, password });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const m = await mail.waitFor(email, /verify-email\?token=/);
  const link = linkIn(m, 'verify-email?token=');
  const v = await client.get(new URL(link).pathname + new URL(link).search);
  if (v.status !== 200) throw new Error(`verify failed: ${v.status}`);
  const login = await client.post('/api/auth/login', { email, password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
  return { client, email, password, user: login.body.user as { id: string; email: string; name: string } };
}

export async function createProject(client: ApiClient, name = 'Project'): Promise<string> {
  const r = await client.post('/api/projects', { name, description: `${name} description` });
  if (r.status !== 201) throw new Error(`create project failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

/** Makes a registered user a member the way the API does it: the owner adds the user's email (access at once). */
export async function addMember(owner: ApiClient, member: { client: ApiClient; email: string }, projectId: string, role = 'editor'): Promise<void> {
  const added = await owner.post(`/api/projects/${projectId}/members`, { email: member.email, role });
  if (added.status !== 201) throw new Error(`add member failed: ${added.status} ${JSON.stringify(added.body)}`);
}

/** Polls `fn` until it returns a truthy value. */
export async function eventually<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 60_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import Koa from 'koa';
import { errorHandler } from '../api/middleware/error-handler';
import type { AppState } from '../api/context';
import { Artifact } from '../entities';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';

let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let datasetId: string;

const CSV = 'species,mass\nAdelie,3750\nGentoo,5000\nChinstrap,3500\n';

beforeAll(async () => {
  stack = await startStack({ workers: [] });
  owner = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Malformed');
  const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'penguins' }, { name: 'p.csv', data: CSV });
  expect(up.status).toBe(201);
  datasetId = up.body.dataset_id;
});
afterAll(async () => stack?.stop());

const nulIssue = (loc: (string | number)[]) => ({ loc, msg: 'Text must not contain NUL (\\u0000) characters', type: 'string_nul' });

/** A request through node:http, which (unlike fetch) sends any method, TRACE included. */
function rawRequest(method: string, urlPath: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${stack.baseUrl}${urlPath}`, { method }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Bytes written as they are on a fresh connection; resolves with everything the server sent back. */
function rawExchange(bytes: string | Buffer): Promise<string> {
  const { port } = new URL(stack.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let out = '';
    socket.on('data', (c) => (out += c.toString('latin1')));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy());
  });
}

describe('NUL characters in requests', () => {
  it('are refused in a JSON body with the field named, and nothing is written', async () => {
    const before = await stack.ds.query('SELECT count(*)::int AS n FROM projects');
    const r = await owner.client.post('/api/projects', { name: 'a\u0000b', description: 'fine' });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ detail: [nulIssue(['body', 'name'])] });
    expect(await stack.ds.query('SELECT count(*)::int AS n FROM projects')).toEqual(before);
  });

  it('are found in nested values and in object keys, which would become keys of a stored document', async () => {
    const r = await owner.client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: projectId,
      name: 'e',
      target_column: 'species',
      problem_type: 'classification',
      config: { sort_metric: 'AUC\u0000', 'bad\u0000key': 1, nested: [{ deep: 'x\u0000' }] },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([nulIssue(['body', 'config', 'sort_metric']), nulIssue(['body', 'config', 'bad\uFFFDkey']), nulIssue(['body', 'config', 'nested', 0, 'deep'])]);
  });

  it('are refused in query strings, path segments and on public routes', async () => {
    const q = await owner.client.get('/api/projects?search=a%00b');
    expect(q.status).toBe(422);
    expect(q.body).toEqual({ detail: [nulIssue(['query', 'search'])] });
    const p = await owner.client.get(`/api/datasets/${datasetId}%00`);
    expect(p.status).toBe(422);
    expect(p.body.detail[0].loc).toEqual(['path', 'dataset_id']);
    const reg = await new ApiClient(stack.baseUrl).post('/api/auth/register', { email: 'nul@example.test', name: 'N\u0000', password: 'a long password' });
    expect(reg.status).toBe(422);
    expect(reg.body).toEqual({ detail: [nulIssue(['body', 'name'])] });
    const forgot = await new ApiClient(stack.baseUrl).post('/api/auth/forgot-password', { email: 'x\u0000@example.test' });
    expect(forgot.status).toBe(422);
    // The browser form (urlencoded) goes through the same check.
    const form = await new ApiClient(stack.baseUrl).request('POST', '/auth/reset-password', undefined, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'token=abc%00defghijk&password=long+enough+password',
    });
    expect(form.status).toBe(422);
    expect(form.body).toEqual({ detail: [nulIssue(['body', 'token'])] });
  });

  it('are refused in multipart text fields and file names before anything is stored', async () => {
    const before = await stack.ds.query('SELECT count(*)::int AS n FROM datasets');
    const field = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'x\u0000y' }, { name: 'p.csv', data: CSV });
    expect(field.status).toBe(422);
    expect(field.body).toEqual({ detail: [nulIssue(['body', 'name'])] });
    const version = await owner.client.upload(`/api/datasets/${datasetId}/versions`, { description: 'v\u0000' }, { name: 'p.csv', data: CSV });
    expect(version.status).toBe(422);
    expect(version.body).toEqual({ detail: [nulIssue(['body', 'description'])] });

    // The file name is stored in the version's source document. A raw NUL ends the header's token, but RFC 5987's
    // `filename*` percent-decodes to one; FormData would not write either, so the body is written by hand.
    const boundary = 'nulboundary';
    const body = [
      `--${boundary}\r\nContent-Disposition: form-data; name="project_id"\r\n\r\n${projectId}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nnamed\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''a%00.csv\r\nContent-Type: text/csv\r\n\r\n${CSV}\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const file = await owner.client.request('POST', '/api/datasets/upload', undefined, {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      rawBody: Buffer.from(body, 'latin1'),
    });
    expect(file.status).toBe(422);
    expect(file.body).toEqual({ detail: [nulIssue(['body', 'file', 'filename'])] });
    // A field with an empty name is read and checked like any other (schemathesis sent one).
    const unnamed = await owner.client.request('POST', '/api/datasets/upload', undefined, {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      rawBody: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=""\r\n\r\nx\u0000y\r\n${body.slice(body.indexOf('--'))}`, 'latin1'),
    });
    expect(unnamed.status).toBe(422);
    expect(unnamed.body).toEqual({ detail: [nulIssue(['body', ''])] });
    // A raw NUL byte inside a part's headers (a field name, a file name) makes the body malformed.
    const rawNul = await owner.client.request('POST', '/api/datasets/upload', undefined, {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      rawBody: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="a\u0000b"\r\n\r\n\r\n${body.slice(body.indexOf('--'))}`, 'latin1'),
    });
    expect(rawNul.status).toBe(400);
    expect(rawNul.body).toEqual({ detail: 'Upload was incomplete or malformed' });
    expect(await stack.ds.query('SELECT count(*)::int AS n FROM datasets')).toEqual(before);
  });

  it('cannot arrive in a header: the HTTP parser refuses the request with 400, never a 500', async () => {
    const answer = await rawExchange(`GET /api/auth/me HTTP/1.1\r\nHost: x\r\nUser-Agent: a\u0000b\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  });
});

describe('Content-Encoding of a JSON body', () => {
  const credentials = JSON.stringify({ email: 'nobody@example.com', password: 'a long password' });
  /** The public login with raw bytes under a Content-Encoding. */
  const login = (encoding: string, body: string | Buffer) =>
    new ApiClient(stack.baseUrl).post('/api/auth/login', undefined, { rawBody: body, headers: { 'content-type': 'application/json', 'content-encoding': encoding } });

  it('that does not decode is a 400 naming the encoding, never a 500, on the unauthenticated login too', async () => {
    for (const encoding of ['br', 'gzip', 'deflate']) {
      const r = await login(encoding, 'xxxx');
      expect([encoding, r.status, r.body]).toEqual([encoding, 400, { detail: `The request body is not valid ${encoding} data (its Content-Encoding)` }]);
    }
    const truncated = await login('gzip', zlib.gzipSync(credentials).subarray(0, 12));
    expect([truncated.status, truncated.body]).toEqual([400, { detail: 'The request body is not valid gzip data (its Content-Encoding)' }]);
  });

  it('that the API does not decode is a 415 naming those it does', async () => {
    for (const encoding of ['compress', 'zstd', 'gzip, br', 'x']) {
      const r = await login(encoding, credentials);
      expect([encoding, r.status, r.body]).toEqual([encoding, 415, { detail: `Unsupported Content-Encoding: ${encoding} (the API decodes gzip, deflate and br)` }]);
    }
  });

  it('gzip, deflate and br are decoded, and the body limit applies to what they decode to', async () => {
    const encoded: [string, Buffer][] = [
      ['gzip', zlib.gzipSync(credentials)],
      ['GZip', zlib.gzipSync(credentials)],
      ['deflate', zlib.deflateSync(credentials)],
      ['br', zlib.brotliCompressSync(credentials)],
      ['identity', Buffer.from(credentials)],
    ];
    for (const [encoding, bytes] of encoded) {
      const r = await login(encoding, bytes);
      expect([encoding, r.status, r.body]).toEqual([encoding, 401, { detail: 'Invalid email or password' }]);
    }
    const zipped = await owner.client.post('/api/projects', undefined, {
      rawBody: zlib.gzipSync(JSON.stringify({ name: 'Zipped' })),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect([zipped.status, zipped.body.project?.name]).toEqual([201, 'Zipped']);
    // 2 MB of JSON whitespace is a few kB compressed: refused once it decodes past MAX_JSON_BODY_BYTES.
    const bomb = zlib.gzipSync(`{"email":"a@b.c",${' '.repeat(2 * 1024 * 1024)}"password":"x"}`);
    expect(bomb.length).toBeLessThan(10_000);
    const big = await login('gzip', bomb);
    expect([big.status, big.body]).toEqual([413, { detail: 'Request body too large' }]);
  });
});

describe('JSON nested past 32 levels', () => {
  /** `{"a":{"a":…{}}}`, `depth` objects deep, as text: JSON.stringify itself overflows on deep enough values. */
  const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

  it('is a 422 naming where, on any route and in any field, before anything is stored', async () => {
    const experiments = async () => (await stack.ds.query('SELECT count(*)::int AS n FROM experiments'))[0].n;
    const before = await experiments();
    for (const depth of [5000, 31]) {
      const body = `{"project_id":"${projectId}","dataset_version_id":"${projectId}","name":"e","target_column":"species","problem_type":"classification","config":{"x":${nested(depth)}}}`;
      const r = await owner.client.post('/api/experiments', undefined, { rawBody: body, headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(422);
      expect(r.body.detail).toEqual([{ loc: ['body', 'config', 'x', ...Array<string>(30).fill('a')], msg: 'JSON may nest at most 32 levels', type: 'json_too_deep' }]);
    }
    const arrays = await owner.client.post('/api/projects', undefined, {
      rawBody: `{"name":"deep","description":${'['.repeat(40)}${']'.repeat(40)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(arrays.status).toBe(422);
    expect(arrays.body.detail).toEqual([{ loc: ['body', 'description', ...Array<number>(31).fill(0)], msg: 'JSON may nest at most 32 levels', type: 'json_too_deep' }]);
    const anonymous = await new ApiClient(stack.baseUrl).post('/api/auth/login', undefined, { rawBody: `{"email":${nested(100_000)}}`, headers: { 'content-type': 'application/json' } });
    expect(anonymous.status).toBe(422);
    expect(await experiments()).toBe(before);
  });
});

describe('addresses a mail server refuses', () => {
  it('are a 422 at registration, not a 500 once the account is written and the mail fails', async () => {
    const email = 'someone@mail-.example.com';
    const r = await new ApiClient(stack.baseUrl).post('/api/auth/register', { email, name: 'Dash', password: 'a long password' });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'email']);
    expect(await stack.ds.query('SELECT count(*)::int AS n FROM users WHERE email = $1', [email])).toEqual([{ n: 0 }]);
  });
});

describe('integers in paths and queries', () => {
  it('are bounded to what an int4 column holds: 2^31 is a 422 naming the parameter', async () => {
    const version = await owner.client.get(`/api/datasets/${datasetId}/versions/2147483648/download`);
    expect(version.status).toBe(422);
    expect(version.body.detail[0].loc).toEqual(['path', 'version']);
    const del = await owner.client.del(`/api/datasets/${datasetId}/versions/99999999999999999999`);
    expect(del.status).toBe(422);
    const cmp = await owner.client.get(`/api/datasets/${datasetId}/compare?v1=0&v2=2147483648`);
    expect(cmp.status).toBe(422);
    expect(cmp.body.detail[0].loc).toEqual(['query', 'v2']);
    expect((await owner.client.get('/api/projects?offset=2147483648')).status).toBe(422);
    expect((await owner.client.get('/api/projects?offset=2147483647')).status).toBe(200);
    const versionId = (await owner.client.get(`/api/datasets/${datasetId}`)).body.dataset.dataset_version_id;
    expect((await owner.client.get(`/api/dataset-versions/${versionId}/sample?seed=2147483648`)).status).toBe(422);
    // A version number past the last one is simply not there.
    expect((await owner.client.get(`/api/datasets/${datasetId}/versions/2147483647/download`)).status).toBe(404);
  });

  it('are plain decimal digits: empty, padded, hex and exponent forms are refused', async () => {
    for (const v of ['', '%201', '0x1', '1e3', '1.0', '-0.5']) {
      const r = await owner.client.get(`/api/projects?limit=${v}`);
      expect([v, r.status]).toEqual([v, 422]);
    }
    expect((await owner.client.get('/api/projects?limit=7')).body.limit).toBe(7);
  });
});

describe('PostgreSQL errors that slip past validation', () => {
  let server: http.Server;
  let base: string;
  let failing: Error | undefined;

  /** The real error middleware in front of a handler that runs one bad statement on the real database. */
  beforeAll(async () => {
    const app = new Koa<AppState>();
    app.use(errorHandler([stack.config.dataDir]));
    app.use(async (ctx) => {
      const run = STATEMENTS[ctx.path.slice(1)];
      try {
        await run();
      } catch (err) {
        failing = err as Error;
        throw err;
      }
      ctx.body = { ok: true };
    });
    server = http.createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((r) => server.close(() => r())));

  const q =
    (sql: string, params: unknown[] = []) =>
    () =>
      stack.ds.query(sql, params);
  const STATEMENTS: Record<string, () => Promise<unknown>> = {
    nul: q('SELECT $1::text AS t', ['secret\u0000value']),
    int4: q('SELECT $1::int AS n', ['2147483648']),
    foreign: q("INSERT INTO project_members (project_id, user_id, role) VALUES ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', 'viewer')"),
    uuid: q('SELECT $1::uuid AS u', ['not-a-uuid']),
    date: q('SELECT $1::date AS d', ['yesterday-ish']),
    overflow: q("SELECT '2024-02-30'::date AS d"),
    notnull: q('INSERT INTO projects (name) VALUES (NULL)'),
    jsonnul: q('SELECT $1::jsonb AS j', ['{"a":"\\u0000"}']),
    toolarge: q("SELECT repeat('x', 1073741824) AS r"),
  };
  const CASES: [string, string, number, string][] = [
    ['nul', '22021', 422, 'Text must not contain NUL (\\u0000) characters or invalid UTF-8'],
    ['int4', '22003', 422, 'A number is out of range'],
    ['foreign', '23503', 409, 'A referenced resource does not exist or is still in use'],
    ['uuid', '22P02', 422, 'Invalid identifier or value'],
    ['date', '22007', 422, 'Invalid date or time'],
    ['overflow', '22008', 422, 'Date or time out of range'],
    ['notnull', '23502', 422, 'A required value is missing'],
    ['jsonnul', '22P05', 422, 'Text must not contain NUL (\\u0000) characters'],
    ['toolarge', '54000', 422, 'A value is too large'],
  ];

  it.each(CASES)('%s (%s) answers a fixed %i text without SQL, values or paths', async (name, code, status, detail) => {
    failing = undefined;
    const res = await fetch(`${base}/${name}`);
    const text = await res.text();
    expect((failing as { code?: string } | undefined)?.code ?? (failing as { driverError?: { code?: string } } | undefined)?.driverError?.code).toBe(code);
    expect(res.status).toBe(status);
    expect(JSON.parse(text)).toEqual({ detail });
    expect(text).not.toMatch(/SELECT|INSERT|project_members|secret|2147483648|not-a-uuid|yesterday/);
  });
});

describe('engine messages', () => {
  it('name no server path when a Parquet upload is unreadable', async () => {
    const r = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'broken' }, { name: 'broken.parquet', data: Buffer.from('PAR1garbagegarbagegarbagePAR1', 'latin1') });
    expect(r.status).toBe(422);
    expect(r.body.detail).toMatch(/^Could not read the Parquet file: /);
    expect(r.body.detail).not.toContain(stack.config.dataDir);
    expect(r.body.detail).not.toMatch(/\/(tmp|uploads|artifacts)\//);
  });

  it('name no server path when a stored file cannot be previewed', async () => {
    const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'vanishing' }, { name: 'v.csv', data: CSV });
    const artifact = await stack.ds.getRepository(Artifact).findOneByOrFail({ id: up.body.artifact_id });
    fs.rmSync(await stack.store.localPath(artifact.storageKey));
    const r = await owner.client.get(`/api/datasets/${up.body.dataset_id}`);
    expect(r.status).toBe(200);
    expect(r.body.preview_error).toMatch(/^Preview unavailable: /);
    expect(r.body.preview_error).not.toContain(stack.config.dataDir);
    expect(r.body.preview_error).not.toContain(path.basename(artifact.storageKey));
  });

  it('an all-text CSV (no numeric column for outlier bounds) uploads instead of failing its quality report', async () => {
    const r = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'words' }, { name: 'w.csv', data: 'a,b\nx,y\nz,w\nu,v\n' });
    expect(r.status).toBe(201);
    expect(typeof r.body.quality.overall_score).toBe('number');
  });
});

describe('batch prediction of a file without rows', () => {
  let trained: TestStack;
  afterAll(async () => trained?.stop());

  it('answers a header-only file with a clear 422, not a 500 from reading a table without column chunks', async () => {
    trained = await startStack({ workers: ['io', 'cpu'] });
    const u = await signUp(trained.baseUrl, trained.mail);
    const pid = await createProject(u.client, 'Batch');
    const rows = Array.from({ length: 40 }, (_, i) => `${['Adelie', 'Gentoo', 'Chinstrap'][i % 3]},${3000 + ((i * 137) % 2500)}`);
    const up = await u.client.upload('/api/datasets/upload', { project_id: pid, name: 'penguins' }, { name: 'p.csv', data: `species,mass\n${rows.join('\n')}\n` });
    const exp = await u.client.post('/api/experiments', {
      project_id: pid,
      dataset_version_id: up.body.dataset_version_id,
      name: 'e',
      target_column: 'species',
      problem_type: 'classification',
      config: { max_models: 1, nfolds: 0, exclude_algos: ['GBM', 'XGBoost', 'DRF', 'DeepLearning', 'StackedEnsemble'] },
    });
    expect(exp.status).toBe(201);
    const modelId = await eventually(async () => {
      const e = (await u.client.get(`/api/experiments/${exp.body.id}`)).body;
      if (e.experiment.status === 'failed') throw new Error(`training failed: ${e.experiment.error}`);
      return e.best_model_id as string | null;
    });
    const empty = await u.client.upload(`/api/models/${modelId}/predict/batch`, {}, { name: 'empty.csv', data: 'species,mass\n' });
    // A file with no data rows is refused at ingest, for uploads and batch predictions alike.
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({ detail: 'The file has no data rows' });
  });
});

describe('the OpenAPI document', () => {
  it('lists the errors each operation can give, with their {detail} schemas, and the rules validation enforces', async () => {
    const doc = (await new ApiClient(stack.baseUrl).get('/api/openapi.json')).body;
    const del = doc.paths['/api/datasets/{dataset_id}/versions/{version}'].delete;
    expect(Object.keys(del.responses).sort()).toEqual(['200', '401', '403', '404', '409', '422', '429']);
    expect(del.responses['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(del.responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ValidationError' });
    expect(del.parameters.find((p: { name: string }) => p.name === 'version').schema).toMatchObject({ type: 'integer', minimum: 0, maximum: 2147483647 });
    const register = doc.paths['/api/auth/register'].post;
    expect(Object.keys(register.responses).sort()).toEqual(['201', '400', '403', '409', '413', '415', '422', '429']);
    const body = register.requestBody.content['application/json'].schema;
    expect(body.properties.name).toMatchObject({ allOf: [{ pattern: '^[^\\u0000]*$' }] });
    expect(body.propertyNames).toEqual({ pattern: '^[^\\u0000]*$', not: { const: '__proto__' } });
    expect(doc.paths['/api/datasets/upload'].post.requestBody.content['multipart/form-data'].schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
  });
});

describe('methods a path does not have', () => {
  it('answer 405 with Allow and a JSON detail, for unknown methods as for known ones', async () => {
    for (const method of ['TRACE', 'PROPFIND', 'PATCH', 'PUT']) {
      const r = await rawRequest(method, '/api/projects');
      expect([method, r.status]).toEqual([method, 405]);
      expect(r.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
      expect(JSON.parse(r.body)).toEqual({ detail: 'Method not allowed' });
    }
  });

  it('list the methods of the literal path, not of a parameter route that also matches it', async () => {
    const r = await rawRequest('DELETE', '/api/datasets/count');
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('GET, HEAD, OPTIONS');
    const upload = await rawRequest('GET', '/api/datasets/upload');
    expect(upload.status).toBe(405);
    expect(upload.headers.allow).toBe('POST, OPTIONS');
  });

  it('answer OPTIONS with 204 and Allow', async () => {
    const r = await rawRequest('OPTIONS', `/api/datasets/${datasetId}`);
    expect(r.status).toBe(204);
    expect(r.headers.allow).toBe('GET, HEAD, DELETE, OPTIONS');
  });

  it('answer CONNECT like any other method instead of dropping the connection', async () => {
    const answer = await rawExchange('CONNECT /api/projects HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(answer).toMatch(/\r\nAllow: GET, HEAD, POST, OPTIONS\r\n/i);
    expect(answer).toContain('{"detail":"Method not allowed"}');
  });

  it('leave unknown paths 404, whatever the method', async () => {
    for (const method of ['GET', 'TRACE', 'DELETE']) {
      const r = await rawRequest(method, '/api/no-such-thing');
      expect([method, r.status, JSON.parse(r.body)]).toEqual([method, 404, { detail: 'Not found' }]);
    }
  });
});

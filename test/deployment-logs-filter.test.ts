import { ApiClient, createProject, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, trainQuickModels } from './support/trained-models';

/**
 * Issue 33's serving additions over HTTP: the inference-log filters (status class, status code, time window), its
 * sorts and pages, the error detail a refused request is logged with, the deployment's default for storing inputs
 * (`store_payload` through `PATCH …/privacy`, which a request's own option overrides), the model names of the
 * deployment lists, and hostile values of all of these answered with the spec's codes, never a 500.
 */

let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let modelId: string;
let dep: string;

const M = '/api/mlops';
const good = () => {
  const { y: _y, ...r } = syntheticRows(1, 5)[0];
  return r;
};

type Log = { request_id: string; status_code: number; inputs: unknown; prediction: unknown; error: unknown; latency_ms_exact: number; created_at: string };

async function logs(query: string, c: ApiClient = owner.client) {
  return c.get(`${M}/deployments/${dep}/inference-logs?${query}`);
}

async function predict(requestId: string, body: unknown) {
  return owner.client.post(`${M}/deployments/${dep}/predict`, body, { headers: { 'x-request-id': requestId } });
}

/** The log row of one request (every read flushes the buffer first). */
async function logOf(requestId: string): Promise<Log> {
  const all = (await logs('limit=500')).body.items as Log[];
  const row = all.find((l) => l.request_id === requestId);
  if (!row) throw new Error(`no log row for ${requestId}`);
  return row;
}

async function keyWith(scopes: string[]): Promise<ApiClient> {
  const r = await owner.client.post('/api/auth/api-keys', { name: scopes.join(' '), scopes });
  if (r.status !== 201) throw new Error(`key failed ${r.status} ${JSON.stringify(r.body)}`);
  return owner.client.withKey(r.body.api_key);
}

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_PREDICT: '1000' } });
  owner = await signUp(stack.baseUrl, stack.mail);
  stranger = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Logs');
  modelId = (await trainQuickModels(owner.client, projectId, ['GLM'], 200)).models.GLM;
  const r = await owner.client.post(`${M}/projects/${projectId}/deployments`, { model_id: modelId, name: 'churn-v2', stage: 'production' });
  if (r.status !== 201) throw new Error(`deploy failed ${r.status}`);
  dep = r.body.id;
  // Three answered requests, a row the schema refuses, and a body refused before the handler.
  for (const id of ['ok-1', 'ok-2', 'ok-3']) expect((await predict(id, { inputs: good() })).status).toBe(200);
  expect((await predict('bad-value', { inputs: { ...good(), x1: 'abc' } })).status).toBe(422);
  expect((await predict('bad-shape', { inputs: 5 })).status).toBe(422);
}, 300_000);
afterAll(async () => stack?.stop());

describe('inference log filters', () => {
  it('keeps the detail a refused request was answered with, and none for an answered one', async () => {
    const refused = await logOf('bad-value');
    expect(refused).toMatchObject({ status_code: 422, prediction: null });
    expect(refused.error).toEqual([expect.objectContaining({ loc: ['body', 'inputs', 0, 'x1'], msg: expect.any(String) })]);
    const shape = await logOf('bad-shape');
    expect(shape.status_code).toBe(422);
    expect(Array.isArray(shape.error) && shape.error.length).toBeTruthy();
    expect((await logOf('ok-1')).error).toBeNull();
  });

  it('filters by status class and by status code', async () => {
    const errors = await logs('status=error');
    expect(errors.status).toBe(200);
    expect(errors.body.total).toBe(2);
    expect((errors.body.items as Log[]).map((l) => l.request_id).sort()).toEqual(['bad-shape', 'bad-value']);
    const ok = await logs('status=ok');
    expect(ok.body.total).toBe(3);
    expect((ok.body.items as Log[]).every((l) => l.status_code === 200 && l.error === null)).toBe(true);
    expect((await logs('status_code=422')).body.total).toBe(2);
    expect((await logs('status_code=200&status=error')).body.total).toBe(0);
    expect((await logs('status_code=500')).body.items).toEqual([]);
  });

  it('filters by a time window (exclusive bounds) combined with status', async () => {
    const all = (await logs('sort_field=created_at&sort_direction=asc')).body.items as Log[];
    expect(all.map((l) => l.request_id)).toEqual(['ok-1', 'ok-2', 'ok-3', 'bad-value', 'bad-shape']);
    const after = encodeURIComponent(all[0].created_at);
    const within = await logs(`since=${after}&status=ok`);
    expect((within.body.items as Log[]).map((l) => l.request_id).sort()).toEqual(['ok-2', 'ok-3']);
    const before = await logs(`until=${encodeURIComponent(all[1].created_at)}`);
    expect((before.body.items as Log[]).map((l) => l.request_id)).toEqual(['ok-1']);
    expect((await logs(`since=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`)).body.total).toBe(0);
  });

  it('sorts by latency or status and pages without overlap', async () => {
    const byLatency = (await logs('sort_field=latency_ms&sort_direction=asc')).body.items as Log[];
    const latencies = byLatency.map((l) => l.latency_ms_exact);
    expect(latencies).toEqual([...latencies].sort((a, b) => a - b));
    const byStatus = (await logs('sort_field=status_code&sort_direction=desc')).body.items as Log[];
    expect(byStatus.map((l) => l.status_code)).toEqual([422, 422, 200, 200, 200]);
    const p1 = await logs('limit=2&offset=0');
    const p2 = await logs('limit=2&offset=2');
    const p3 = await logs('limit=2&offset=4');
    expect([p1, p2, p3].map((p) => p.body.total)).toEqual([5, 5, 5]);
    const ids = [...p1.body.items, ...p2.body.items, ...p3.body.items].map((l: Log) => l.request_id);
    expect(new Set(ids).size).toBe(5);
    expect(p1.body).toMatchObject({ limit: 2, offset: 0 });
  });

  it.each([
    ['status=bogus'],
    ['status=%00'],
    ['status=ok%00'],
    ['status_code=2147483648'],
    ['status_code=99'],
    ['status_code=600'],
    ['status_code=abc'],
    ['status_code=4e2'],
    ['status_code=-200'],
    ['sort_field=id'],
    ['sort_field=created_at%00'],
    ['sort_direction=up'],
    ['since=yesterday'],
    ['until=2026-13-45T00:00:00Z'],
    ['limit=501'],
    ['limit=0'],
    ['offset=2147483648'],
    ['offset=-1'],
  ])('refuses %s with 422 naming the parameter', async (query) => {
    const r = await logs(query);
    expect(r.status).toBe(422);
    const name = query.split('=')[0];
    expect(r.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ['query', name] })]));
  });

  it('answers 404 for a stranger, an unknown deployment, and 422 for an id that is not one', async () => {
    expect((await logs('status=error', stranger.client)).status).toBe(404);
    expect((await owner.client.get(`${M}/deployments/00000000-0000-4000-8000-000000000000/inference-logs?status=error`)).status).toBe(404);
    expect((await owner.client.get(`${M}/deployments/not-a-uuid/inference-logs`)).status).toBe(422);
    expect((await owner.client.get(`${M}/deployments/${dep}%00/inference-logs`)).status).toBe(422);
  });

  it('needs read:deployments on a key', async () => {
    const narrow = await keyWith(['read:projects']);
    const r = await logs('status=error', narrow);
    expect(r.status).toBe(403);
    expect(r.body.detail).toBe('Insufficient scope');
    const reader = await keyWith(['read:deployments']);
    expect((await logs('status=error', reader)).body.total).toBe(2);
  });
});

describe('the logging toggle (store_payload on the deployment)', () => {
  it('stores inputs by default once turned on; a request’s own option still wins', async () => {
    expect((await predict('before-toggle', { inputs: good() })).status).toBe(200);
    expect((await logOf('before-toggle')).inputs).toBeNull();

    const on = await owner.client.patch(`${M}/deployments/${dep}/privacy`, { store_payload: true });
    expect(on.status).toBe(200);
    expect(on.body.deployment.config.store_payload).toBe(true);
    expect((await owner.client.get(`${M}/deployments/${dep}`)).body.deployment.config.store_payload).toBe(true);

    expect((await predict('stored', { inputs: good() })).status).toBe(200);
    expect((await logOf('stored')).inputs).toEqual(good());
    expect((await predict('opted-out', { inputs: good(), options: { store_payload: false } })).status).toBe(200);
    expect((await logOf('opted-out')).inputs).toBeNull();

    const off = await owner.client.patch(`${M}/deployments/${dep}/privacy`, { store_payload: false });
    expect(off.body.deployment.config.store_payload).toBe(false);
    expect((await predict('off', { inputs: good() })).status).toBe(200);
    expect((await logOf('off')).inputs).toBeNull();
    expect((await predict('opted-in', { inputs: good(), options: { store_payload: true } })).status).toBe(200);
    expect((await logOf('opted-in')).inputs).toEqual(good());
  });

  it.each([[{ store_payload: 'yes' }], [{ store_payload: 1 }], [{ store_payload: null }], [{ store_payload: true, log_everything: true }], [{ store_payload: '\u0000' }]])(
    'refuses %j with 422',
    async (body) => {
      const r = await owner.client.patch(`${M}/deployments/${dep}/privacy`, body);
      expect(r.status).toBe(422);
    },
  );

  it('refuses a toggle without the CSRF header, from a stranger, or with a read-only key', async () => {
    owner.client.sendCsrf = false;
    try {
      const r = await owner.client.patch(`${M}/deployments/${dep}/privacy`, { store_payload: true });
      expect(r.status).toBe(403);
      expect(r.body.detail).toBe('CSRF token missing or invalid');
    } finally {
      owner.client.sendCsrf = true;
    }
    expect((await stranger.client.patch(`${M}/deployments/${dep}/privacy`, { store_payload: true })).status).toBe(404);
    const reader = await keyWith(['read:deployments']);
    const r = await reader.patch(`${M}/deployments/${dep}/privacy`, { store_payload: true });
    expect(r.status).toBe(403);
    expect(r.body.detail).toBe('Insufficient scope');
    expect((await owner.client.get(`${M}/deployments/${dep}`)).body.deployment.config.store_payload).toBe(false);
  });
});

describe('model names in the deployment lists', () => {
  it("names each deployment's and each transition's model", async () => {
    const name = (await owner.client.get(`/api/models/${modelId}`)).body.model.name;
    expect(typeof name).toBe('string');
    const list = await owner.client.get(`${M}/projects/${projectId}/deployments`);
    expect(list.body.items[0]).toMatchObject({ id: dep, model_id: modelId, model_name: name });
    const history = await owner.client.get(`${M}/deployments/${dep}/rollback-history`);
    expect(history.body.items[0]).toMatchObject({ model_id: modelId, model_name: name });
    const project = await owner.client.get(`${M}/projects/${projectId}/deployment-history`);
    expect(project.body.items[0]).toMatchObject({ model_id: modelId, model_name: name });
  });
});

import { Access } from '../services/access';
import { trafficBucket } from '../services/deployment-routing';
import { InferenceLogs } from '../services/inference-logs';
import { ApiMetrics } from '../api/metrics';
import { deploymentModelSchema, deploymentSchema, deploymentSummarySchema, inferenceLogSchema, transitionSchema } from '../api/presenters/deployment.schema';
import { pageOf } from '../api/presenters/page.schema';
import { Deployment, Model } from '../entities';
import type { InputRow } from '../services/model-serving';
import { createLogger } from '../platform/logger';
import { ApiClient, createProject, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, trainQuickModels } from './support/trained-models';

let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let glm: string;
let gbm: string;
let prod: string;

const M = '/api/mlops';
const rows = syntheticRows(20, 99);
const row = () => ({ x1: rows[0].x1, x2: rows[0].x2, color: rows[0].color });

async function deploy(c: ApiClient, body: Record<string, unknown>): Promise<string> {
  const r = await c.post(`${M}/projects/${projectId}/deployments`, body);
  if (r.status !== 201) throw new Error(`deploy failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

async function logs(id: string, query = 'limit=500') {
  return (await owner.client.get(`${M}/deployments/${id}/inference-logs?${query}`)).body;
}

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_TRAIN: '1000', RATE_LIMIT_PREDICT: '1000' } });
  owner = await signUp(stack.baseUrl, stack.mail);
  stranger = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Serving');
  const trained = await trainQuickModels(owner.client, projectId, ['GLM', 'GBM']);
  glm = trained.models.GLM;
  gbm = trained.models.GBM;
  prod = await deploy(owner.client, { model_id: gbm, name: 'prod', stage: 'production', privacy_column_map: { color: 'name' } });
}, 300_000);
afterAll(async () => stack?.stop());

describe('deployment predict', () => {
  it("answers the spec's body with the persisted threshold's decision, and its headers", async () => {
    const threshold = (await owner.client.get(`/api/models/${gbm}`)).body.model.metrics.threshold;
    expect(typeof threshold).toBe('number');
    const first = await owner.client.post(`${M}/deployments/${prod}/predict`, { inputs: row() });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-service-model-cache')).toBe('miss');
    expect(first.headers.get('server-timing')).toMatch(/^predict;dur=\d+(\.\d+)?$/);
    expect(first.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(first.body.decision_policy).toEqual({ version: 1, threshold, positive_class: 'pos', source: 'model_operating_threshold_max_f1' });
    const [p] = first.body.predictions;
    expect(Object.keys(p.probabilities).sort()).toEqual(['neg', 'pos']);
    expect(p).toMatchObject({ probability: p.probabilities.pos, decision_threshold: threshold, positive_class: 'pos', predicted_positive: p.probabilities.pos >= threshold });
    expect(p.prediction).toBe(p.predicted_positive ? 'pos' : 'neg');
    expect(first.body.contributions).toBeUndefined();

    const many = await owner.client.post(`${M}/deployments/${prod}/predict`, { inputs: rows.slice(0, 5).map(({ y: _y, ...r }) => r), options: { include_contributions: true } });
    expect(many.status).toBe(200);
    expect(many.headers.get('x-service-model-cache')).toBe('hit');
    expect(many.body.predictions).toHaveLength(5);
    for (const q of many.body.predictions) expect(q.prediction).toBe(q.probability >= threshold ? 'pos' : 'neg');
    expect(many.body.contributions).toHaveLength(5);
    expect(many.body.contributions[0].at(-1).feature).toBe('BiasTerm');
  });

  it('refuses rows that do not fit the schema (422 naming the column) and logs them with their status', async () => {
    const bad = await owner.client.post(`${M}/deployments/${prod}/predict`, { inputs: { x1: 'abc', x2: 1, color: 'red' } }, { headers: { 'x-request-id': 'bad-row-1' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'inputs', 0, 'x1'] });
    const l = await logs(prod);
    const row422 = l.items.find((x: { request_id: string }) => x.request_id === 'bad-row-1');
    expect(row422).toMatchObject({ status_code: 422, prediction: null, deployment_id: prod, model_id: gbm });
    expect((await owner.client.post(`${M}/deployments/${prod}/predict`, {})).status).toBe(422);
  });

  it('logs every request: inputs only with store_payload, privacy-mapped columns masked, since/until and pages', async () => {
    const before = await logs(prod);
    const t0 = new Date();
    await new Promise((r) => setTimeout(r, 5));
    const stored = await owner.client.post(`${M}/deployments/${prod}/predict`, { inputs: row(), options: { store_payload: true } }, { headers: { 'x-request-id': 'stored-1' } });
    expect(stored.status).toBe(200);
    await owner.client.post(`${M}/deployments/${prod}/predict`, { inputs: row() }, { headers: { 'x-request-id': 'plain-1' } });
    const after = await logs(prod);
    expect(after.total).toBe(before.total + 2);
    const byId = Object.fromEntries(after.items.map((x: { request_id: string }) => [x.request_id, x]));
    expect(byId['stored-1']).toMatchObject({
      status_code: 200,
      inputs: { x1: row().x1, x2: row().x2, color: '[MASKED:name]' },
      prediction: stored.body.predictions[0].prediction,
      latency_ms: expect.any(Number),
    });
    expect(byId['plain-1'].inputs).toBeNull();
    expect(Object.keys(byId['plain-1']).sort()).toEqual([
      'created_at',
      'deployment_id',
      'error',
      'id',
      'inputs',
      'latency_ms',
      'latency_ms_exact',
      'model_id',
      'prediction',
      'request_id',
      'requested_deployment_id',
      'status_code',
      'warnings',
    ]);

    const since = await logs(prod, `since=${t0.toISOString()}`);
    expect(since.items.map((x: { request_id: string }) => x.request_id)).toEqual(['plain-1', 'stored-1']);
    const until = await logs(prod, `until=${t0.toISOString()}`);
    expect(until.total).toBe(before.total);
    const page = await logs(prod, 'limit=1&offset=1');
    expect(page).toMatchObject({ total: after.total, limit: 1, offset: 1 });
    expect(page.items[0].id).toBe(after.items[1].id);
    expect((await owner.client.get(`${M}/deployments/${prod}/inference-logs?limit=501`)).status).toBe(422);

    // PATCH privacy: store payloads by default now, masking nothing.
    expect((await owner.client.patch(`${M}/deployments/${prod}/privacy`, { privacy_column_map: { nope: 'EMAIL' } })).status).toBe(422);
    expect((await owner.client.patch(`${M}/deployments/${prod}/privacy`, { privacy_threshold: 2 })).status).toBe(422);
    const patched = await owner.client.patch(`${M}/deployments/${prod}/privacy`, { store_payload: true, privacy_column_map: {}, privacy_anonymize_logs: true, privacy_threshold: 0.7 });
    expect(patched.body.deployment.config).toMatchObject({ store_payload: true, privacy_column_map: {}, privacy_anonymize_logs: true, privacy_threshold: 0.7, name: 'prod' });
    await owner.client.post(`${M}/deployments/${prod}/predict`, { inputs: [row(), row()] }, { headers: { 'x-request-id': 'default-stored' } });
    const d = (await logs(prod, 'limit=1')).items[0];
    expect(d).toMatchObject({ request_id: 'default-stored', inputs: [row(), row()] });
    expect(d.prediction).toHaveLength(2);

    // privacy_anonymize_logs: PII inside text values is redacted in what the log keeps, never in what is scored.
    const leaky = { ...row(), color: 'call jane.doe@example.com or 4111 1111 1111 1111' };
    const answered = await owner.client.post(`${M}/deployments/${prod}/predict`, { inputs: leaky, options: { anonymize_response: true } }, { headers: { 'x-request-id': 'leaky' } });
    expect(answered.status).toBe(200);
    const kept = (await logs(prod, 'limit=1')).items[0];
    expect(kept).toMatchObject({ request_id: 'leaky', inputs: { ...row(), color: 'call [EMAIL] or [CREDIT_CARD]' } });
    expect(kept.prediction).toBe(answered.body.predictions[0].prediction);

    // A privacy policy of the project decides the action per type; a type it leaves alone is still redacted.
    expect((await owner.client.patch(`${M}/deployments/${prod}/privacy`, { privacy_policy_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(422);
    const policy = (await owner.client.post('/api/privacy/policies', { project_id: projectId, name: 'logs', profile: 'custom' })).body.id;
    await owner.client.post(`/api/privacy/policies/${policy}/rules`, { pii_type: 'email', action: 'hash', config: { length: 8, prefix: 'h_' } });
    expect((await owner.client.patch(`${M}/deployments/${prod}/privacy`, { privacy_policy_id: policy })).status).toBe(200);
    await owner.client.post(`${M}/deployments/${prod}/predict`, { inputs: leaky }, { headers: { 'x-request-id': 'policied' } });
    const policied = (await logs(prod, 'limit=1')).items[0];
    expect(policied.request_id).toBe('policied');
    expect(policied.inputs.color).toMatch(/^call h_[0-9a-f]{8} or \[CREDIT_CARD\]$/);
  });

  it('reports requests, errors and latency percentiles per hour, matching the logs', async () => {
    const all = await logs(prod);
    const t = await owner.client.get(`${M}/deployments/${prod}/traffic`);
    expect(t.status).toBe(200);
    const requests = t.body.hours.reduce((s: number, h: { requests: number }) => s + h.requests, 0);
    const errors = t.body.hours.reduce((s: number, h: { errors: number }) => s + h.errors, 0);
    expect(requests).toBe(all.total);
    expect(errors).toBe(all.items.filter((x: { status_code: number }) => x.status_code >= 400).length);
    for (const h of t.body.hours) {
      expect(h.latency_ms.p50).toBeGreaterThan(0);
      expect(h.latency_ms.p50).toBeLessThanOrEqual(h.latency_ms.p95);
      expect(h.latency_ms.p95).toBeLessThanOrEqual(h.latency_ms.p99);
    }
    const empty = await owner.client.get(`${M}/deployments/${prod}/traffic?until=2000-01-01T00:00:00Z`);
    expect(empty.body.hours).toEqual([]);
    const tooLong = await owner.client.get(`${M}/deployments/${prod}/traffic?since=2000-01-01T00:00:00Z`);
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.detail[0]).toMatchObject({ loc: ['query', 'since'], msg: 'The window from since to until may span at most 31 days' });
  });

  it('splits production traffic with a staging deployment asking for a share, deterministically by request id', async () => {
    const canary = await deploy(owner.client, { model_id: glm, name: 'canary', stage: 'staging', traffic_percent: 30 });
    const ids = Array.from({ length: 60 }, (_, i) => `split-${i}`);
    for (const id of ids) {
      const r = await owner.client.post(`${M}/deployments/${prod}/predict`, { inputs: row() }, { headers: { 'x-request-id': id } });
      expect(r.status).toBe(200);
    }
    const served = (await logs(canary)).items.filter((x: { request_id: string }) => x.request_id.startsWith('split-'));
    const expected = ids.filter((id) => trafficBucket(id) < 30).sort();
    expect(expected.length).toBeGreaterThan(5);
    expect(expected.length).toBeLessThan(40);
    expect(served.map((x: { request_id: string }) => x.request_id).sort()).toEqual(expected);
    for (const x of served) expect(x).toMatchObject({ deployment_id: canary, requested_deployment_id: prod, model_id: glm });
    const stayed = (await logs(prod)).items.filter((x: { request_id: string }) => x.request_id.startsWith('split-'));
    expect(stayed).toHaveLength(ids.length - expected.length);
    // The staging deployment's own endpoint serves itself.
    expect((await owner.client.post(`${M}/deployments/${canary}/predict`, { inputs: row() })).status).toBe(200);
    await owner.client.post(`${M}/deployments/${canary}/deactivate`);
  });

  it('publishes an OpenAPI fragment with an example row from the training data that predicts', async () => {
    const docs = (await owner.client.get(`${M}/deployments/${prod}/api-docs`)).body;
    expect(docs.openapi).toBe('3.1.0');
    const op = docs.paths[`${M}/deployments/${prod}/predict`].post;
    expect(docs.components.schemas.InputRow.properties).toEqual({ x1: { type: ['number', 'null'] }, x2: { type: ['number', 'null'] }, color: { type: ['string', 'null'] } });
    const example = op.requestBody.content['application/json'].example;
    expect(Object.keys(example.inputs).sort()).toEqual(['color', 'x1', 'x2']);
    expect(docs['x-example-source']).toBe('training_statistics');
    expect((await owner.client.post(`${M}/deployments/${prod}/predict`, example)).status).toBe(200);
  });

  it('answers bodies that fit the response schemas the OpenAPI document (and the web UI) states', async () => {
    // The JSON side of the schema (safeEncode): timestamps are ISO strings there, Dates only on the presenter's side.
    const fits = (schema: { safeEncode(v: unknown): { success: boolean; error?: unknown } }, body: unknown) => expect(schema.safeEncode(body).error).toBeUndefined();
    const detail = (await owner.client.get(`${M}/deployments/${prod}`)).body;
    fits(deploymentSchema, detail.deployment);
    fits(deploymentModelSchema, detail.model);
    fits(pageOf(deploymentSummarySchema), (await owner.client.get(`${M}/projects/${projectId}/deployments`)).body);
    fits(pageOf(transitionSchema), (await owner.client.get(`${M}/deployments/${prod}/rollback-history`)).body);
    const logs = (await owner.client.get(`${M}/deployments/${prod}/inference-logs?limit=50`)).body;
    expect(logs.items.length).toBeGreaterThan(0);
    fits(pageOf(inferenceLogSchema), logs);
  });

  it("answers 404 to another user's deployment and, at once, to a deactivated one", async () => {
    const notFound = { detail: 'Deployment not found or inactive' };
    expect((await stranger.client.post(`${M}/deployments/${prod}/predict`, { inputs: row() })).body).toEqual(notFound);
    expect((await stranger.client.get(`${M}/deployments/${prod}/inference-logs`)).body).toEqual(notFound);
    expect((await stranger.client.get(`${M}/deployments/${prod}/traffic`)).body).toEqual(notFound);
    expect((await stranger.client.get(`${M}/deployments/${prod}/api-docs`)).body).toEqual(notFound);
    expect((await owner.client.post(`${M}/deployments/${prod}/predict`, { inputs: row() })).status).toBe(200);
    await owner.client.post(`${M}/deployments/${prod}/deactivate`);
    const gone = await owner.client.post(`${M}/deployments/${prod}/predict`, { inputs: row() });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(notFound);
  });
});

describe('rows that do not match the training schema', () => {
  it('a row with none of its columns is refused naming them; unknown keys and absent features are predicted with warnings, on model and deployment predict, and logged', async () => {
    const dep = await deploy(owner.client, { model_id: glm, name: 'schema', stage: 'staging', store_payload: true });
    const refusal = (row: number) => ({ detail: `Prediction failed: inputs must match the training schema; row ${row} has none of its columns (expected: x1, x2, color)` });
    const warnings = [
      { type: 'unknown_columns', columns: ['shoe_size'], rows: [0], message: 'Not input columns of the model, ignored: shoe_size (1 of 2 rows)' },
      { type: 'missing_features', columns: ['x2', 'color'], rows: [0], message: 'Features not sent, predicted as missing values: x2, color (1 of 2 rows)' },
    ];
    for (const [path, requestId] of [
      [`/api/models/${glm}/predict`, 'warned-model'],
      [`${M}/deployments/${dep}/predict`, 'warned-deployment'],
    ]) {
      const none = await owner.client.post(path, { inputs: { shoe_size: 44 } }, { headers: { 'x-request-id': `${requestId}-none` } });
      expect([path, none.status, none.body]).toEqual([path, 422, refusal(0)]);
      expect((await owner.client.post(path, { inputs: [row(), {}] })).body).toEqual(refusal(1));
      const partial = await owner.client.post(path, { inputs: [{ x1: 0.5, shoe_size: 44 }, row()] }, { headers: { 'x-request-id': requestId } });
      expect([path, partial.status]).toEqual([path, 200]);
      expect(partial.body.predictions).toHaveLength(2);
      expect(partial.body.warnings).toEqual(warnings);
      // A complete row has no warnings, nor has a pasted training row (its target column is not an input).
      expect((await owner.client.post(path, { inputs: row() })).body.warnings).toBeUndefined();
      expect((await owner.client.post(path, { inputs: rows[0] })).body.warnings).toBeUndefined();
    }
    const logged = Object.fromEntries((await logs(dep)).items.map((x: { request_id: string }) => [x.request_id, x]));
    expect(logged['warned-deployment']).toMatchObject({ status_code: 200, warnings, inputs: [{ x1: 0.5 }, row()] });
    expect(logged['warned-deployment-none']).toMatchObject({ status_code: 422, prediction: null, inputs: {}, warnings: [] });
  });
});

describe('payloads PostgreSQL cannot store', () => {
  it('are refused at the request (a lone surrogate, nesting past 32 levels), and every later request, of every deployment, is still logged', async () => {
    const hostile = await deploy(owner.client, { model_id: glm, name: 'hostile', stage: 'staging' });
    const bystander = await deploy(owner.client, { model_id: gbm, name: 'bystander', stage: 'staging' });
    const send = (id: string, text: string, requestId: string) =>
      owner.client.post(`${M}/deployments/${id}/predict`, undefined, { rawBody: text, headers: { 'content-type': 'application/json', 'x-request-id': requestId } });
    // Valid JSON, and a valid JavaScript string, but no Unicode text: jsonb refuses its \ud800 escape.
    const lone = await send(hostile, '{"inputs":{"x1":1,"x2":2,"color":"\\ud800"},"options":{"store_payload":true}}', 'lone-surrogate');
    expect(lone.status).toBe(422);
    expect(lone.body).toEqual({ detail: [{ loc: ['body', 'inputs', 'color'], msg: 'Text must not contain unpaired UTF-16 surrogates (\\ud800-\\udfff)', type: 'string_surrogate' }] });
    const deep = await send(hostile, `{"inputs":{"x1":1,"x2":2,"color":"red","junk":${'['.repeat(5000)}${']'.repeat(5000)}},"options":{"store_payload":true}}`, 'deep');
    expect(deep.status).toBe(422);
    expect(deep.body.detail[0]).toMatchObject({ msg: 'JSON may nest at most 32 levels', type: 'json_too_deep' });
    // A paired surrogate (an emoji) is text like any other.
    const emoji = await send(hostile, JSON.stringify({ inputs: { ...row(), color: 'red \u{1F600}' }, options: { store_payload: true } }), 'emoji');
    expect(emoji.status).toBe(200);

    const after = await send(bystander, JSON.stringify({ inputs: row(), options: { store_payload: true } }), 'after-hostile');
    expect(after.status).toBe(200);
    expect((await logs(bystander)).items.find((x: { request_id: string }) => x.request_id === 'after-hostile')).toMatchObject({ status_code: 200, inputs: row() });
    const statuses = Object.fromEntries((await logs(hostile)).items.map((x: { request_id: string; status_code: number }) => [x.request_id, x.status_code]));
    expect(statuses).toEqual({ 'lone-surrogate': 422, deep: 422, emoji: 200 });
    expect((await logs(hostile)).items.find((x: { request_id: string }) => x.request_id === 'emoji').inputs.color).toBe('red \u{1F600}');
  });
});

describe('the inference log writer', () => {
  it('writes every buffered row on close, in batches, and one row per recorded request', async () => {
    const d = await stack.ds.getRepository(Deployment).findOneByOrFail({ id: prod });
    const model = await stack.ds.getRepository(Model).findOneByOrFail({ id: d.modelId });
    const writer = new InferenceLogs(stack.ds, new Access(stack.ds), createLogger('silent', 'test'));
    const n = 12_000;
    for (let i = 0; i < n; i++) writer.record({ requested: d, deployment: d, model }, { requestId: `bulk-${i}`, latencyMs: 0.25, statusCode: 200, predictions: ['pos'], rows: [row()], single: true });
    await writer.close();
    expect(writer.stats()).toEqual({ buffered: 0, written: n, dropped: 0 });
    const [{ count }] = await stack.ds.query(`SELECT count(*)::int AS count FROM inference_logs WHERE request_id LIKE 'bulk-%'`);
    expect(count).toBe(n);
  });

  it('drops and counts a row the database refuses without holding back the others, and keeps payloads as storable features only', async () => {
    const d = await stack.ds.getRepository(Deployment).findOneByOrFail({ id: prod });
    const model = await stack.ds.getRepository(Model).findOneByOrFail({ id: d.modelId });
    const log = createLogger('silent', 'test');
    const writer = new InferenceLogs(stack.ds, new Access(stack.ds), log, 200, () => new Set(['x1', 'x2', 'color']));
    const metrics = new ApiMetrics({ jobs: { openCounts: async () => [] }, serving: { onPredicted: () => undefined }, inferenceLogs: writer } as never, log);
    const record = (requestId: string, m: Model, rows: InputRow[]) =>
      writer.record({ requested: d, deployment: d, model: m }, { requestId, latencyMs: 1, statusCode: 200, predictions: ['pos'], rows, single: true, options: { store_payload: true } });
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    for (let i = 0; i < 3; i++) record(`poison-ok-${i}`, model, [row()]);
    // A value its column refuses: the whole multi-row INSERT fails with it.
    record('poison-row', { ...model, id: 'not-a-uuid' } as Model, [row()]);
    for (let i = 3; i < 6; i++) record(`poison-ok-${i}`, model, [row()]);
    // What no request can send any more, recorded directly: text jsonb refuses, a deep value, a key that is not a feature.
    record('poison-odd', model, [{ x1: deep, x2: 2, color: 'a\ud800b\u0000c', shoe_size: deep }]);
    await writer.close();
    expect(writer.stats()).toEqual({ buffered: 0, written: 7, dropped: 1 });
    const kept: { request_id: string; inputs: unknown }[] = await stack.ds.query(`SELECT request_id, inputs FROM inference_logs WHERE request_id LIKE 'poison-%' ORDER BY request_id`);
    expect(kept.map((r) => r.request_id)).toEqual(['poison-odd', 'poison-ok-0', 'poison-ok-1', 'poison-ok-2', 'poison-ok-3', 'poison-ok-4', 'poison-ok-5']);
    expect(kept[0].inputs).toEqual({ x1: null, x2: 2, color: 'a\ufffdb\ufffdc' });
    expect(await metrics.registry.getSingleMetricAsString('mlsvc_inference_logs_dropped_total')).toMatch(/mlsvc_inference_logs_dropped_total\{reason="unwritable"\} 1$/m);
  });
});

import { driftResultSchema } from '../api/presenters/deployment.schema';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, trainQuickModels } from './support/trained-models';

/** Drift of deployments through HTTP: a drift_compute job on the real stack, PSI against the training data. */

let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let glm: string;

const M = '/api/mlops';
const NO_PAYLOADS = 'No logged inputs to compare: drift needs predict requests logged with store_payload';

async function deploy(body: Record<string, unknown>): Promise<string> {
  const r = await owner.client.post(`${M}/projects/${projectId}/deployments`, { model_id: glm, ...body });
  if (r.status !== 201) throw new Error(`deploy failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

/** Predicts `rows` in requests of 50 (their inputs logged when the deployment stores payloads). */
async function send(id: string, rows: Record<string, unknown>[], options: Record<string, unknown> = {}): Promise<void> {
  for (let i = 0; i < rows.length; i += 50) {
    const r = await owner.client.post(`${M}/deployments/${id}/predict`, { inputs: rows.slice(i, i + 50).map(({ y: _y, ...x }) => x), options });
    expect(r.status).toBe(200);
  }
}

async function runDrift(id: string) {
  const run = await owner.client.post(`${M}/deployments/${id}/drift/run`);
  expect(run.status).toBe(200);
  expect(run.body).toEqual({ ok: true, job_id: expect.any(String) });
  const job = await eventually(
    async () => {
      const j = (await owner.client.get(`/api/jobs/${run.body.job_id}`)).body.job;
      return ['succeeded', 'failed', 'canceled'].includes(j.status) ? j : undefined;
    },
    120_000,
    300,
  );
  return job;
}

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_PREDICT: '1000' } });
  owner = await signUp(stack.baseUrl, stack.mail);
  stranger = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Drift');
  glm = (await trainQuickModels(owner.client, projectId, ['GLM'])).models.GLM;
}, 300_000);
afterAll(async () => stack?.stop());

describe('deployment drift', () => {
  let shifted: string;
  let steady: string;

  beforeAll(async () => {
    shifted = await deploy({ name: 'shifted', stage: 'production', store_payload: true });
    // color is masked in stored payloads, so drift must leave it out.
    steady = await deploy({ name: 'steady', stage: 'staging', store_payload: true, privacy_column_map: { color: 'name' } });
  });

  it('before any logged payload: GET drift is 404 and a run is 409, even after predicts that did not store their inputs', async () => {
    const none = await owner.client.get(`${M}/deployments/${shifted}/drift`);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ detail: 'No drift result yet' });
    await send(shifted, syntheticRows(50, 3), { store_payload: false });
    const refused = await owner.client.post(`${M}/deployments/${shifted}/drift/run`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: NO_PAYLOADS });
    expect((await owner.client.get(`/api/jobs?project_id=${projectId}&kind=drift_compute`)).body.total).toBe(0);
  });

  it('shifted inputs reach high drift, as a drift_compute job with progress and a Temporal UI link', async () => {
    await send(shifted, syntheticRows(300, 11, 2.5));
    const job = await runDrift(shifted);
    expect(job).toMatchObject({ kind: 'drift_compute', status: 'succeeded', progress: 100, entity_id: shifted, task_queue: expect.stringMatching(/cpu/) });
    expect(job.temporal_ui_url).toContain(job.workflow_id);

    const r = await owner.client.get(`${M}/deployments/${shifted}/drift`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ deployment_id: shifted, overall_status: 'high', inference_rows: 300, reference_rows: 400, job_id: job.id });
    expect(Object.keys(r.body.features).sort()).toEqual(['color', 'x1', 'x2']);
    expect(r.body.features.x1.status).toBe('high');
    expect(r.body.features.color.status).toBe('high');
    // x2 is not shifted: only sampling noise (300 rows against 400, ten bins) separates it from the training rows.
    expect(r.body.features.x2.psi).toBeLessThan(0.25);
    expect(r.body.features.x1.psi).toBeGreaterThan(0.25);
    expect(job.result).toEqual({ drift_result_id: expect.any(String), overall_status: 'high', max_psi: r.body.max_psi, inference_rows: 300 });
    expect(Date.parse(r.body.computed_at)).toBeLessThanOrEqual(Date.now());
    // The shape the OpenAPI document (and the web UI's generated types) states.
    // The JSON side of the schema (safeEncode): timestamps are ISO strings there, Dates only on the presenter's side.
    expect(driftResultSchema.safeEncode(r.body).error).toBeUndefined();
  });

  it('unshifted inputs stay low; masked columns are left out', async () => {
    await send(steady, syntheticRows(400, 12345));
    const job = await runDrift(steady);
    expect(job.status).toBe('succeeded');
    const r = (await owner.client.get(`${M}/deployments/${steady}/drift`)).body;
    expect(r.overall_status).toBe('low');
    expect(Object.keys(r.features).sort()).toEqual(['x1', 'x2']);
    for (const f of Object.values(r.features) as { psi: number; status: string }[]) expect(f).toEqual({ psi: expect.any(Number), status: 'low' });
    expect(r.inference_rows).toBe(400);
  });

  it('the latest result answers: a later run over more shifted rows replaces what GET drift shows', async () => {
    const before = (await owner.client.get(`${M}/deployments/${shifted}/drift`)).body;
    await send(shifted, syntheticRows(100, 12, 2.5));
    await runDrift(shifted);
    const after = (await owner.client.get(`${M}/deployments/${shifted}/drift`)).body;
    expect(after.inference_rows).toBe(400);
    expect(after.job_id).not.toBe(before.job_id);
  });

  it("another user's deployment is 404 for run and result; a read-only key cannot start a run", async () => {
    for (const [method, path] of [
      ['post', `${M}/deployments/${shifted}/drift/run`],
      ['get', `${M}/deployments/${shifted}/drift`],
    ] as const) {
      const r = method === 'post' ? await stranger.client.post(path) : await stranger.client.get(path);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ detail: 'Deployment not found or inactive' });
    }
    const key = await owner.client.post('/api/auth/api-keys', { name: 'drift-reader', scopes: ['read:deployments'] });
    const reader = new ApiClient(stack.baseUrl).withKey(key.body.api_key);
    expect((await reader.get(`${M}/deployments/${shifted}/drift`)).status).toBe(200);
    const refused = await reader.post(`${M}/deployments/${shifted}/drift/run`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'Insufficient scope' });
    expect((await owner.client.post(`${M}/deployments/not-a-uuid/drift/run`)).status).toBe(422);
  });

  it('a bad predict request is logged with its status (no inputs kept)', async () => {
    const bad = await owner.client.post(`${M}/deployments/${steady}/predict`, { inputs: 'not rows' });
    expect(bad.status).toBe(422);
    const bad2 = await owner.client.post(`${M}/deployments/${steady}/predict`, { inputs: { x1: 'a\u0000b' } });
    expect(bad2.status).toBe(422);
    const logs = (await owner.client.get(`${M}/deployments/${steady}/inference-logs?limit=2`)).body.items;
    expect(logs.map((l: { status_code: number; inputs: unknown; prediction: unknown }) => [l.status_code, l.inputs, l.prediction])).toEqual([
      [422, null, null],
      [422, null, null],
    ]);
  });
});

import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../platform/temporal-dev';
import { createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, trainQuickModels } from './support/trained-models';

/**
 * `GET /metrics` on the API and a worker process's metrics port: what they count, with bounded labels, and who may
 * read the API's (METRICS_TOKEN set here).
 */
const TOKEN = 'metrics-token-for-tests-0123456789';
let stack: TestStack;
let worker: ChildProcess;
let workerMetricsUrl: string;
let owner: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let modelId: string;

/** The value of one sample (`name{labels}`, labels in any order) in a text exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = new Map([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have.get(k) === v)) return Number(m[3]);
  }
  return undefined;
}

async function scrape(): Promise<string> {
  const r = await fetch(`${stack.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return r.text();
}

beforeAll(async () => {
  stack = await startStack({ workers: ['io'], env: { METRICS_TOKEN: TOKEN, RATE_LIMIT_TRAIN: '1000', RATE_LIMIT_PREDICT: '3' } });
  const port = await freePort();
  workerMetricsUrl = `http://127.0.0.1:${port}/metrics`;
  worker = spawn(process.execPath, [path.join(__dirname, '..', 'workers', 'run-workers.js'), 'cpu'], {
    env: { ...process.env, ...stack.workerEnv, WORKER_METRICS_PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  owner = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Metrics');
  modelId = (await trainQuickModels(owner.client, projectId, ['GLM'])).models.GLM;
}, 300_000);

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  }
  await stack?.stop();
});

describe('API metrics', () => {
  it('needs the bearer token when METRICS_TOKEN is set', async () => {
    expect((await fetch(`${stack.baseUrl}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${stack.baseUrl}/metrics`, { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(await wrong.json()).toEqual({ detail: 'Not authenticated' });
    // A session is not a metrics credential.
    expect((await owner.client.get('/metrics')).status).toBe(401);
  });

  it('counts requests and their latency per route template and status, never per raw URL', async () => {
    const before = await scrape();
    const route = { method: 'GET', route: '/api/projects/:project_id', status: '200' };
    const n0 = sample(before, 'mlsvc_http_requests_total', route) ?? 0;
    for (let i = 0; i < 3; i++) expect((await owner.client.get(`/api/projects/${projectId}`)).status).toBe(200);
    expect((await owner.client.get('/api/projects/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await owner.client.get(`/no/such/path/${Date.now()}`)).status).toBe(404);

    const after = await scrape();
    expect(sample(after, 'mlsvc_http_requests_total', route)).toBe(n0 + 3);
    expect(sample(after, 'mlsvc_http_requests_total', { ...route, status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'mlsvc_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'mlsvc_http_request_duration_seconds_count', route)).toBe(n0 + 3);
    expect(sample(after, 'mlsvc_http_request_duration_seconds_bucket', { ...route, le: '+Inf' })).toBe(n0 + 3);
    // No series names a concrete id or path.
    expect(after).not.toContain(projectId);
    expect(after).not.toContain('/no/such/path');
    // prom-client's process metrics are there under their usual names.
    expect(sample(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(after, 'nodejs_eventloop_lag_seconds')).toBeDefined();
  });

  it('counts predicted rows per model and rate-limit refusals per bucket', async () => {
    const rows = syntheticRows(4, 5).map(({ y: _y, ...r }) => r);
    const before = await scrape();
    const p0 = sample(before, 'mlsvc_predictions_total', { model_id: modelId }) ?? 0;
    const r0 = sample(before, 'mlsvc_rate_limit_rejections_total', { bucket: 'predict' }) ?? 0;
    // Windows are aligned to the clock: start the four requests early in one, so they cannot straddle two.
    await awayFromWindowEnd(`/api/models/${modelId}`);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await owner.client.post(`/api/models/${modelId}/predict`, { inputs: rows })).status);
    // RATE_LIMIT_PREDICT is 3 a window: the 4th is refused (and predicts nothing).
    expect(answers).toEqual([200, 200, 200, 429]);

    const after = await scrape();
    expect(sample(after, 'mlsvc_predictions_total', { model_id: modelId })).toBe(p0 + 12);
    expect(sample(after, 'mlsvc_rate_limit_rejections_total', { bucket: 'predict' })).toBe(r0 + 1);
    expect(sample(after, 'mlsvc_http_requests_total', { method: 'POST', route: '/api/models/:model_id/predict', status: '429' })).toBe(1);
  });

  it('reads open jobs by kind and status from the jobs table at scrape time, every kind listed', async () => {
    const kinds = ['automl_train', 'project_export', 'dataset_profile', 'drift_compute', 'report_generate', 'privacy_detect', 'privacy_transform'];
    const base = await scrape();
    for (const kind of kinds) for (const status of ['queued', 'running']) expect(sample(base, 'mlsvc_jobs', { kind, status })).toBeDefined();
    const q0 = sample(base, 'mlsvc_jobs', { kind: 'project_export', status: 'queued' })!;
    // Two queued jobs whose workflows were never started, as a Temporal outage leaves them (the reconciler is off here).
    await stack.ds.query(
      `INSERT INTO jobs (id, project_id, kind, status, progress, input, workflow_id, task_queue, attempt)
       SELECT id, $1, 'project_export', 'queued', 0, '{}', 'job-' || id, 'none', 0 FROM (SELECT gen_random_uuid() AS id FROM generate_series(1, 2)) g`,
      [projectId],
    );
    expect(sample(await scrape(), 'mlsvc_jobs', { kind: 'project_export', status: 'queued' })).toBe(q0 + 2);
    await stack.ds.query("DELETE FROM jobs WHERE kind = 'project_export' AND task_queue = 'none'");
  });
});

describe('worker metrics', () => {
  it("serves activity durations by type, queue and outcome on the worker's own port", async () => {
    const text = await eventually(async () => {
      const r = await fetch(workerMetricsUrl).catch(() => undefined);
      return r?.status === 200 ? r.text() : undefined;
    });
    const trainQueue = stack.config.training.taskQueue;
    expect(sample(text, 'mlsvc_activity_duration_seconds_count', { activity_type: 'trainModel', task_queue: trainQueue, outcome: 'completed' })).toBe(1);
    expect(sample(text, 'mlsvc_activity_duration_seconds_count', { activity_type: 'prepareExperimentData', task_queue: stack.config.taskQueues.cpu, outcome: 'completed' })).toBe(1);
    expect(sample(text, 'mlsvc_activity_schedule_to_start_seconds_count', { activity_type: 'trainModel', task_queue: trainQueue })).toBe(1);
    expect(sample(text, 'mlsvc_activities_running', { activity_type: 'trainModel', task_queue: trainQueue })).toBe(0);
    // No attempt of this run was a retry.
    expect(sample(text, 'mlsvc_activity_retries_total', { activity_type: 'trainModel' })).toBeUndefined();
    expect(sample(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect((await fetch(workerMetricsUrl.replace('/metrics', '/other'))).status).toBe(404);
  });

  it('on SIGTERM the worker process shuts its workers down gracefully, closes its metrics port and exits 0', async () => {
    const exited = new Promise<number | null>((r) => worker.once('exit', (code) => r(code)));
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(workerMetricsUrl)).rejects.toThrow();
  });
});

/** Waits, when the general window's reset is under 10 s away, until the next window has begun (a GET spends the general bucket only). */
async function awayFromWindowEnd(path: string): Promise<void> {
  const r = await owner.client.get(path);
  const reset = Number(r.headers.get('x-ratelimit-reset'));
  const left = reset * 1000 - Date.now();
  if (Number.isFinite(left) && left < 10_000) await new Promise((done) => setTimeout(done, Math.max(0, left) + 1_000));
}

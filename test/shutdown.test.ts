import { ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../platform/temporal-dev';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, toCsv, trainQuickModels } from './support/trained-models';

/**
 * Graceful shutdown of the API process as `npm start` runs it (dist/scripts/start.js, here against the test stack's
 * PostgreSQL and Temporal, no workers of its own): on SIGTERM it refuses new connections, finishes the request in
 * flight, writes its buffered inference logs and rate-limit counts, and exits 0 within SHUTDOWN_GRACE_SECS.
 */
const GRACE_SECS = 20;
let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let deploymentId: string;

/** The API as its own process, answering on `port` once /healthz says so. */
async function startApiProcess(env: Record<string, string> = {}): Promise<{ child: ChildProcess; port: number; exited: Promise<{ code: number | null; at: number }> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'scripts', 'start.js')], {
    env: {
      ...process.env,
      ...stack.workerEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      START_WORKERS: 'none',
      SHUTDOWN_GRACE_SECS: String(GRACE_SECS),
      // Rows stay in the buffer until shutdown writes them: what this test is about.
      INFERENCE_LOG_FLUSH_MS: '600000',
      RATE_LIMIT_PREDICT: '1000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: Date.now() })));
  await eventually(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.status === 200, 60_000, 200);
  return { child, port, exited };
}

/** The owner's session, sent to another API process (sessions live in PostgreSQL). */
function clientOf(port: number): ApiClient {
  const c = new ApiClient(`http://127.0.0.1:${port}`);
  for (const [k, v] of owner.client.cookies) c.cookies.set(k, v);
  return c;
}

/** Opens a multipart upload and sends only its head: a request in flight until `finish` sends the rest. */
function slowUpload(port: number, client: ApiClient, name: string): { sendSome(): void; finish(): void; answer: Promise<{ status: number; body: string }> } {
  const boundary = `----mlsvc${Date.now()}`;
  const csv = toCsv(syntheticRows(200, 3));
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="project_id"\r\n\r\n${projectId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.csv"\r\nContent-Type: text/csv\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/datasets/upload',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrf-token': client.cookies.get('csrf_token') ?? '',
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
  req.write(head);
  const half = Math.floor(csv.length / 2);
  return {
    sendSome: () => req.write(csv.slice(0, half)),
    finish: () => req.end(csv.slice(half) + tail),
    answer,
  };
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

beforeAll(async () => {
  stack = await startStack({ workers: ['io', 'cpu'], env: { RATE_LIMIT_TRAIN: '1000' } });
  owner = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Shutdown');
  const { models } = await trainQuickModels(owner.client, projectId, ['GLM']);
  const d = await owner.client.post(`/api/mlops/projects/${projectId}/deployments`, { model_id: models.GLM, name: 'prod', stage: 'production' });
  expect(d.status).toBe(201);
  deploymentId = d.body.id;
}, 300_000);
afterAll(async () => stack?.stop());

describe('graceful shutdown of the API process', () => {
  it('on SIGTERM refuses new connections, finishes the request in flight, writes buffered logs and exits 0 within the grace period', async () => {
    const api = await startApiProcess();
    const client = clientOf(api.port);
    const rows = syntheticRows(5, 11).map(({ y: _y, ...r }) => r);
    for (const inputs of rows) expect((await client.post(`/api/mlops/deployments/${deploymentId}/predict`, { inputs })).status).toBe(200);
    const logged = async () => (await stack.ds.query('SELECT count(*)::int AS n FROM inference_logs WHERE deployment_id = $1', [deploymentId]))[0].n as number;
    // Answered, and still only in the process's buffer.
    expect(await logged()).toBe(0);

    const upload = slowUpload(api.port, client, 'in flight at shutdown');
    upload.sendSome();
    await new Promise((r) => setTimeout(r, 300));
    const signaledAt = Date.now();
    api.child.kill('SIGTERM');
    await eventually(async () => !(await connects(api.port)), 10_000, 50);
    // The request that was in flight is still served: the rest of its body arrives after the signal.
    upload.finish();
    const answer = await upload.answer;
    expect(answer.status).toBe(201);
    const datasetId = JSON.parse(answer.body).id as string;

    const { code, at } = await api.exited;
    expect(code).toBe(0);
    expect(at - signaledAt).toBeLessThan(GRACE_SECS * 1000);
    expect(await logged()).toBe(5);
    const [{ n: versions }] = await stack.ds.query('SELECT count(*)::int AS n FROM dataset_versions WHERE dataset_id = $1', [datasetId]);
    expect(versions).toBe(1);
    // The rate-limit hits this process counted are all in the shared table: a restart forgets none.
    const [{ count }] = await stack.ds.query('SELECT sum(count)::int AS count FROM rate_limit_windows WHERE bucket_key = $1', [`predict:user:${owner.user.id}`]);
    expect(count).toBe(5);
  }, 120_000);

  it('cuts a request still unfinished when the grace period ends, and still exits 0', async () => {
    const api = await startApiProcess({ SHUTDOWN_GRACE_SECS: '1' });
    const upload = slowUpload(api.port, clientOf(api.port), 'never finished');
    upload.sendSome();
    await new Promise((r) => setTimeout(r, 300));
    api.child.kill('SIGTERM');
    // The client never sends the rest: after a second its connection is closed under it.
    await expect(upload.answer).rejects.toThrow(/socket hang up|ECONNRESET/);
    const { code } = await api.exited;
    expect(code).toBe(0);
    // Nothing of the cut upload was kept.
    const [{ n }] = await stack.ds.query("SELECT count(*)::int AS n FROM datasets WHERE name = 'never finished'");
    expect(n).toBe(0);
  }, 120_000);
});

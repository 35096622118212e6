import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ApiClient, eventually, signUp } from './support/client';
import { faultLines, NpmStart, reachableDataDir, startNpmStart, stopNpmStart } from './support/npm-start';
import { SmtpSink } from './support/smtp-sink';
import { stackFile, StackInfo } from './support/stack-file';
import { syntheticRows, toCsv } from './support/trained-models';

/**
 * The default install under concurrency. `npm start`'s own entry (dist/scripts/start.js) runs with no DATABASE_URL,
 * so it starts its embedded PostgreSQL under DATA_DIR/pg, its API and its worker process (against the run's Temporal
 * dev server, on a task-queue prefix of its own). Three users with session cookies and API keys send hundreds of
 * concurrent requests across the API's groups while the workers run an AutoML experiment, a report and a privacy
 * detection. Every answer must belong to its caller (each user sees only their own projects, each key only its
 * scopes), nothing answers 5xx, no process logs a database error, and every job ends in its right state.
 *
 * On the earlier embedded engine (one PGlite session multiplexed across every connection) this failed: answers of
 * 401 and 422 to valid requests, and `invalid input syntax for type uuid` with another request's token hash.
 */
const info = JSON.parse(fs.readFileSync(stackFile(), 'utf8')) as StackInfo;
const mail = new SmtpSink();
let dataDir: string;
let service: NpmStart;

/** `npm start` on the embedded defaults, against the run's Temporal dev server on a task-queue prefix of its own. */
function startService(env: Record<string, string> = {}): Promise<NpmStart> {
  return startNpmStart({
    DATA_DIR: dataDir,
    TEMPORAL_ADDRESS: info.temporalAddress,
    TASK_QUEUE_PREFIX: `emb${randomBytes(4).toString('hex')}-`,
    SMTP_URL: mail.url,
    APP_BASE_URL: 'http://app.test',
    RATE_LIMIT_GENERAL: '1000000',
    RATE_LIMIT_AUTH: '100000',
    ...env,
  });
}

interface Tenant {
  i: number;
  client: ApiClient;
  email: string;
  projectIds: string[];
  readProjectsKey: ApiClient;
  readDatasetsKey: ApiClient;
  revokedKey: ApiClient;
  datasetId: string;
  versionId: string;
  jobIds: string[];
}

function piiCsv(n: number, tag: string): string {
  const rows = syntheticRows(n).map((r, k) => ({ ...r, email: `${tag}.person${k}@example.org`, phone: `+1 415 555 ${String(1000 + k).slice(-4)}` }));
  return toCsv(rows);
}

async function newTenant(baseUrl: string, i: number): Promise<Tenant> {
  const u = await signUp(baseUrl, mail, { name: `Tenant ${i}` });
  const projectIds: string[] = [];
  for (let k = 0; k < 2; k++) {
    const r = await u.client.post('/api/projects', { name: `t${i}-project-${k}` });
    expect(r.status).toBe(201);
    projectIds.push(r.body.id);
  }
  const up = await u.client.upload('/api/datasets/upload', { project_id: projectIds[0], name: `t${i}-people` }, { name: 'people.csv', data: piiCsv(300, `t${i}`) });
  expect(up.status).toBe(201);
  const key = async (scopes: string[]) => {
    const r = await u.client.post('/api/auth/api-keys', { name: scopes.join(','), scopes });
    expect(r.status).toBe(201);
    return { id: r.body.id as string, client: new ApiClient(baseUrl).withKey(r.body.api_key) };
  };
  const revoked = await key(['read:projects']);
  expect((await u.client.post(`/api/auth/api-keys/${revoked.id}/revoke`)).status).toBe(200);
  return {
    i,
    client: u.client,
    email: u.email,
    projectIds,
    readProjectsKey: (await key(['read:projects'])).client,
    readDatasetsKey: (await key(['read:datasets'])).client,
    revokedKey: revoked.client,
    datasetId: up.body.dataset_id,
    versionId: up.body.dataset_version_id,
    jobIds: [],
  };
}

/** One request and what its answer must be for its caller. */
type Probe = () => Promise<string | undefined>;

function probesFor(t: Tenant, other: Tenant, burst: number): Probe[] {
  const own = (items: { name: string }[]) => items.every((p) => p.name.startsWith(`t${t.i}-`));
  const check = (label: string, ok: boolean, status: number) => (ok ? undefined : `${label}: tenant ${t.i} got ${status}`);
  const probes: Probe[] = [];
  for (let k = 0; k < 10; k++) {
    probes.push(async () => {
      const r = await t.client.get('/api/projects?limit=100');
      return check('session GET /api/projects', r.status === 200 && r.body.items.length >= 2 && own(r.body.items), r.status);
    });
    probes.push(async () => {
      const r = await t.readProjectsKey.get('/api/projects?limit=100');
      return check('key GET /api/projects', r.status === 200 && own(r.body.items), r.status);
    });
    probes.push(async () => {
      const r = await t.client.get('/api/auth/me');
      return check('GET /api/auth/me', r.status === 200 && r.body.user?.email === t.email, r.status);
    });
  }
  for (let k = 0; k < 3; k++) {
    probes.push(async () => {
      const r = await t.readProjectsKey.get(`/api/datasets?project_id=${t.projectIds[0]}`);
      return check('read:projects key on datasets', r.status === 403, r.status);
    });
    probes.push(async () => {
      const r = await t.readDatasetsKey.get(`/api/datasets?project_id=${t.projectIds[0]}`);
      return check('read:datasets key on datasets', r.status === 200 && r.body.items.every((d: { id: string }) => d.id === t.datasetId), r.status);
    });
    probes.push(async () => {
      const r = await t.revokedKey.get('/api/projects');
      return check('revoked key', r.status === 401, r.status);
    });
    probes.push(async () => {
      const r = await t.client.get(`/api/projects/${other.projectIds[0]}`);
      return check("another tenant's project", r.status === 404 && r.body.detail === 'Project not found', r.status);
    });
    probes.push(async () => {
      const r = await t.client.get(`/api/projects/${t.projectIds[1]}`);
      return check('own project', r.status === 200 && r.body.project.id === t.projectIds[1], r.status);
    });
    probes.push(async () => {
      const r = await t.client.get(`/api/projects/${t.projectIds[0]}/members`);
      return check('members', r.status === 200 && r.body.items.length === 1 && r.body.items[0].email === t.email, r.status);
    });
    probes.push(async () => {
      const r = await t.client.get(`/api/experiments?project_id=${t.projectIds[0]}`);
      return check('experiments list', r.status === 200 && r.body.items.every((e: { project_id: string }) => e.project_id === t.projectIds[0]), r.status);
    });
    probes.push(async () => {
      const r = await t.client.post('/api/projects', { name: `t${t.i}-burst-${burst}-${k}` });
      if (r.status === 201) t.projectIds.push(r.body.id);
      return check('POST /api/projects', r.status === 201, r.status);
    });
  }
  for (const jobId of t.jobIds) {
    probes.push(async () => {
      const r = await t.client.get(`/api/jobs/${jobId}`);
      return check('own job', r.status === 200 && r.body.job.id === jobId, r.status);
    });
  }
  for (const jobId of other.jobIds) {
    probes.push(async () => {
      const r = await t.client.get(`/api/jobs/${jobId}`);
      return check("another tenant's job", r.status === 404, r.status);
    });
  }
  return probes;
}

function shuffled<T>(xs: T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

beforeAll(async () => {
  await mail.start();
  dataDir = reachableDataDir('embedded');
  service = await startService();
}, 180_000);

afterAll(async () => {
  if (service) await stopNpmStart(service);
  await mail.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start on the embedded defaults', () => {
  let tenants: Tenant[];

  it('starts its own PostgreSQL server under DATA_DIR/pg', () => {
    expect(fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    expect(fs.readFileSync(path.join(dataDir, 'pg', 'PG_VERSION'), 'utf8').trim()).toBe('18');
  });

  it('answers hundreds of concurrent requests, each to its caller, while the workers run jobs', async () => {
    tenants = [];
    for (let i = 0; i < 3; i++) tenants.push(await newTenant(service.baseUrl, i));
    const [a, b, c] = tenants;

    const experiment = await a.client.post('/api/experiments', {
      project_id: a.projectIds[0],
      dataset_version_id: a.versionId,
      name: 'under load',
      target_column: 'y',
      problem_type: 'binary',
      config: { max_models: 2, nfolds: 2, seed: 1, exclude_algos: ['XGBoost', 'DRF', 'DeepLearning', 'StackedEnsemble'] },
    });
    expect(experiment.status).toBe(201);
    a.jobIds.push(experiment.body.job_id);

    const report = await b.client.post('/api/reports', { project_id: b.projectIds[0], kind: 'project', entity_id: b.projectIds[0] });
    expect(report.status).toBe(201);
    b.jobIds.push(report.body.job_id);

    const policy = await c.client.post('/api/privacy/policies', { project_id: c.projectIds[0], name: 'Contacts' });
    expect(policy.status).toBe(201);
    const session = await c.client.post('/api/privacy/sessions', { policy_id: policy.body.id, dataset_id: c.datasetId });
    expect(session.status).toBe(201);
    const detect = await c.client.post(`/api/privacy/sessions/${session.body.session_id}/detect`);
    expect(detect.status).toBe(200);
    c.jobIds.push(detect.body.job_id);

    const failures: string[] = [];
    const transportRetries: string[] = [];
    let sent = 0;
    for (let burst = 0; burst < 3; burst++) {
      const probes = shuffled(tenants.flatMap((t, k) => probesFor(t, tenants[(k + 1) % tenants.length], burst)));
      sent += probes.length;
      // A transport failure (fetch's "fetch failed") is retried once and counted: in the full suite, whose Jest process
      // holds gigabytes of heap, 70 of one run's ~170 concurrent requests once failed that way while the same file
      // alone never did. What this test guards is that every answer reaches its own caller, right; the cause of such a
      // failure is printed (a reset, a refused connect, a timeout) so a run that needed retries can be read.
      const answers = await Promise.all(
        probes.map((p) =>
          p().catch((first: unknown) => {
            transportRetries.push(`${String(first)} (${String((first as { cause?: unknown }).cause)})`);
            return p().catch((err: unknown) => `request failed: ${String(err)} (${String((err as { cause?: unknown }).cause)})`);
          }),
        ),
      );
      failures.push(...answers.filter((x): x is string => x !== undefined));
    }
    expect(sent).toBeGreaterThanOrEqual(500);
    if (transportRetries.length > 0) console.warn(`${transportRetries.length} requests retried after a transport failure, first: ${transportRetries[0]}`);
    expect(failures).toEqual([]);

    const ended = async (t: Tenant, jobId: string) =>
      eventually(
        async () => {
          const j = (await t.client.get(`/api/jobs/${jobId}`)).body.job;
          return ['succeeded', 'failed', 'canceled'].includes(j.status) ? j : undefined;
        },
        300_000,
        500,
      );
    const jobs = await Promise.all([ended(a, a.jobIds[0]), ended(b, b.jobIds[0]), ended(c, c.jobIds[0])]);
    expect(jobs.map((j: { kind: string; status: string; error?: string }) => [j.kind, j.status, j.error ?? null])).toEqual([
      ['automl_train', 'succeeded', null],
      ['report_generate', 'succeeded', null],
      ['privacy_detect', 'succeeded', null],
    ]);
    expect((await c.client.get(`/api/privacy/sessions/${session.body.session_id}`)).body.session.status).toBe('detected');
    expect(faultLines(service.lines)).toEqual([]);
  }, 600_000);

  it('stops cleanly and a second start reuses the data', async () => {
    expect(await stopNpmStart(service)).toBe(0);
    expect(faultLines(service.lines)).toEqual([]);
    service = await startService({ START_WORKERS: 'none' });
    const t = tenants[0];
    const again = new ApiClient(service.baseUrl);
    for (const [k, v] of t.client.cookies) again.cookies.set(k, v);
    const r = await again.get('/api/projects?limit=100');
    expect(r.status).toBe(200);
    expect(r.body.items.map((p: { id: string }) => p.id).sort()).toEqual([...t.projectIds].sort());
  }, 180_000);

  it('after a crash (kill -9), the next start stops the database server the dead one left and starts its own', async () => {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    await stopNpmStart(service, 'SIGKILL');
    expect(() => process.kill(pid, 0)).not.toThrow(); // the orphan is still running
    service = await startService({ START_WORKERS: 'none' });
    expect(() => process.kill(pid, 0)).toThrow();
    const again = new ApiClient(service.baseUrl);
    for (const [k, v] of tenants[1].client.cookies) again.cookies.set(k, v);
    expect((await again.get('/api/auth/me')).body.user.email).toBe(tenants[1].email);
    expect(service.lines.some((l) => l.includes('an earlier start left its embedded PostgreSQL running'))).toBe(true);
  }, 180_000);
});

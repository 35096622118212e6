import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { MAX_DRIFT_ROWS } from '../activities/drift-compute/compute';
import { DRIFT_WINDOW_LOGS } from '../services/retention';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { makeSuperuser } from './support/superuser';

/**
 * The retention policies through HTTP against the real stack, the `retention` job run by the real io worker. Rows
 * are seeded with SQL (foreign keys off for the seed, `session_replication_role`), so a test needs no trained model:
 * what it checks is which rows and files a policy takes, not how they came to be.
 */

let stack: TestStack;
let admin: ApiClient;
let adminId: string;
beforeAll(async () => {
  stack = await startStack({ workers: ['io'] });
  const a = await signUp(stack.baseUrl, stack.mail);
  admin = a.client;
  adminId = a.user.id;
  await makeSuperuser(stack.ds, adminId);
});
afterAll(async () => stack?.stop());

const OLD = "now() - interval '400 days'";

/** Writes `sql` with foreign-key triggers off (and the audit log's append-only trigger: seeding only). */
function seed<T>(fn: (em: EntityManager) => Promise<T>): Promise<T> {
  return stack.ds.transaction(async (em) => {
    await em.query('SET LOCAL session_replication_role = replica');
    return fn(em);
  });
}

/** A stored file and its artifact row; its storage key. */
async function artifact(em: EntityManager, projectId: string, id: string, ownerType: string, ownerId: string): Promise<string> {
  const stored = await stack.store.put(projectId, `${id}.bin`, Buffer.from(`bytes of ${id}`));
  await em.query(
    `INSERT INTO artifacts (id, project_id, kind, owner_type, owner_id, filename, content_type, size_bytes, storage_key) VALUES ($1,$2,'test',$3,$4,'f.bin','application/octet-stream',$5,$6)`,
    [id, projectId, ownerType, ownerId, stored.sizeBytes, stored.storageKey],
  );
  return stored.storageKey;
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const [{ n }] = (await stack.ds.query(`SELECT count(*)::int AS n FROM ${sql}`, params)) as { n: number }[];
  return n;
}

async function runToEnd(client: ApiClient): Promise<{ status: string; result: { kinds: { kind: string; rows: number }[]; files_removed: number } }> {
  const started = await client.post('/api/admin/retention/run', { dry_run: false });
  expect(started.status).toBe(202);
  expect(started.body.job).toMatchObject({ kind: 'retention', project_id: null, status: 'queued' });
  return eventually(async () => {
    const r = await client.get(`/api/admin/retention/runs/${started.body.job.id}`);
    return ['succeeded', 'failed', 'canceled'].includes(r.body.job?.status) && r.body.job;
  });
}

async function clearPolicies(): Promise<void> {
  for (const p of (await admin.get('/api/admin/retention')).body.policies) await admin.del(`/api/admin/retention/${p.kind}`);
}

describe('retention policies', () => {
  it('keeps its drift window in step with what a drift run reads', () => {
    expect(DRIFT_WINDOW_LOGS).toBe(MAX_DRIFT_ROWS);
  });

  it('refuses non-superusers, missing credentials, missing CSRF and keys without the admin scope', async () => {
    const plain = await signUp(stack.baseUrl, stack.mail);
    expect(await plain.client.get('/api/admin/retention')).toMatchObject({ status: 403, body: { detail: 'Superuser access required' } });
    expect((await plain.client.post('/api/admin/retention/run', { dry_run: true })).status).toBe(403);
    expect((await new ApiClient(stack.baseUrl).get('/api/admin/retention')).status).toBe(401);
    const noCsrf = new ApiClient(stack.baseUrl);
    noCsrf.cookies.set('session_token', admin.cookies.get('session_token')!);
    noCsrf.cookies.set('csrf_token', admin.cookies.get('csrf_token')!);
    noCsrf.sendCsrf = false;
    expect((await noCsrf.put('/api/admin/retention/reports', { keep_days: 30, action: 'delete' })).status).toBe(403);
    const readKey = (await admin.post('/api/auth/api-keys', { name: 'r', scopes: ['read', 'write'] })).body.api_key;
    expect((await new ApiClient(stack.baseUrl).withKey(readKey).get('/api/admin/retention')).status).toBe(403);
    const adminKey = (await admin.post('/api/auth/api-keys', { name: 'a', scopes: ['admin'] })).body.api_key;
    expect((await new ApiClient(stack.baseUrl).withKey(adminKey).get('/api/admin/retention')).status).toBe(200);
  });

  it('answers hostile input with 422 and unknown ones with 404', async () => {
    const bad = [
      ['/api/admin/retention/bogus', { keep_days: 30, action: 'delete' }],
      ['/api/admin/retention/reports', { keep_days: '30', action: 'delete' }],
      ['/api/admin/retention/reports', { keep_days: 2 ** 31, action: 'delete' }],
      ['/api/admin/retention/reports', { keep_days: 30, action: 'del\u0000ete' }],
      ['/api/admin/retention/reports', { keep_days: 30, keep_latest: 3, action: 'delete' }],
      ['/api/admin/retention/reports', { action: 'delete' }],
      ['/api/admin/retention/reports', { keep_days: 30, action: 'delete', extra: 1 }],
      ['/api/admin/retention/reports%00', { keep_days: 30, action: 'delete' }],
    ] as const;
    for (const [path, body] of bad) {
      const r = await admin.put(path, body);
      expect({ path, body, status: r.status }).toEqual({ path, body, status: 422 });
      expect(Array.isArray(r.body.detail)).toBe(true);
    }
    const anonymizeReports = await admin.put('/api/admin/retention/reports', { keep_days: 30, action: 'anonymize' });
    expect(anonymizeReports.status).toBe(422);
    expect(anonymizeReports.body.detail[0]).toMatchObject({ loc: ['body', 'action'], msg: expect.stringContaining('cannot be anonymized') });
    expect((await admin.post('/api/admin/retention/run', { dry_run: 'yes' })).status).toBe(422);
    expect((await admin.post('/api/admin/retention/run', {})).status).toBe(422);
    expect((await admin.del('/api/admin/retention/reports')).status).toBe(404);
    expect((await admin.get(`/api/admin/retention/runs/${randomUUID()}`)).status).toBe(404);
    expect((await admin.get('/api/admin/retention/runs/99999999999')).status).toBe(422);
    await clearPolicies();
    expect(await admin.post('/api/admin/retention/run', { dry_run: false })).toMatchObject({ status: 409, body: { detail: 'No retention policy is enabled; nothing to run' } });
  });

  it('dry-runs without changing anything, then a run takes exactly what the dry run said, files included', async () => {
    const projectId = await createProject(admin, 'Retention');
    const ids = {
      dataset: randomUUID(),
      v0: randomUUID(),
      v1: randomUUID(),
      v2: randomUUID(),
      experiment: randomUUID(),
      r1: randomUUID(),
      r2: randomUUID(),
      r3: randomUUID(),
      archived: randomUUID(),
      live: randomUUID(),
      synthModel: randomUUID(),
      g1: randomUUID(),
      g2: randomUUID(),
    };
    const keys = await seed(async (em) => {
      const k: Record<string, string> = {};
      await em.query(`INSERT INTO datasets (id, project_id, name) VALUES ($1, $2, 'd')`, [ids.dataset, projectId]);
      for (const [i, v] of [ids.v0, ids.v1, ids.v2].entries()) {
        const a = randomUUID();
        k[v] = await artifact(em, projectId, a, 'dataset', ids.dataset);
        await em.query(
          `INSERT INTO dataset_versions (id, dataset_id, version, row_count, column_count, columns, artifact_id, source, quality, created_at) VALUES ($1,$2,$3,1,1,'[]',$4,'{}','{}',${OLD})`,
          [v, ids.dataset, i, a],
        );
      }
      // v0 is used by an experiment, v2 is the latest: only v1 may go.
      await em.query(
        `INSERT INTO experiments (id, project_id, dataset_version_id, name, target_column, problem_type, problem_kind, status, config) VALUES ($1,$2,$3,'e','y','classification','binary','succeeded','{}')`,
        [ids.experiment, projectId, ids.v0],
      );
      await em.query(`INSERT INTO experiment_logs (experiment_id, source, level, message, created_at) SELECT $1, 'service', 'info', 'old', ${OLD} FROM generate_series(1, 3)`, [ids.experiment]);
      await em.query(`INSERT INTO experiment_logs (experiment_id, source, level, message) VALUES ($1, 'service', 'info', 'new')`, [ids.experiment]);
      for (const [id, status, age] of [
        [ids.r1, 'succeeded', OLD],
        [ids.r2, 'running', OLD],
        [ids.r3, 'succeeded', 'now()'],
      ] as const) {
        const a = randomUUID();
        k[id] = await artifact(em, projectId, a, 'report', id);
        await em.query(`INSERT INTO reports (id, project_id, kind, entity_id, status, options, artifact_id, created_at) VALUES ($1,$2,'project',$2,$3,'{}',$4,${age})`, [id, projectId, status, a]);
      }
      // An archived deployment's logs all go; an active one keeps its logged payloads (its drift window), not its failures.
      await em.query(`INSERT INTO deployments (id, project_id, model_id, name, stage, is_active) VALUES ($1,$2,$3,'old','archived',false), ($4,$2,$3,'live','production',true)`, [
        ids.archived,
        projectId,
        randomUUID(),
        ids.live,
      ]);
      const log = `INSERT INTO inference_logs (deployment_id, requested_deployment_id, model_id, project_id, request_id, latency_ms, status_code, inputs, created_at)
        SELECT $1, $1, $2, $3, 'r', 1, $4, $5::jsonb, ${OLD} FROM generate_series(1, $6::int)`;
      await em.query(log, [ids.archived, randomUUID(), projectId, 200, '{"x": 1}', 5]);
      await em.query(log, [ids.live, randomUUID(), projectId, 200, '{"x": 1}', 3]);
      await em.query(log, [ids.live, randomUUID(), projectId, 500, null, 2]);
      await em.query(`INSERT INTO synthgen_models (id, project_id, dataset_id, dataset_version_id, name, model_type, status, config) VALUES ($1,$2,$4,$3,'s','ctgan','ready','{}')`, [
        ids.synthModel,
        projectId,
        ids.v0,
        ids.dataset,
      ]);
      for (const [id, age] of [
        [ids.g1, OLD],
        [ids.g2, 'now()'],
      ] as const) {
        const a = randomUUID();
        k[id] = await artifact(em, projectId, a, 'synthgen_job', id);
        await em.query(`INSERT INTO synthgen_jobs (id, project_id, model_id, job_type, status, output_artifact_id, created_at) VALUES ($1,$2,$3,'generate','completed',$4,${age})`, [
          id,
          projectId,
          ids.synthModel,
          a,
        ]);
      }
      // The audit entries of this test's requests so far become old.
      await em.query(`UPDATE audit_log SET created_at = ${OLD} WHERE created_at < now()`);
      return k;
    });
    const oldAudit = await count(`audit_log WHERE created_at < now() - interval '300 days'`);

    for (const kind of ['inference_logs', 'experiment_logs', 'dataset_versions', 'reports', 'synthetic_outputs', 'audit_entries']) {
      const r = await admin.put(`/api/admin/retention/${kind}`, { keep_days: 30, action: 'delete' });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ kind, keep_days: 30, keep_latest: null, action: 'delete', enabled: true });
    }
    const overview = await admin.get('/api/admin/retention');
    expect(overview.status).toBe(200);
    expect(overview.body.policies).toHaveLength(6);
    expect(overview.body.next_run_at).toEqual(expect.any(String));

    // The audit log is left out: the dry run's request, a POST, gets its own request-level entry (part audit's rule).
    const tables = ['inference_logs', 'experiment_logs', 'dataset_versions', 'reports', 'artifacts', 'synthgen_jobs WHERE output_artifact_id IS NOT NULL'];
    const before = await Promise.all(tables.map((t) => count(t)));
    const dry = await admin.post('/api/admin/retention/run', { dry_run: true });
    expect(dry.status).toBe(200);
    const counts = Object.fromEntries(dry.body.kinds.map((k: { kind: string; count: number }) => [k.kind, k.count]));
    expect(counts).toEqual({ inference_logs: 7, experiment_logs: 3, dataset_versions: 1, reports: 1, synthetic_outputs: 1, audit_entries: oldAudit });
    const sample = Object.fromEntries(dry.body.kinds.map((k: { kind: string; sample_ids: string[] }) => [k.kind, k.sample_ids]));
    expect(sample.dataset_versions).toEqual([ids.v1]);
    expect(sample.reports).toEqual([ids.r1]);
    expect(sample.synthetic_outputs).toEqual([ids.g1]);
    // Nothing changed.
    expect(await Promise.all(tables.map((t) => count(t)))).toEqual(before);

    const job = await runToEnd(admin);
    expect(job.status).toBe('succeeded');
    const ran = Object.fromEntries(job.result.kinds.map((k) => [k.kind, k.rows]));
    expect(ran).toEqual(counts);
    expect(job.result.files_removed).toBe(3);

    expect((await stack.ds.query('SELECT id FROM dataset_versions WHERE dataset_id = $1 ORDER BY version', [ids.dataset])).map((r: { id: string }) => r.id)).toEqual([ids.v0, ids.v2]);
    expect(await stack.store.exists(keys[ids.v1])).toBe(false);
    expect(await stack.store.exists(keys[ids.v0])).toBe(true);
    expect((await stack.ds.query('SELECT id FROM reports WHERE project_id = $1', [projectId])).map((r: { id: string }) => r.id).sort()).toEqual([ids.r2, ids.r3].sort());
    expect(await stack.store.exists(keys[ids.r1])).toBe(false);
    expect(await count('inference_logs WHERE deployment_id = $1', [ids.live])).toBe(3);
    expect(await count('inference_logs WHERE deployment_id = $1', [ids.archived])).toBe(0);
    expect(await count('experiment_logs WHERE experiment_id = $1', [ids.experiment])).toBe(1);
    // A generation's row stays, its outputs gone (its download answers 409).
    expect(await stack.ds.query('SELECT id, output_artifact_id FROM synthgen_jobs WHERE model_id = $1 ORDER BY created_at', [ids.synthModel])).toEqual([
      { id: ids.g1, output_artifact_id: null },
      { id: ids.g2, output_artifact_id: expect.any(String) },
    ]);
    expect(await stack.store.exists(keys[ids.g1])).toBe(false);
    expect(await count(`audit_log WHERE created_at < now() - interval '300 days'`)).toBe(0);

    // A second dry run finds nothing more; the run shows in the overview.
    const again = await admin.post('/api/admin/retention/run', { dry_run: true });
    expect(again.body.kinds.every((k: { count: number }) => k.count === 0)).toBe(true);
    expect((await admin.get('/api/admin/retention')).body.last_runs[0]).toMatchObject({ kind: 'retention', status: 'succeeded' });
    // Instance jobs are no project member's: the jobs routes do not show them.
    expect((await admin.get(`/api/jobs/${(await admin.get('/api/admin/retention')).body.last_runs[0].id}`)).status).toBe(404);
  });

  it('anonymizes what it can and keeps the newest N', async () => {
    await clearPolicies();
    const projectId = await createProject(admin, 'Anonymize');
    const deployment = randomUUID();
    await seed(async (em) => {
      await em.query(`INSERT INTO deployments (id, project_id, model_id, name, stage, is_active) VALUES ($1,$2,$3,'old','archived',false)`, [deployment, projectId, randomUUID()]);
      await em.query(
        `INSERT INTO inference_logs (deployment_id, requested_deployment_id, model_id, project_id, request_id, latency_ms, status_code, inputs, prediction)
         SELECT $1, $1, $2, $3, 'r' || g, 1, 200, '{"email": "a@example.com"}', '"yes"' FROM generate_series(1, 4) g`,
        [deployment, randomUUID(), projectId],
      );
      await em.query(`UPDATE audit_log SET created_at = ${OLD}, ip = coalesce(ip, '10.0.0.1'), user_agent = coalesce(user_agent, 'ua') WHERE created_at < now()`);
    });
    expect((await admin.put('/api/admin/retention/inference_logs', { keep_latest: 2, action: 'anonymize' })).status).toBe(200);
    expect((await admin.put('/api/admin/retention/audit_entries', { keep_days: 30, action: 'anonymize' })).status).toBe(200);
    const oldAudit = await count(`audit_log WHERE created_at < now() - interval '300 days'`);
    expect(oldAudit).toBeGreaterThan(0);

    const dry = await admin.post('/api/admin/retention/run', { dry_run: true });
    expect(dry.body.kinds).toEqual([
      { kind: 'inference_logs', action: 'anonymize', count: 2, sample_ids: expect.any(Array) },
      { kind: 'audit_entries', action: 'anonymize', count: oldAudit, sample_ids: expect.any(Array) },
    ]);
    const job = await runToEnd(admin);
    expect(job.status).toBe('succeeded');
    expect(job.result.kinds).toEqual([
      { kind: 'inference_logs', action: 'anonymize', rows: 2 },
      { kind: 'audit_entries', action: 'anonymize', rows: oldAudit },
    ]);
    // Rows stay; the two oldest lost their inputs, the newest two kept theirs; predictions stay.
    const logs = await stack.ds.query('SELECT inputs, prediction FROM inference_logs WHERE deployment_id = $1 ORDER BY id', [deployment]);
    expect(logs.map((l: { inputs: unknown }) => l.inputs)).toEqual([null, null, { email: 'a@example.com' }, { email: 'a@example.com' }]);
    expect(logs.every((l: { prediction: unknown }) => l.prediction === 'yes')).toBe(true);
    expect(await count(`audit_log WHERE created_at < now() - interval '300 days'`)).toBe(oldAudit);
    expect(await count(`audit_log WHERE created_at < now() - interval '300 days' AND (ip IS NOT NULL OR user_agent IS NOT NULL)`)).toBe(0);
  });

  it('runs one at a time, cancels an open run (409 once ended) and drops the schedule when nothing is enabled', async () => {
    await clearPolicies();
    expect((await admin.put('/api/admin/retention/experiment_logs', { keep_latest: 100, action: 'delete', enabled: true })).status).toBe(200);
    // An open run whose workflow never started (as after a failed start): the next run waits for it.
    const open = randomUUID();
    await stack.ds.query(`INSERT INTO jobs (id, project_id, kind, status, input, workflow_id, task_queue, created_by) VALUES ($1, NULL, 'retention', 'queued', '{}', $2, $3, $4)`, [
      open,
      `job-${open}`,
      stack.config.taskQueues.io,
      adminId,
    ]);
    expect(await admin.post('/api/admin/retention/run', { dry_run: false })).toMatchObject({ status: 409, body: { detail: 'A retention run is already queued or running' } });
    const other = await signUp(stack.baseUrl, stack.mail);
    expect((await other.client.post(`/api/admin/retention/runs/${open}/cancel`)).status).toBe(403);
    const canceled = await admin.post(`/api/admin/retention/runs/${open}/cancel`);
    expect(canceled).toMatchObject({ status: 200, body: { job: { id: open, status: 'canceled' } } });
    expect((await admin.post(`/api/admin/retention/runs/${open}/cancel`)).status).toBe(409);
    expect((await admin.post(`/api/admin/retention/runs/${randomUUID()}/cancel`)).status).toBe(404);
    // Now a run may start, and ends.
    expect((await runToEnd(admin)).status).toBe('succeeded');

    const disabled = await admin.put('/api/admin/retention/experiment_logs', { keep_latest: 100, action: 'delete', enabled: false });
    expect(disabled.body.enabled).toBe(false);
    expect((await admin.get('/api/admin/retention')).body.next_run_at).toBeNull();
  });
});

import { ChildProcess, execFileSync } from 'node:child_process';
import { jobSchema } from '../api/presenters/job.schema';
import { pageOf } from '../api/presenters/page.schema';
import { jobWriteScope, REGISTERED_JOB_KINDS } from '../services/job-kinds';
import { addMember, ApiClient, createProject, eventually, signUp } from './support/client';
import { seedArtifacts } from './support/seed';
import { spawnWorkerProcess, startStack, TestStack } from './support/stack';
import { readZip } from './support/zip';

/**
 * The job system end to end: API → job row → Temporal workflow → activity in a worker
 * process → job row. Workers run as separate processes here so one can be killed.
 */
let stack: TestStack;
let worker: ChildProcess | undefined;

function startWorkerProcess(): ChildProcess {
  return spawnWorkerProcess(stack, ['io']);
}

async function stopWorker(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const w = worker;
  worker = undefined;
  if (!w || w.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    w.once('exit', () => resolve());
    w.kill(signal);
  });
}

async function job(client: ApiClient, id: string) {
  const r = await client.get(`/api/jobs/${id}`);
  expect(r.status).toBe(200);
  return r.body.job;
}

beforeAll(async () => {
  stack = await startStack({ workers: [] });
  worker = startWorkerProcess();
});
afterAll(async () => {
  await stopWorker('SIGKILL');
  await stack?.stop();
});

describe('project export jobs', () => {
  it('goes queued → running → succeeded with progress, and the archive lands as an artifact', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Exported');
    await seedArtifacts(stack, projectId, 6, 2_000_000);
    const r = await client.post(`/api/projects/${projectId}/export/jobs`);
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: r.body.job_id, job_id: expect.any(String), status: 'queued' });

    const seen = new Set<string>();
    const progress: number[] = [];
    const done = await eventually(
      async () => {
        const j = await job(client, r.body.id);
        seen.add(j.status);
        progress.push(j.progress);
        return j.status === 'succeeded' || j.status === 'failed' ? j : undefined;
      },
      60_000,
      50,
    );
    expect(done.status).toBe('succeeded');
    expect(done.progress).toBe(100);
    expect(done.kind).toBe('project_export');
    expect(done.workflow_id).toBe(`job-${r.body.id}`);
    expect(done.task_queue).toBe(stack.config.taskQueues.io);
    expect(done.temporal_ui_url).toContain(`/namespaces/default/workflows/job-${r.body.id}`);
    expect(done.started_at).toBeTruthy();
    expect(done.finished_at).toBeTruthy();
    expect(done.result).toMatchObject({ artifact_id: expect.any(String), files: 6 });
    // Progress only moves forward.
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);

    const zip = await client.get(`/api/artifacts/${done.result.artifact_id}/download`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.raw!.length).toBe(done.result.size_bytes);
    const entries = readZip(zip.raw!);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
    expect(manifest.artifacts).toHaveLength(6);
    for (const a of manifest.artifacts) expect(entries.get(a.path)!.length).toBe(2_000_000);

    // The Temporal CLI lists the workflow too.
    const listed = execFileSync(stack.info.temporalCli, ['workflow', 'list', '--address', stack.info.temporalAddress, '--query', `WorkflowId = 'job-${r.body.id}'`, '-o', 'json'], {
      encoding: 'utf8',
    });
    expect(listed).toContain(`job-${r.body.id}`);

    const list = await client.get(`/api/jobs?project_id=${projectId}&status=succeeded&kind=project_export`);
    expect(list.body.total).toBe(1);
    expect(list.body.items[0].id).toBe(r.body.id);
    // The shapes the OpenAPI document (and the web UI's generated types) state.
    // The JSON side of the schemas (safeEncode): timestamps are ISO strings there, Dates only on the presenter's side.
    expect(pageOf(jobSchema).safeEncode(list.body).error).toBeUndefined();
    expect(jobSchema.safeEncode(await job(client, r.body.id)).error).toBeUndefined();
  });

  it('fails with a readable error when an artifact is missing, without retrying', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Broken');
    await seedArtifacts(stack, projectId, 1, 1000);
    const [{ storage_key }] = await stack.ds.query('SELECT storage_key FROM artifacts WHERE project_id = $1', [projectId]);
    await stack.store.remove(storage_key);
    const r = await client.post(`/api/projects/${projectId}/export/jobs`);
    const done = await eventually(async () => {
      const j = await job(client, r.body.id);
      return ['succeeded', 'failed'].includes(j.status) ? j : undefined;
    });
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/blob-0\.bin .* is missing from the artifact store/);
    expect(done.attempt).toBe(1);
    // The direct download says the same, as a conflict rather than a 500.
    const direct = await client.get(`/api/projects/${projectId}/export`);
    expect(direct.status).toBe(409);
  });

  it('cancels a running export; the job ends canceled and no archive is kept', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Canceled');
    await seedArtifacts(stack, projectId, 24, 8_000_000);
    const r = await client.post(`/api/projects/${projectId}/export/jobs`);
    await eventually(
      async () => {
        const j = await job(client, r.body.id);
        return j.status === 'running' && j.progress > 0 ? j : undefined;
      },
      60_000,
      50,
    );
    const c = await client.post(`/api/jobs/${r.body.id}/cancel`);
    expect(c.body).toEqual({ ok: true });
    const done = await eventually(async () => {
      const j = await job(client, r.body.id);
      return ['succeeded', 'failed', 'canceled'].includes(j.status) ? j : undefined;
    });
    expect(done.status).toBe('canceled');
    const [{ n }] = await stack.ds.query("SELECT count(*)::int AS n FROM artifacts WHERE project_id = $1 AND kind = 'project_export'", [projectId]);
    expect(n).toBe(0);
    const again = await client.post(`/api/jobs/${r.body.id}/cancel`);
    expect(again.status).toBe(409);
  });

  it('survives a worker killed mid-activity: the activity is retried and the job completes', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Resilient');
    await seedArtifacts(stack, projectId, 24, 8_000_000);
    const r = await client.post(`/api/projects/${projectId}/export/jobs`);
    await eventually(
      async () => {
        const j = await job(client, r.body.id);
        return j.status === 'running' && j.progress > 0 && j.progress < 90 ? j : undefined;
      },
      60_000,
      50,
    );
    await stopWorker('SIGKILL');
    const stalled = await job(client, r.body.id);
    expect(stalled.status).toBe('running');
    worker = startWorkerProcess();
    const done = await eventually(
      async () => {
        const j = await job(client, r.body.id);
        return ['succeeded', 'failed', 'canceled'].includes(j.status) ? j : undefined;
      },
      120_000,
      200,
    );
    expect(done.status).toBe('succeeded');
    expect(done.attempt).toBeGreaterThanOrEqual(2);
    expect(done.result.files).toBe(24);
  }, 180_000);
});

describe('jobs API access', () => {
  it("hides other users' jobs and validates filters", async () => {
    const a = await signUp(stack.baseUrl, stack.mail);
    const b = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(a.client, 'Jobs');
    const r = await a.client.post(`/api/projects/${projectId}/export/jobs`);
    expect((await b.client.get(`/api/jobs/${r.body.id}`)).body).toEqual({ detail: 'Job not found' });
    expect((await b.client.post(`/api/jobs/${r.body.id}/cancel`)).status).toBe(404);
    expect((await b.client.get('/api/jobs')).body.total).toBe(0);
    expect((await b.client.post(`/api/projects/${projectId}/export/jobs`)).status).toBe(404);
    expect((await a.client.get('/api/jobs?status=exploded')).status).toBe(422);
    expect((await a.client.get('/api/jobs?kind=nope')).status).toBe(422);
    expect((await a.client.get('/api/jobs?project_id=abc')).status).toBe(422);
    expect((await a.client.get('/api/jobs/not-a-uuid')).status).toBe(422);
    expect((await a.client.get('/api/jobs?sort_field=progress&sort_direction=asc')).status).toBe(200);

    // A viewer can read jobs but not cancel them.
    await addMember(a.client, b, projectId, 'viewer');
    expect((await b.client.get(`/api/jobs/${r.body.id}`)).status).toBe(200);
    const j = (await b.client.get(`/api/jobs/${r.body.id}`)).body.job;
    if (!['succeeded', 'failed', 'canceled'].includes(j.status)) {
      expect((await b.client.post(`/api/jobs/${r.body.id}/cancel`)).status).toBe(403);
    }
    await eventually(async () => ((await job(a.client, r.body.id)).status === 'succeeded' ? true : undefined));
  });

  it('takes its kinds from the job-kind registry: the kind filter, its OpenAPI enum and the cancel scope rule', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    for (const kind of REGISTERED_JOB_KINDS) expect((await client.get(`/api/jobs?kind=${kind}`)).status).toBe(200);
    const doc = (await client.get('/api/openapi.json')).body;
    const kindParam = doc.paths['/api/jobs'].get.parameters.find((p: { name: string }) => p.name === 'kind');
    expect(kindParam.schema.enum).toEqual([...REGISTERED_JOB_KINDS]);
    const rule: string = doc.paths['/api/jobs/{job_id}/cancel'].post['x-scope-rule'];
    for (const kind of REGISTERED_JOB_KINDS) {
      const kinds = rule.match(new RegExp(`${jobWriteScope(kind)} \\(([^)]*)\\)`))?.[1].split(', ');
      expect(kinds).toContain(kind);
    }
  });

  it('the reconciler starts a job whose workflow never started', async () => {
    const { client, user } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Orphan');
    const [{ id }] = await stack.ds.query(
      `INSERT INTO jobs (id, project_id, kind, entity_id, status, workflow_id, task_queue, created_by, updated_at)
       VALUES (gen_random_uuid(), $1, 'project_export', $1, 'queued', 'pending', $2, $3, now() - interval '5 minutes') RETURNING id`,
      [projectId, stack.config.taskQueues.io, user.id],
    );
    await stack.ds.query("UPDATE jobs SET workflow_id = 'job-' || id::text WHERE id = $1", [id]);
    const { JobService } = await import('../services/jobs');
    const { Access } = await import('../services/access');
    const { TemporalGateway } = await import('../platform/temporal-client');
    const { createLogger } = await import('../platform/logger');
    const temporal = new TemporalGateway(stack.info.temporalAddress, 'default');
    const log = createLogger('silent');
    const out = await new JobService(stack.ds, new Access(stack.ds), temporal, stack.config, log, stack.store).reconcile();
    expect(out.started).toBeGreaterThanOrEqual(1);
    const done = await eventually(async () => {
      const j = await job(client, id);
      return j.status === 'succeeded' ? j : undefined;
    });
    expect(done.result.files).toBe(0);
    await temporal.close();
  });
});

import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { scratchParents } from '../platform/scratch';
import { freePort } from '../platform/temporal-dev';
import { WORKFLOW_LOST } from '../services/jobs';
import type { QueueFamily } from '../workflows/job-input';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { datasetFile } from './support/datasets';
import { killHard, startOwnPostgres, startOwnTemporal } from './support/killable';
import { seedArtifacts } from './support/seed';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, toCsv } from './support/trained-models';

/**
 * Issue 18's faults: a real process killed with SIGKILL mid-work (no shutdown, nothing flushed), restarted, and the
 * state checked for anything lost, duplicated or left half-written. Each test runs its own stack; the servers it
 * kills (Temporal, PostgreSQL) are its own too, so the rest of the suite never sees them go.
 */
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => undefined);
});

/** A worker process as `npm start` runs one; its stderr is kept (printed if the test fails) rather than flooding the output with its reconnect warnings. */
function startWorker(stack: TestStack, families: QueueFamily[]): ChildProcess & { stderrTail: () => string } {
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'workers', 'run-workers.js'), ...families], {
    env: { ...process.env, ...stack.workerEnv },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let tail = '';
  child.stderr?.on('data', (d: Buffer) => (tail = (tail + d.toString()).slice(-8000)));
  cleanups.push(() => killHard(child));
  return Object.assign(child, { stderrTail: () => tail });
}

async function jobOf(client: ApiClient, id: string) {
  const r = await client.get(`/api/jobs/${id}`);
  expect(r.status).toBe(200);
  return r.body.job;
}

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile());
}

/** Artifact rows and the store's files agree (every row has its file, every file its row), and no temporary file is left. */
async function nothingHalfWritten(stack: TestStack): Promise<void> {
  const rows: { storage_key: string }[] = await stack.ds.query('SELECT storage_key FROM artifacts');
  const tmp = path.join(stack.config.artifactDir, 'tmp');
  const stored = filesUnder(stack.config.artifactDir).filter((f) => !path.join(stack.config.artifactDir, f).startsWith(tmp + path.sep));
  expect(stored.sort()).toEqual(rows.map((r) => r.storage_key).sort());
  for (const parent of scratchParents(stack.config)) expect(filesUnder(parent)).toEqual([]);
}

describe('a process killed mid-work', () => {
  it('Temporal killed mid-training and restarted on its SQLite file: the experiment completes, each model trained and recorded once', async () => {
    const temporal = await startOwnTemporal({ persistent: true });
    cleanups.push(() => temporal.stop());
    // The reconciler runs often: it must not take a Temporal that is away for one that lost the job.
    const stack = await startStack({ temporalAddress: temporal.address, workers: [], env: { RATE_LIMIT_TRAIN: '1000', RECONCILE_INTERVAL_SECS: '2', RECONCILE_GRACE_SECS: '3' } });
    cleanups.push(() => stack.stop());
    const worker = startWorker(stack, ['io', 'cpu']);
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Temporal killed');
    const up = await client.upload('/api/datasets/upload', { project_id: projectId, name: 'synthetic' }, { name: 'synthetic.csv', data: toCsv(syntheticRows(3000)) });
    expect(up.status).toBe(201);
    const r = await client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: up.body.dataset_version_id,
      name: 'through a Temporal crash',
      target_column: 'y',
      problem_type: 'binary',
      config: { max_models: 3, nfolds: 2, seed: 5, exclude_algos: ['XGBoost', 'DeepLearning', 'StackedEnsemble'] },
    });
    expect(r.status).toBe(201);
    await eventually(
      async () => {
        const s = (await client.get(`/api/experiments/${r.body.id}/status`)).body;
        return s.status === 'running' && s.progress.current ? s : undefined;
      },
      90_000,
      100,
    );

    await temporal.kill();
    // Killed with models still to train.
    const [{ n: before }] = await stack.ds.query('SELECT count(*)::int AS n FROM models WHERE experiment_id = $1', [r.body.id]);
    expect(before).toBeLessThan(3);
    // The API and the worker stay up while the server is gone; it comes back on the same port and SQLite file.
    await new Promise((res) => setTimeout(res, 3000));
    await temporal.restart();

    const done = await eventually(
      async () => {
        const s = (await client.get(`/api/experiments/${r.body.id}/status`)).body;
        return ['succeeded', 'failed', 'canceled'].includes(s.status) ? s : undefined;
      },
      120_000,
      500,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; worker stderr: ${worker.stderrTail()}`);
    });
    expect({ status: done.status, error: done.error ?? null }).toEqual({ status: 'succeeded', error: null });
    expect((await jobOf(client, r.body.job_id)).status).toBe('succeeded');

    const models: { name: string; n: number }[] = await stack.ds.query('SELECT name, count(*)::int AS n FROM models WHERE experiment_id = $1 GROUP BY name', [r.body.id]);
    expect(models).toHaveLength(3);
    expect(models.every((m) => m.n === 1)).toBe(true);
    // Each model's training started once: the interrupted one went on in its worker and reported once the server was back.
    const logs: string[] = (await client.get(`/api/experiments/${r.body.id}/logs`)).body.logs;
    for (const m of models) expect(logs.filter((l) => l.includes(`training ${m.name} (`))).toHaveLength(1);
    await nothingHalfWritten(stack);
  }, 240_000);

  it('PostgreSQL killed mid-export and restarted: the job ends succeeded or failed with a readable error, never stuck running, nothing half-written', async () => {
    const pg = await startOwnPostgres();
    cleanups.push(() => pg.stop());
    const stack = await startStack({ adminDatabaseUrl: pg.url, workers: [], env: { RECONCILE_INTERVAL_SECS: '2', RECONCILE_GRACE_SECS: '5' } });
    cleanups.push(() => stack.stop());
    const worker = startWorker(stack, ['io']);
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Postgres killed');
    await seedArtifacts(stack, projectId, 16, 4_000_000);
    const r = await client.post(`/api/projects/${projectId}/export/jobs`);
    expect(r.status).toBe(201);
    await eventually(
      async () => {
        const j = await jobOf(client, r.body.id);
        return j.status === 'running' && j.progress > 0 && j.progress < 90 ? j : undefined;
      },
      90_000,
      50,
    );

    await pg.kill();
    // Down until the worker has streamed the whole archive and found no database to record it in (the file in
    // its temporary folder is gone: renamed into the store, then removed when the row could not be written).
    await eventually(async () => filesUnder(path.join(stack.config.artifactDir, 'tmp')).length === 0, 90_000, 100);
    pg.restart();

    const done = await eventually(
      async () => {
        const res = await client.get(`/api/jobs/${r.body.id}`).catch(() => undefined);
        const j = res?.status === 200 ? res.body.job : undefined;
        return j && ['succeeded', 'failed', 'canceled'].includes(j.status) ? j : undefined;
      },
      120_000,
      500,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; worker stderr: ${worker.stderrTail()}`);
    });
    const exports: { id: string }[] = await stack.ds.query("SELECT id FROM artifacts WHERE project_id = $1 AND kind = 'project_export'", [projectId]);
    if (done.status === 'succeeded') {
      expect(exports.map((a) => a.id)).toEqual([done.result.artifact_id]);
      expect(done.result.files).toBe(16);
      const zip = await client.get(`/api/artifacts/${done.result.artifact_id}/download`);
      expect(zip.status).toBe(200);
      expect(zip.raw!.length).toBe(done.result.size_bytes);
    } else {
      expect(done.status).toBe('failed');
      // A sentence for a person, not a stack trace.
      expect(done.error).toMatch(/^[A-Z][^\n]{10,300}$/);
      expect(exports).toEqual([]);
    }
    await nothingHalfWritten(stack);
  }, 240_000);

  it('PostgreSQL down for 60 s during an experiment, a synthgen training and a privacy transform: all three end succeeded once it is back', async () => {
    const pg = await startOwnPostgres();
    cleanups.push(() => pg.stop());
    const stack = await startStack({
      adminDatabaseUrl: pg.url,
      workers: [],
      // Two of the user's ml-cpu jobs (the synthgen training and the privacy transform) run through the outage at once.
      env: {
        RECONCILE_INTERVAL_SECS: '0',
        SYNTHGEN_CHECKPOINT_SECS: '2',
        RATE_LIMIT_TRAIN: '1000',
        MAX_RUNNING_JOBS_PER_USER: '2',
        ...(process.env.OUTAGE_WAIT_SECS ? { OUTAGE_WAIT_SECS: process.env.OUTAGE_WAIT_SECS } : {}),
      },
    });
    cleanups.push(() => stack.stop());
    const worker = startWorker(stack, ['io', 'cpu']);
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Outage');
    const rows = syntheticRows(20_000).map((r, i) => ({ ...r, email: `person${i}@example.org` }));
    const up = await client.upload('/api/datasets/upload', { project_id: projectId, name: 'people' }, { name: 'people.csv', data: toCsv(rows) });
    expect(up.status).toBe(201);
    const titanic = await client.upload('/api/datasets/upload', { project_id: projectId, name: 'titanic' }, datasetFile('titanic.csv'));
    expect(titanic.status).toBe(201);

    // The privacy session is detected before the outage; its transform runs through it.
    const policy = await client.post('/api/privacy/policies', { project_id: projectId, name: 'Mask emails' });
    const session = await client.post('/api/privacy/sessions', { policy_id: policy.body.id, dataset_id: up.body.dataset_id });
    const sessionId = session.body.session_id as string;
    expect((await client.post(`/api/privacy/sessions/${sessionId}/detect`)).status).toBe(200);
    await eventually(async () => ((await client.get(`/api/privacy/sessions/${sessionId}`)).body.session.status === 'detected' ? true : undefined), 120_000, 300);

    const experiment = await client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: up.body.dataset_version_id,
      name: 'through an outage',
      target_column: 'y',
      problem_type: 'binary',
      config: { max_models: 4, nfolds: 3, seed: 1, exclude_algos: ['DeepLearning', 'StackedEnsemble'] },
    });
    expect(experiment.status).toBe(201);
    const synth = await client.post('/api/synthgen/models', {
      project_id: projectId,
      dataset_version_id: titanic.body.dataset_version_id,
      name: 'through an outage',
      model_type: 'ctgan',
      config: { epochs: 30, batch_size: 100, pac: 10, embedding_dim: 32, generator_dim: [64, 64], discriminator_dim: [64, 64], seed: 1 },
    });
    expect(synth.status).toBe(201);
    const transform = await client.post(`/api/privacy/sessions/${sessionId}/transform`);
    expect(transform.status).toBe(200);
    const jobIds = [experiment.body.job_id, synth.body.job_id, transform.body.job_id] as string[];
    await eventually(async () => ((await Promise.all(jobIds.map((id) => jobOf(client, id)))).every((j) => j.status === 'running') ? true : undefined), 120_000, 100);

    await pg.kill();
    await new Promise((r) => setTimeout(r, 60_000));
    pg.restart();

    const ended = await Promise.all(
      jobIds.map((id) =>
        eventually(
          async () => {
            const res = await client.get(`/api/jobs/${id}`).catch(() => undefined);
            const j = res?.status === 200 ? res.body.job : undefined;
            return j && ['succeeded', 'failed', 'canceled'].includes(j.status) ? j : undefined;
          },
          300_000,
          500,
        ),
      ),
    ).catch((err: Error) => {
      throw new Error(`${err.message}; worker stderr: ${worker.stderrTail()}`);
    });
    expect(ended.map((j) => [j.kind, j.status, j.error])).toEqual([
      ['automl_train', 'succeeded', null],
      ['synthgen_train', 'succeeded', null],
      ['privacy_transform', 'succeeded', null],
    ]);
    expect((await client.get(`/api/experiments/${experiment.body.id}/status`)).body.status).toBe('succeeded');
    expect((await client.get(`/api/experiments/${experiment.body.id}`)).body.models.length).toBeGreaterThanOrEqual(1);
    // The outage reached them in flight: at least one needed a second attempt.
    expect(Math.max(...ended.map((j) => j.attempt))).toBeGreaterThanOrEqual(2);
    expect((await client.get(`/api/synthgen/models/${synth.body.id}`)).body.model.status).toBe('ready');
    expect((await client.get(`/api/privacy/sessions/${sessionId}`)).body.session.status).toBe('completed');
    await nothingHalfWritten(stack);
  }, 480_000);

  it('the API killed mid-upload: after its restart no dataset, version, artifact or temporary file is left of the upload', async () => {
    const stack = await startStack({ workers: [] });
    cleanups.push(() => stack.stop());
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'API killed');

    const api = await startApiProcess(stack);
    const upload = streamedUpload(api.port, client, projectId, 'cut short', 40 * 1024 * 1024);
    // The API process writes the upload to its own scratch folder: wait until megabytes of it are on disk.
    const scratch = path.join(stack.config.dataDir, 'tmp', `${os.hostname()}.${api.child.pid}`, 'uploads');
    await eventually(async () => filesUnder(scratch).some((f) => fs.statSync(path.join(scratch, f)).size > 4 * 1024 * 1024), 60_000, 50);
    await killHard(api.child);
    upload.stop();
    await expect(upload.answer).rejects.toThrow();
    // The kill left the partial upload where only a sweep finds it.
    expect(filesUnder(scratch).length).toBeGreaterThan(0);

    const again = await startApiProcess(stack);
    expect(fs.existsSync(path.dirname(scratch))).toBe(false);
    const count = async (sql: string) => (await stack.ds.query(sql, [projectId]))[0].n as number;
    expect(await count('SELECT count(*)::int AS n FROM datasets WHERE project_id = $1')).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM dataset_versions v JOIN datasets d ON d.id = v.dataset_id WHERE d.project_id = $1')).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM artifacts WHERE project_id = $1')).toBe(0);
    await nothingHalfWritten(stack);

    // The restarted API takes uploads again.
    const c = new ApiClient(`http://127.0.0.1:${again.port}`);
    for (const [k, v] of client.cookies) c.cookies.set(k, v);
    const ok = await c.upload('/api/datasets/upload', { project_id: projectId, name: 'after the restart' }, { name: 'small.csv', data: toCsv(syntheticRows(50)) });
    expect(ok.status).toBe(201);
    expect(ok.body.row_count).toBe(50);
  }, 180_000);

  it('a job a restarted stack cannot finish (Temporal came back without its history) ends failed with a readable reason within the reconciler period', async () => {
    const temporal = await startOwnTemporal({ persistent: false });
    cleanups.push(() => temporal.stop());
    const graceSecs = 3;
    const periodSecs = 2;
    const stack = await startStack({
      temporalAddress: temporal.address,
      workers: [],
      env: { RECONCILE_INTERVAL_SECS: String(periodSecs), RECONCILE_GRACE_SECS: String(graceSecs) },
    });
    cleanups.push(() => stack.stop());
    const worker = startWorker(stack, ['io']);
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'History lost');
    await seedArtifacts(stack, projectId, 16, 4_000_000);
    const r = await client.post(`/api/projects/${projectId}/export/jobs`);
    await eventually(
      async () => {
        const j = await jobOf(client, r.body.id);
        return j.status === 'running' && j.progress > 0 && j.progress < 90 ? j : undefined;
      },
      90_000,
      50,
    );

    // The worker is frozen mid-activity (not killed) while Temporal dies and comes back empty, so its activity
    // outlives the job: the orphan then runs on and must keep nothing.
    worker.kill('SIGSTOP');
    await temporal.kill();
    await temporal.restart(); // in memory: the workflow is gone
    // The next sweep after the job has run for the grace period: seconds; the deadline leaves room for a loaded machine.
    const failed = await eventually(
      async () => {
        const j = await jobOf(client, r.body.id);
        return j.status !== 'running' ? j : undefined;
      },
      (graceSecs + periodSecs) * 1000 + 30_000,
      250,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; worker stderr: ${worker.stderrTail()}`);
    });
    expect({ status: failed.status, error: failed.error }).toEqual({ status: 'failed', error: WORKFLOW_LOST });
    // The worker's orphaned activity neither records an archive nor moves the job again, whether its heartbeat
    // (to a server that does not know it) cancels it or it finishes first.
    worker.kill('SIGCONT');
    // Frozen while it streamed into a temporary file; it is done once that file is gone and no stored file lacks its
    // row (the archive renamed into place is then either recorded or removed).
    let seen = '';
    await eventually(
      async () => {
        const rows: { storage_key: string }[] = await stack.ds.query('SELECT storage_key FROM artifacts');
        const stored = filesUnder(stack.config.artifactDir).filter((f) => !f.startsWith(`tmp${path.sep}`));
        const scratch = filesUnder(path.join(stack.config.artifactDir, 'tmp'));
        seen = `temporary files ${JSON.stringify(scratch)}, ${stored.length} stored files for ${rows.length} rows`;
        return scratch.length === 0 && stored.length === rows.length;
      },
      // The resumed worker finishes or drops a 64 MB archive: seconds, unless the machine is busy.
      150_000,
      250,
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${seen}; worker stderr: ${worker.stderrTail()}`);
    });
    const [{ n }] = await stack.ds.query("SELECT count(*)::int AS n FROM artifacts WHERE project_id = $1 AND kind = 'project_export'", [projectId]);
    expect(n).toBe(0);
    expect((await jobOf(client, r.body.id)).status).toBe('failed');
    await nothingHalfWritten(stack);
  }, 300_000);
});

/** The API as its own process (dist/scripts/start.js, as `npm start` runs it, no workers), answering once /healthz says so. */
async function startApiProcess(stack: TestStack): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'scripts', 'start.js')], {
    env: { ...process.env, ...stack.workerEnv, PORT: String(port), HOST: '127.0.0.1', START_WORKERS: 'none' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  cleanups.push(() => killHard(child));
  await eventually(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.status === 200, 60_000, 200);
  return { child, port };
}

/**
 * A dataset upload of `bytes` of generated CSV, streamed with backpressure (never held in memory) until it is all
 * sent or `stop` is called; `answer` settles with the response, or rejects when the connection dies.
 */
function streamedUpload(port: number, client: ApiClient, projectId: string, name: string, bytes: number): { stop(): void; answer: Promise<number> } {
  const boundary = `----mlsvc${Date.now()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="project_id"\r\n\r\n${projectId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`;
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
  let stopped = false;
  const answer = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  answer.catch(() => undefined);
  req.write(head + 'a,b,c,label\n');
  let sent = 0;
  let row = 0;
  const pump = () => {
    while (!stopped && sent < bytes) {
      const lines: string[] = [];
      for (let i = 0; i < 2000; i++, row++) lines.push(`${row},${(row * 7919) % 1000},${(row % 13) / 10},${row % 2 ? 'yes' : 'no'}`);
      const chunk = lines.join('\n') + '\n';
      sent += chunk.length;
      if (!req.write(chunk)) return void req.once('drain', pump);
    }
    if (!stopped) req.end(`\r\n--${boundary}--\r\n`);
  };
  pump();
  return {
    stop: () => {
      stopped = true;
      req.destroy();
    },
    answer,
  };
}

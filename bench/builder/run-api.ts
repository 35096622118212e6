/**
 * Benchmark (not a test): the builder through the service, on the same ~1 GB messy CSV as run-engine.ts. The stack
 * is what `npm start` runs (stack.ts: the API process and the worker process it supervises); this process is the
 * client and samples both processes' RSS every 100 ms from /proc, one interval per stage:
 *
 *   upload (POST /api/datasets/upload) → create a builder session → per step of the recipe (recipe.ts): PATCH its
 *   operations (validated, preview recomputed on a sample), execute (a `builder_run` job) → finalize (a new version)
 *   → upload the same file as a second version (POST /api/datasets/{id}/versions) → replay the recipe on it.
 *
 *   nice -n 19 node <build>/bench/builder/run-api.js [rows=9500000] [csv; default /tmp/mlsvc-bench/builder-<rows>.csv]
 *
 * With DATABASE_URL set, the stack's database is a fresh one on that server (dropped afterwards); else an embedded
 * PostgreSQL. Result: bench/results/builder/api.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { Client as PgClient } from 'pg';
import { login, postJson, Session, uploadMultipart } from '../ingest/http-client';
import { DEFAULT_ROWS, ensureMessyCsv } from './generate';
import { machineInfo } from './machine';
import { RECIPE_STEPS } from './recipe';
import { round1, RssSampler } from './rss';
import { startServiceStack } from './stack';

const repoRoot = resolve(__dirname, '..', '..', '..');
const EMAIL = 'bench@example.com';
const PASSWORD = 'a long benchmark password';

/** A JSON request with the session's cookies and CSRF token; answers status and parsed body. */
async function call(s: Session, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${s.base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', cookie: s.cookie, 'x-csrf-token': s.csrf },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function expectStatus(s: Session, method: string, path: string, want: number, body?: unknown): Promise<Record<string, unknown>> {
  const r = await call(s, method, path, body);
  if (r.status !== want) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 1000)}`);
  return r.body;
}

/** Polls a job until it ends; throws unless it succeeded. */
async function waitForJob(s: Session, jobId: string, label: string): Promise<Record<string, unknown>> {
  let last = '';
  for (;;) {
    const job = (await expectStatus(s, 'GET', `/api/jobs/${jobId}`, 200)).job as Record<string, unknown>;
    const line = `${String(job.progress)}% ${String(job.message ?? '')}`;
    if (line !== last) console.log(`    [${label}] ${line}`);
    last = line;
    if (job.status === 'succeeded') return job;
    if (job.status === 'failed' || job.status === 'canceled') throw new Error(`${label}: job ${String(job.status)}: ${String(job.error)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * A finished job's own times: how long it waited for a slot (the user's other jobs, e.g. the profile every new version
 * gets, run first: MAX_RUNNING_JOBS_PER_USER) and how long it ran, apart from the stage's wall time.
 */
function jobTimes(job: Record<string, unknown>): Record<string, unknown> {
  const at = (k: string): number => Date.parse(String(job[k]));
  return { waited_s: round1((at('started_at') - at('created_at')) / 1000), ran_s: round1((at('finished_at') - at('started_at')) / 1000), result: job.result };
}

/** Registers through the API; only the e-mailed verification link is replaced by a direct update. */
async function signUp(base: string, databaseUrl: string): Promise<Session> {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, name: 'Bench', password: PASSWORD }),
  });
  if (res.status >= 300) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const pg = new PgClient({ connectionString: databaseUrl });
  await pg.connect();
  try {
    await pg.query('UPDATE users SET email_verified_at = now() WHERE email = $1', [EMAIL]);
  } finally {
    await pg.end();
  }
  return login(base, EMAIL, PASSWORD);
}

interface StageTiming {
  stage: string;
  seconds: number;
  detail?: Record<string, unknown>;
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? DEFAULT_ROWS);
  const csv = process.argv[3] ?? join('/tmp', 'mlsvc-bench', `builder-${rows}.csv`);
  mkdirSync(join(csv, '..'), { recursive: true });
  const machine = machineInfo();
  const bytes = await ensureMessyCsv(csv, rows);
  console.log(`csv: ${csv} (${rows} rows, ${(bytes / 1e9).toFixed(2)} GB)`);

  const work = mkdtempSync(join(os.tmpdir(), 'bench-builder-api-'));
  const stack = await startServiceStack(work, {
    MAX_DATASET_UPLOAD_BYTES: String(64 * 1024 ** 3),
    RATE_LIMIT_GENERAL: '100000',
    RATE_LIMIT_AUTH: '100000',
  });
  // Ctrl-C or a timeout's SIGTERM still stops the stack and drops its database.
  const interrupted = (): void => void stack.stop().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const sampler = new RssSampler({ api: stack.apiPid, worker: stack.workerPid });
  const timings: StageTiming[] = [];
  const stage = async <T>(name: string, fn: () => Promise<T>, detail?: (r: T) => Record<string, unknown>): Promise<T> => {
    console.log(`${name} ...`);
    sampler.stage(name);
    const t0 = performance.now();
    const r = await fn();
    const seconds = (performance.now() - t0) / 1000;
    timings.push({ stage: name, seconds, detail: detail?.(r) });
    console.log(`${name}: ${seconds.toFixed(1)} s`);
    return r;
  };
  try {
    const s = await signUp(stack.baseUrl, stack.databaseUrl);
    const project = await postJson<{ id: string }>(s, '/api/projects', { name: 'Builder bench' });
    await stage('idle', () => new Promise((r) => setTimeout(r, 2000)));

    const up = await stage(
      'upload',
      async () => {
        const res = await uploadMultipart(s, '/api/datasets/upload', { project_id: project.id, name: 'messy' }, csv);
        if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.body.slice(0, 500)}`);
        return JSON.parse(res.body) as { dataset_id: string; dataset_version_id: string };
      },
      (r) => ({ dataset_version_id: r.dataset_version_id }),
    );
    const session = await stage('create session', () => expectStatus(s, 'POST', '/api/builder/sessions', 201, { project_id: project.id, dataset_id: up.dataset_id, name: 'bench' }));
    const sid = String((session.session as Record<string, unknown>).id);

    for (const [step, operations] of Object.entries(RECIPE_STEPS)) {
      await stage(`PATCH ${step}`, () => expectStatus(s, 'PATCH', `/api/builder/sessions/${sid}/steps/${step}`, 200, { operations }));
      await stage(
        `execute ${step}`,
        async () => {
          const { job_id } = await expectStatus(s, 'POST', `/api/builder/sessions/${sid}/steps/${step}/execute`, 202);
          return waitForJob(s, String(job_id), step);
        },
        jobTimes,
      );
    }
    const finalized = await stage(
      'finalize',
      async () => {
        const { job_id } = await expectStatus(s, 'POST', `/api/builder/sessions/${sid}/finalize`, 202, { mode: 'new_version', description: 'builder bench' });
        const job = await waitForJob(s, String(job_id), 'finalize');
        return { job, session: (await expectStatus(s, 'GET', `/api/builder/sessions/${sid}`, 200)).session as Record<string, unknown> };
      },
      (r) => ({ ...jobTimes(r.job), result_version_id: r.session.result_version_id }),
    );
    const v2 = await stage(
      'upload second version',
      async () => {
        const res = await uploadMultipart(s, `/api/datasets/${up.dataset_id}/versions`, { description: 'second version' }, csv);
        if (res.status !== 201) throw new Error(`new version: ${res.status} ${res.body.slice(0, 500)}`);
        return JSON.parse(res.body) as { dataset_version_id: string; version: number; row_count: number };
      },
      (r) => ({ version: r.version, row_count: r.row_count }),
    );
    const replay = await stage(
      'replay',
      async () => {
        const { job_id } = await expectStatus(s, 'POST', `/api/builder/sessions/${sid}/replay`, 202, { dataset_version_id: v2.dataset_version_id });
        return waitForJob(s, String(job_id), 'replay');
      },
      jobTimes,
    );
    const peaks = sampler.stop();

    const versionOf = async (id: unknown): Promise<Record<string, unknown>> => expectStatus(s, 'GET', `/api/dataset-versions/${String(id)}`, 200);
    const finalVersion = await versionOf(finalized.session.result_version_id);
    const replayResult = (replay.result ?? {}) as Record<string, unknown>;
    // The replay job's result names the version it made.
    const replayVersion = replayResult.dataset_version_id ? await versionOf(replayResult.dataset_version_id) : null;

    // Every job of the project (the profile each new version gets runs on the same worker), with the worker's and the
    // API's highest sampled RSS while it ran: a stage's peak may be another job's.
    const listed = await expectStatus(s, 'GET', `/api/jobs?project_id=${project.id}&limit=100`, 200).catch((err: unknown) => {
      console.error(`the job list failed (${String(err)}): no per-job peaks`);
      return { items: [] };
    });
    const jobs = ((listed.items ?? []) as Record<string, unknown>[])
      .map((j) => {
        const from = Date.parse(String(j.started_at));
        const to = Date.parse(String(j.finished_at ?? new Date().toISOString()));
        return {
          kind: j.kind,
          status: j.status,
          created_at: j.created_at,
          ran_s: round1((to - from) / 1000),
          worker_peak_rss_mb: round1(sampler.peakBetween('worker', from, to) ?? NaN),
          api_peak_rss_mb: round1(sampler.peakBetween('api', from, to) ?? NaN),
          result: j.result,
        };
      })
      .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
    const byProcess = (name: 'api' | 'worker'): number => Math.max(...Object.values(peaks).map((p) => Math.max(p[name]?.sampled_peak_mb ?? 0, p[name]?.hwm_mb ?? 0)));
    const result = {
      what: 'builder through the service (npm start stack): upload → session → PATCH + execute per step → finalize → second version → replay',
      machine,
      loadavg_at_end: os.loadavg().map((x) => Math.round(x * 100) / 100),
      csv: { path: csv, rows, bytes },
      recipe: RECIPE_STEPS,
      stages: timings.map((t) => ({ ...t, seconds: round1(t.seconds), rss_mb: peaks[t.stage] })),
      api_peak_rss_mb: round1(byProcess('api')),
      worker_peak_rss_mb: round1(byProcess('worker')),
      finalized_version: { row_count: finalVersion.row_count, column_count: finalVersion.column_count, columns: finalVersion.columns },
      jobs,
      replayed_version: replayVersion ? { row_count: replayVersion.row_count, column_count: replayVersion.column_count } : replayResult,
      at: new Date().toISOString(),
    };
    console.log('');
    for (const t of result.stages) {
      const r = t.rss_mb as Record<string, { sampled_peak_mb: number; hwm_mb: number | null }> | undefined;
      const fmt = (p?: { sampled_peak_mb: number; hwm_mb: number | null }): string => (p ? `${p.sampled_peak_mb.toFixed(0)}/${p.hwm_mb?.toFixed(0) ?? '-'} MB` : '-');
      console.log(`${t.stage.padEnd(24)} ${t.seconds.toFixed(1).padStart(7)} s   API ${fmt(r?.api).padEnd(14)} worker ${fmt(r?.worker)}  (sampled peak/VmHWM)`);
    }
    for (const j of jobs) console.log(`job ${String(j.kind).padEnd(16)} ran ${j.ran_s.toFixed(1).padStart(7)} s   worker peak ${j.worker_peak_rss_mb} MB, API ${j.api_peak_rss_mb} MB`);
    console.log(`API peak RSS ${result.api_peak_rss_mb} MB, worker peak RSS ${result.worker_peak_rss_mb} MB`);
    console.log(`finalized version: ${String(finalVersion.row_count)} rows x ${String(finalVersion.column_count)} columns; replayed: ${JSON.stringify(result.replayed_version)}`);
    const outDir = join(repoRoot, 'bench', 'results', 'builder');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'api.json'), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    sampler.stop();
    await stack.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

/**
 * Benchmark (not a test): single-row HTTP predictions of a trained GBM, from a separate load
 * process, at increasing concurrency and at a fixed 500 requests/second, side by side with
 * MLflow's scoring server serving an equivalent LightGBM model in the same run.
 *
 *   pip install mlflow lightgbm pandas
 *   npm run build && node dist/bench/predict/run.js [seconds=10] [--service-only]
 *
 * The load process is bench/predict/loadgen (Go, built here with `go build`).
 *
 * The service runs on the real stack the tests use (PostgreSQL, Temporal dev server, a
 * worker), authenticated with an API key; rate limits are raised by configuration.
 */
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import globalSetup from '../../test/support/global-setup';
import globalTeardown from '../../test/support/global-teardown';
import { createProject, eventually, signUp } from '../../test/support/client';
import { datasetFile, datasetPath } from '../../test/support/datasets';
import { spawnWorkerProcess, startStack } from '../../test/support/stack';
import { freePort } from '../../platform/temporal-dev';

const execFileAsync = promisify(execFile);

const ROW = { pclass: 3, sex: 'male', age: 22, sibsp: 1, parch: 0, fare: 7.25, embarked: 'S', class: 'Third', who: 'man', adult_male: true, deck: null, embark_town: 'Southampton', alone: false };

interface LoadResult {
  mode: string;
  level: number;
  requests: number;
  errors: number;
  rps: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  p999_ms: number;
  max_ms: number;
}

/** Open-loop rates; 500/s is the target's. */
const OPEN_RATES = (process.env.BENCH_OPEN_RATES ?? '500').split(',').map(Number);

const LOADGEN_SRC = path.join(__dirname, '..', '..', '..', 'bench', 'predict', 'loadgen');
const LOADGEN_BIN = path.join(os.tmpdir(), 'mlsvc-bench-loadgen');

/** The load process is a small Go program: a Node client would take as much CPU as the server. */
async function buildLoadgen(): Promise<void> {
  await execFileAsync('go', ['build', '-o', LOADGEN_BIN, '.'], { cwd: LOADGEN_SRC });
}

/** Runs the load process without blocking this process (the API under test lives here). */
async function load(url: string, body: unknown, headers: Record<string, string>, mode: 'closed' | 'open', level: number, seconds: number): Promise<LoadResult> {
  const { stdout, stderr } = await execFileAsync(LOADGEN_BIN, [url, JSON.stringify(body), JSON.stringify(headers), mode, String(level), String(seconds)], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (stderr) process.stderr.write(`--- ${mode} ${level}\n${stderr}`); // LOADGEN_SLOW_LOG=1: each request over 10 ms, with its start time
  return JSON.parse(stdout.trim().split('\n').pop() as string) as LoadResult;
}

async function runLevels(label: string, url: string, body: unknown, headers: Record<string, string>, seconds: number): Promise<LoadResult[]> {
  const results: LoadResult[] = [];
  await load(url, body, headers, 'closed', 4, 2); // warm-up: sessions loaded, JIT warm
  for (const c of [1, 4, 16, 64]) results.push(await load(url, body, headers, 'closed', c, seconds));
  for (const rps of OPEN_RATES) results.push(await load(url, body, headers, 'open', rps, seconds));
  for (const r of results)
    console.log(
      `${label.padEnd(8)} ${r.mode.padEnd(6)} ${String(r.level).padStart(4)}  ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50_ms.toFixed(2)}  p90 ${r.p90_ms.toFixed(2)}  p99 ${r.p99_ms.toFixed(2)}  p99.9 ${r.p999_ms.toFixed(2)}  max ${r.max_ms.toFixed(2)} ms  errors ${r.errors}`,
    );
  return results;
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 10);
  const withMlflow = !process.argv.includes('--service-only');
  await buildLoadgen();
  await globalSetup();
  // The API alone in this process and the workers in their own, as `npm start` runs them.
  const stack = await startStack({ workers: [], env: { RATE_LIMIT_PREDICT: '1000000000', RATE_LIMIT_GENERAL: '1000000000', RATE_LIMIT_TRAIN: '1000' } });
  const worker = spawnWorkerProcess(stack, ['io', 'cpu']);
  let mlflow: ChildProcess | undefined;
  try {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'bench');
    const up = await client.upload('/api/datasets/upload', { project_id: projectId, name: 'titanic' }, datasetFile('titanic.csv'));
    const exp = await client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: up.body.dataset_version_id,
      name: 'gbm',
      target_column: 'survived',
      problem_type: 'classification',
      config: { max_models: 1, nfolds: 2, exclude_algos: ['XGBoost', 'DRF', 'GLM', 'DeepLearning', 'StackedEnsemble'] },
    });
    await eventually(async () => ((await client.get(`/api/experiments/${exp.body.id}/status`)).body.status === 'succeeded' ? true : undefined), 300_000, 500);
    const modelId = (await client.get(`/api/experiments/${exp.body.id}`)).body.best_model_id as string;
    const key = (await client.post('/api/auth/api-keys', { name: 'bench', scopes: ['predict:models'] })).body.api_key as string;
    const ours = await runLevels('service', `${stack.baseUrl}/api/models/${modelId}/predict`, { inputs: ROW }, { authorization: `Bearer ${key}` }, seconds);

    if (!withMlflow) return;
    const port = await freePort();
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mlflow-bench-'));
    mlflow = spawn('python3', [path.join(__dirname, '..', '..', '..', 'bench', 'predict', 'mlflow_serve.py'), datasetPath('titanic.csv'), String(port), work], {
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    await new Promise<void>((resolve, reject) => {
      mlflow!.stdout!.on('data', (d: Buffer) => d.toString().includes('READY') && resolve());
      mlflow!.once('exit', (code) => reject(new Error(`mlflow exited (${code})`)));
    });
    const theirs = await runLevels(
      'mlflow',
      `http://127.0.0.1:${port}/invocations`,
      { dataframe_records: [Object.fromEntries(Object.entries(ROW).map(([k, v]) => [k, typeof v === 'boolean' || v === null ? String(v === null ? 'nan' : v) : v]))] },
      {},
      seconds,
    );

    const best = (rs: LoadResult[]) => Math.max(...rs.filter((r) => r.mode === 'closed').map((r) => r.rps));
    const open = ours.find((r) => r.mode === 'open' && r.level === 500) ?? ours.find((r) => r.mode === 'open')!;
    console.log(
      `\nservice: p99 ${open.p99_ms.toFixed(2)} ms at ${open.rps.toFixed(0)} req/s (target < 5 ms at 500); peak throughput ${best(ours).toFixed(0)} vs MLflow ${best(theirs).toFixed(0)} req/s: ratio ${(best(ours) / best(theirs)).toFixed(1)}x (target >= 10x)`,
    );
    fs.mkdirSync(path.join(__dirname, '..', '..', '..', 'bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join(__dirname, '..', '..', '..', 'bench', 'results', 'predict.json'), JSON.stringify({ seconds, service: ours, mlflow: theirs }, null, 2));
  } finally {
    if (mlflow?.pid) {
      try {
        process.kill(-mlflow.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
    }
    worker.kill('SIGTERM');
    await stack.stop();
    await globalTeardown();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

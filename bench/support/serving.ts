/**
 * What the serving benchmarks (bench/predict, bench/serve) share: the Go load process, the
 * service's stack with its rate limits raised and a GBM trained on titanic, and MLflow's scoring
 * server on an equivalent LightGBM model.
 */
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import globalSetup from '../../test/support/global-setup';
import globalTeardown from '../../test/support/global-teardown';
import { ApiClient, createProject, eventually, signUp } from '../../test/support/client';
import { datasetFile, datasetPath } from '../../test/support/datasets';
import { spawnWorkerProcess, startStack, TestStack } from '../../test/support/stack';
import { freePort } from '../../platform/temporal-dev';

const execFileAsync = promisify(execFile);

/** The repository root (this file runs from dist/bench/support). */
export const REPO_ROOT = path.join(__dirname, '..', '..', '..');

/** One titanic passenger, as the service's model takes it. */
export const TITANIC_ROW = {
  pclass: 3,
  sex: 'male',
  age: 22,
  sibsp: 1,
  parch: 0,
  fare: 7.25,
  embarked: 'S',
  class: 'Third',
  who: 'man',
  adult_male: true,
  deck: null,
  embark_town: 'Southampton',
  alone: false,
};

export interface LoadResult {
  mode: string;
  level: number;
  /** Measured requests (the first second of a level is not measured) and how many failed. */
  requests: number;
  errors: number;
  rps: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  p999_ms: number;
  max_ms: number;
  /** Every request sent, warm-up included, and how many of them failed. */
  sent: number;
  sent_errors: number;
  /** The machine's 1-minute load average when the level ended. */
  loadavg1: number;
  /** CPU time of this process during the level (the API's, when it is the target), µs. */
  cpu_user_us: number;
  cpu_system_us: number;
}

export interface Target {
  label: string;
  url: string;
  /** Default POST; a GET sends no body. */
  method?: 'GET' | 'POST';
  body: unknown;
  headers: Record<string, string>;
}

/** What a target answered at every level, and every request it was sent (warm-ups included). */
export interface LevelsRun {
  levels: LoadResult[];
  sent: number;
  sentErrors: number;
}

/** Open-loop rates; 500/s is the targets'. */
export const OPEN_RATES = (process.env.BENCH_OPEN_RATES ?? '500').split(',').map(Number);
const CLOSED_LEVELS = [1, 4, 16, 64];

const LOADGEN_SRC = path.join(REPO_ROOT, 'bench', 'predict', 'loadgen');
const LOADGEN_BIN = path.join(os.tmpdir(), 'mlsvc-bench-loadgen');

/** The load process is a small Go program: a Node client would take as much CPU as the server. */
export async function buildLoadgen(): Promise<void> {
  await execFileAsync('go', ['build', '-o', LOADGEN_BIN, '.'], { cwd: LOADGEN_SRC });
}

/** Runs the load process without blocking this process (the API under test may live here). */
async function load(t: Target, mode: 'closed' | 'open', level: number, seconds: number): Promise<LoadResult> {
  const cpu0 = process.cpuUsage();
  const { stdout, stderr } = await execFileAsync(LOADGEN_BIN, [t.url, JSON.stringify(t.body), JSON.stringify(t.headers), mode, String(level), String(seconds)], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    env: { ...process.env, LOADGEN_METHOD: t.method ?? 'POST' },
  });
  const cpu = process.cpuUsage(cpu0);
  if (stderr) process.stderr.write(`--- ${t.label} ${mode} ${level}\n${stderr}`); // LOADGEN_SLOW_LOG=1: each request over 10 ms, with its start time
  const r = JSON.parse(stdout.trim().split('\n').pop() as string) as Omit<LoadResult, 'loadavg1' | 'cpu_user_us' | 'cpu_system_us'>;
  return { ...r, loadavg1: os.loadavg()[0], cpu_user_us: cpu.user, cpu_system_us: cpu.system };
}

export function formatLevel(label: string, r: LoadResult): string {
  return `${label.padEnd(8)} ${r.mode.padEnd(6)} ${String(r.level).padStart(4)}  ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50_ms.toFixed(2)}  p90 ${r.p90_ms.toFixed(2)}  p99 ${r.p99_ms.toFixed(2)}  p99.9 ${r.p999_ms.toFixed(2)}  max ${r.max_ms.toFixed(2)} ms  errors ${r.errors}  load ${r.loadavg1.toFixed(2)}`;
}

/**
 * A 2 s warm-up of each target (sessions loaded, JIT warm), then closed loops at 1/4/16/64 in
 * flight and the open-loop rates. With several targets, each level is run for every target in
 * turn, so that their figures for a level are taken minutes apart at most: the machine is shared,
 * and a neighbour's busy spell then costs every target alike rather than the one running.
 */
export async function runLevels(targets: Target[], seconds: number, closedLevels = CLOSED_LEVELS, openRates = OPEN_RATES): Promise<LevelsRun[]> {
  const warm: LoadResult[] = [];
  for (const t of targets) warm.push(await load(t, 'closed', 4, 2));
  const levels: LoadResult[][] = targets.map(() => []);
  const plan: ['closed' | 'open', number][] = [...closedLevels.map((c): ['closed', number] => ['closed', c]), ...openRates.map((r): ['open', number] => ['open', r])];
  for (const [mode, level] of plan)
    for (const [i, t] of targets.entries()) {
      const r = await load(t, mode, level, seconds);
      console.log(formatLevel(t.label, r));
      levels[i].push(r);
    }
  return targets.map((_, i) => {
    const all = [warm[i], ...levels[i]];
    return { levels: levels[i], sent: all.reduce((n, r) => n + r.sent, 0), sentErrors: all.reduce((n, r) => n + r.sent_errors, 0) };
  });
}

/** The best closed-loop throughput. */
export function peakRps(rs: LoadResult[]): number {
  return Math.max(...rs.filter((r) => r.mode === 'closed').map((r) => r.rps));
}

/** The open-loop level at 500/s (else the first open-loop one). */
export function openLevel(rs: LoadResult[]): LoadResult {
  return rs.find((r) => r.mode === 'open' && r.level === 500) ?? (rs.find((r) => r.mode === 'open') as LoadResult);
}

export function writeResults(name: string, data: unknown): void {
  const dir = path.join(REPO_ROOT, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ at: new Date().toISOString(), loadavg: os.loadavg(), ...(data as object) }, null, 2));
}

export interface ServiceBench {
  stack: TestStack;
  client: ApiClient;
  projectId: string;
  /** The best GBM of a one-model experiment on titanic. */
  modelId: string;
  stop(): Promise<void>;
}

/**
 * The service on the real stack the tests use (PostgreSQL, the Temporal dev server): the API in
 * this process and the workers in their own, as `npm start` runs them, rate limits raised by
 * configuration. A user, a project and a GBM trained on titanic.
 */
export async function startServiceBench(): Promise<ServiceBench> {
  await globalSetup();
  const stack = await startStack({ workers: [], env: { RATE_LIMIT_PREDICT: '1000000000', RATE_LIMIT_GENERAL: '1000000000', RATE_LIMIT_TRAIN: '1000' } });
  const worker = spawnWorkerProcess(stack, ['io', 'cpu']);
  const stop = async () => {
    worker.kill('SIGTERM');
    await stack.stop();
    await globalTeardown();
  };
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
    return { stack, client, projectId, modelId, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * The Python that runs MLflow: BENCH_PYTHON, else the benchmarks' venv
 * (~/.cache/mlsvc/venv-bench: `pip install mlflow lightgbm scikit-learn pandas`) when it exists,
 * else python3 from PATH.
 */
function benchPython(): string {
  const venv = path.join(os.homedir(), '.cache', 'mlsvc', 'venv-bench', 'bin', 'python3');
  return process.env.BENCH_PYTHON ?? (fs.existsSync(venv) ? venv : 'python3');
}

/** A process started in its own group, stopped with its children. */
export function killGroup(p: ChildProcess | undefined): void {
  if (!p?.pid) return;
  try {
    process.kill(-p.pid, 'SIGTERM');
  } catch {
    /* gone */
  }
}

/** Resolves when the process prints `READY`, rejects if it exits first. */
export function whenReady(p: ChildProcess, name: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    p.stdout!.on('data', (d: Buffer) => d.toString().includes('READY') && resolve());
    p.once('exit', (code) => reject(new Error(`${name} exited (${code})`)));
  });
}

/**
 * MLflow's scoring server (`mlflow models serve --env-manager local -w 2`) on a LightGBM
 * classifier trained on titanic (bench/predict/mlflow_serve.py), as a target for the titanic row.
 */
export async function startMlflow(): Promise<{ target: Target; stop(): void }> {
  const port = await freePort();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mlflow-bench-'));
  const python = benchPython();
  // `mlflow` and the `uvicorn` it starts are found next to the interpreter.
  const env = { ...process.env, PATH: `${path.dirname(python)}${path.delimiter}${process.env.PATH ?? ''}` };
  const p = spawn(python, [path.join(REPO_ROOT, 'bench', 'predict', 'mlflow_serve.py'), datasetPath('titanic.csv'), String(port), work], { stdio: ['ignore', 'pipe', 'inherit'], detached: true, env });
  const stop = () => {
    killGroup(p);
    fs.rmSync(work, { recursive: true, force: true });
  };
  try {
    await whenReady(p, 'mlflow');
  } catch (err) {
    stop();
    throw err;
  }
  // MLflow takes text for the boolean columns and "nan" for a missing value, as it was trained.
  const record = Object.fromEntries(Object.entries(TITANIC_ROW).map(([k, v]) => [k, typeof v === 'boolean' || v === null ? String(v === null ? 'nan' : v) : v]));
  return { target: { label: 'mlflow', url: `http://127.0.0.1:${port}/invocations`, body: { dataframe_records: [record] }, headers: {} }, stop };
}

import { ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { MinioServer, startMinio } from '../platform/minio';
import { freePort } from '../platform/temporal-dev';
import { createProject, eventually, signUp } from './support/client';
import { datasetFile } from './support/datasets';
import { startStack, TestStack } from './support/stack';
import { readZip } from './support/zip';

/**
 * The deployment of the README's "Scaling" section on one host: the API and the workers as two processes with their
 * own DATA_DIRs (as on two machines), sharing only PostgreSQL, Temporal and an S3 store (a MinIO server this file
 * starts). A dataset uploaded to the API is trained on by the worker, the model the worker stored is served by the
 * API, and the project archive the worker writes is downloaded from the API.
 */
let stack: TestStack;
let minio: MinioServer;
let s3: S3Client;
let apiDir: string;
let workerDir: string;
const children: ChildProcess[] = [];
let apiUrl: string;
let owner: Awaited<ReturnType<typeof signUp>>;

/** A service process as an operator starts it: its own DATA_DIR, the S3 store, the stack's database and Temporal. */
function startProcess(script: string, args: string[], dataDir: string, env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, [path.join(__dirname, '..', script), ...args], {
    env: { ...process.env, ...stack.workerEnv, ...minio.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(kill);
}

/** Keys in the bucket under `prefix`. */
async function objects(prefix: string): Promise<string[]> {
  const r = await s3.send(new ListObjectsV2Command({ Bucket: minio.bucket, Prefix: prefix }));
  return (r.Contents ?? []).map((o) => o.Key ?? '');
}

/** Files under `dir`, relative. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .map((f) => f.split(path.sep).join('/'));
}

beforeAll(async () => {
  minio = await startMinio({ bucket: 'two-machines' });
  s3 = new S3Client({ region: 'us-east-1', endpoint: minio.endpoint, forcePathStyle: true, credentials: { accessKeyId: minio.accessKeyId, secretAccessKey: minio.secretAccessKey } });
  // The stack gives the database, the Temporal task queues and the SMTP sink; its own API and workers stay unused.
  stack = await startStack({ workers: [] });
  apiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlsvc-machine-api-'));
  workerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlsvc-machine-worker-'));
  const port = await freePort();
  startProcess('scripts/start.js', [], apiDir, { PORT: String(port), HOST: '127.0.0.1', START_WORKERS: 'none' });
  startProcess('workers/run-workers.js', ['io', 'cpu'], workerDir);
  apiUrl = `http://127.0.0.1:${port}`;
  await eventually(async () => (await fetch(`${apiUrl}/healthz`).catch(() => undefined))?.status === 200, 60_000, 200);
  owner = await signUp(apiUrl, stack.mail);
}, 600_000);

afterAll(async () => {
  await Promise.all(children.map(stopProcess));
  s3?.destroy();
  await stack?.stop();
  await minio?.stop();
  for (const d of [apiDir, workerDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

describe('the API and the workers on two "machines" sharing an S3 artifact store', () => {
  it('uploads, trains, predicts, exports and downloads across the two processes', async () => {
    const projectId = await createProject(owner.client, 'Two machines');

    // Upload to the API: the Parquet goes to the bucket; the API keeps a local copy only in its cache.
    const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'titanic' }, datasetFile('titanic.csv'));
    expect(up.status).toBe(201);
    expect(await objects(`${projectId}/`)).toEqual([expect.stringMatching(/\.parquet$/)]);
    const datasetKey = (await objects(`${projectId}/`))[0];
    expect(fs.existsSync(path.join(apiDir, 'artifacts'))).toBe(false);

    // Train on the worker: it reads the dataset from the bucket (into its own cache) and stores the model there.
    const exp = await owner.client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: up.body.dataset_version_id,
      name: 'across',
      target_column: 'survived',
      problem_type: 'binary',
      config: { max_models: 1, nfolds: 2, seed: 1, exclude_algos: ['XGBoost', 'DRF', 'DeepLearning', 'StackedEnsemble', 'GBM'] },
    });
    expect(exp.status).toBe(201);
    const done = await eventually(
      async () => {
        const s = await owner.client.get(`/api/experiments/${exp.body.id}/status`);
        return ['succeeded', 'failed', 'canceled'].includes(s.body.status) ? s.body : undefined;
      },
      120_000,
      500,
    );
    expect(done.status).toBe('succeeded');
    expect(filesUnder(path.join(workerDir, 'cache', 'artifacts', 'objects'))).toContain(datasetKey);
    const [model] = (await owner.client.get(`/api/experiments/${exp.body.id}`)).body.models as { id: string; algo: string }[];
    expect(model.algo).toBe('GLM');
    const modelObjects = (await objects(`${projectId}/`)).filter((k) => k !== datasetKey);
    expect(modelObjects.map((k) => k.replace(/^.*\//, '')).sort()).toEqual(['GLM_1.holdout.bin', 'GLM_1.model.json', 'GLM_1.onnx'].sort());

    // Predict on the API with the model the worker trained.
    const row = {
      pclass: 1,
      sex: 'female',
      age: 30,
      sibsp: 0,
      parch: 0,
      fare: 80,
      embarked: 'C',
      class: 'First',
      who: 'woman',
      adult_male: false,
      deck: 'C',
      embark_town: 'Cherbourg',
      alive: 'yes',
      alone: true,
    };
    const p = await owner.client.post(`/api/models/${model.id}/predict`, { inputs: [row, { ...row, sex: 'male', who: 'man', adult_male: true, alive: 'no', pclass: 3, class: 'Third' }] });
    expect(p.status).toBe(200);
    // The API loaded the ONNX graph the worker stored: it was in no local folder of the API's.
    expect(p.headers.get('x-service-model-cache')).toBe('miss');
    expect(p.body.predictions.map((x: { prediction: string }) => x.prediction)).toEqual(['1', '0']);

    // Export on the worker, download from the API: every artifact arrives with the bytes the manifest names.
    const job = await owner.client.post(`/api/projects/${projectId}/export/jobs`);
    expect(job.status).toBe(201);
    const exported = await eventually(
      async () => {
        const j = (await owner.client.get(`/api/jobs/${job.body.id}`)).body.job;
        return ['succeeded', 'failed', 'canceled'].includes(j.status) ? j : undefined;
      },
      60_000,
      250,
    );
    expect(exported).toMatchObject({ status: 'succeeded', result: { files: 4 } });
    const zip = await owner.client.get(`/api/artifacts/${exported.result.artifact_id}/download`);
    expect(zip.status).toBe(200);
    expect(zip.raw!.length).toBe(exported.result.size_bytes);
    const entries = readZip(zip.raw!);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
    expect(manifest.artifacts).toHaveLength(4);
    for (const a of manifest.artifacts as { path: string; sha256: string; size_bytes: number }[]) {
      const bytes = entries.get(a.path)!;
      expect(bytes.length).toBe(a.size_bytes);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(a.sha256);
    }
    // The archive itself went to the bucket; neither process keeps artifacts outside its cache.
    expect((await objects(`${projectId}/`)).some((k) => k.endsWith('-export.zip'))).toBe(true);
    expect(fs.existsSync(path.join(workerDir, 'artifacts'))).toBe(false);
    expect(fs.existsSync(path.join(apiDir, 'artifacts'))).toBe(false);

    // A text preview on the API: a ranged read of the model JSON the worker stored.
    const json = (manifest.artifacts as { id: string; path: string; content_type: string }[]).find((a) => a.content_type === 'application/json')!;
    const preview = await owner.client.get(`/api/artifacts/${json.id}/preview`);
    expect(preview.status).toBe(200);
    const whole = entries.get(json.path)!;
    expect(preview.body.text).toBe(whole.subarray(0, 64 * 1024).toString('utf8'));
    expect(preview.body.truncated).toBe(whole.length > 64 * 1024);
  }, 180_000);
});

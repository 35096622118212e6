import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { cacheDir, freePort } from './temporal-dev';

/**
 * The pinned MinIO server (tests' S3). MinIO tags its releases `RELEASE.<date>`, which Go modules do not read as
 * versions, so the pin is the module proxy's pseudo-version of a master commit (2026-02-12).
 */
export const MINIO_MODULE = 'github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c';

type Say = (msg: string) => void;

/**
 * Finds the `minio` server: MINIO_PATH, the cache (~/.cache/mlsvc/bin, beside the Temporal CLI); else builds it once
 * with `go install` into the cache. The build takes minutes and about 1.5 GB of Go module and build caches.
 */
export function ensureMinio(say: Say = (m) => console.log(`[minio] ${m}`)): string {
  const explicit = process.env.MINIO_PATH;
  if (explicit && fs.existsSync(explicit)) return explicit;
  const binDir = path.join(cacheDir(), 'bin');
  const cached = path.join(binDir, 'minio');
  if (fs.existsSync(cached)) return cached;
  fs.mkdirSync(binDir, { recursive: true });
  say(`building MinIO with Go (${MINIO_MODULE}); this takes several minutes once, then it is cached in ${binDir}`);
  const r = spawnSync('go', ['install', MINIO_MODULE], {
    stdio: 'inherit',
    env: { ...process.env, GOBIN: binDir, GOFLAGS: process.env.GOFLAGS ?? '-trimpath', CGO_ENABLED: '0' },
    cwd: os.tmpdir(),
  });
  if (r.error) throw new Error(`No MinIO: could not run Go (${r.error.message}); install Go >= 1.24 or set MINIO_PATH`);
  if (r.status !== 0 || !fs.existsSync(cached)) throw new Error(`No MinIO: \`go install ${MINIO_MODULE}\` failed (exit ${r.status}); set MINIO_PATH to a minio binary`);
  return cached;
}

export interface MinioServer {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The environment a process needs to use this server as its artifact store. */
  env: Record<string, string>;
  process: ChildProcess;
  /** Stops the server and deletes its data folder. */
  stop(): Promise<void>;
}

/**
 * A throwaway MinIO on a free port with its data in a fresh temporary folder and one empty bucket; resolves once the
 * bucket exists. Random root credentials, so nothing else on the machine can use it by accident.
 */
export async function startMinio(opts: { bucket?: string; log?: Say } = {}): Promise<MinioServer> {
  const bin = ensureMinio(opts.log);
  const port = await freePort();
  const consolePort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlsvc-minio-'));
  const accessKeyId = `mlsvc${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(18).toString('hex');
  const child = spawn(bin, ['server', dataDir, '--quiet', '--address', `127.0.0.1:${port}`, '--console-address', `127.0.0.1:${consolePort}`], {
    env: { ...process.env, MINIO_ROOT_USER: accessKeyId, MINIO_ROOT_PASSWORD: secretAccessKey, MINIO_BROWSER: 'off', MINIO_UPDATE: 'off' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 60_000;
    while (
      !(await fetch(`${endpoint}/minio/health/live`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (child.exitCode !== null) throw new Error(`minio exited (${child.exitCode}): ${stderr}`);
      if (Date.now() > deadline) throw new Error(`minio did not answer on ${endpoint}: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const bucket = opts.bucket ?? 'mlsvc-test';
    const s3 = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey } });
    try {
      await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    } finally {
      s3.destroy();
    }
    const env = {
      ARTIFACT_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: secretAccessKey,
    };
    return { endpoint, bucket, accessKeyId, secretAccessKey, env, process: child, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

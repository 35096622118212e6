import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import path from 'node:path';
import { MinioServer, startMinio } from '../platform/minio';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { readZip } from './support/zip';

/**
 * What keeps the artifact store and the artifact rows in step: a project export that meets an artifact replaced or
 * removed while it streams (a synthgen checkpoint replaced every few seconds) still completes with a consistent
 * archive, on both stores; and the periodic sweep removes stored files no row references once they are older than
 * its grace period, and nothing else.
 */
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Stores `bytes` and writes its artifact row (as a job does), returning the row's id and the storage key. */
async function plant(stack: TestStack, projectId: string, filename: string, bytes: Buffer): Promise<{ id: string; storageKey: string }> {
  const obj = await stack.store.put(projectId, filename, bytes);
  const [row]: { id: string }[] = await stack.ds.query(
    `INSERT INTO artifacts (id, project_id, kind, filename, content_type, size_bytes, sha256, storage_key)
     VALUES (gen_random_uuid(), $1, 'note', $2, 'application/octet-stream', $3, $4, $5) RETURNING id`,
    [projectId, filename, obj.sizeBytes, obj.sha256, obj.storageKey],
  );
  return { id: row.id, storageKey: obj.storageKey };
}

/** GET with the client's session, handing back the response unread (to read its body at the test's pace). */
function openGet(client: ApiClient, urlPath: string): Promise<Response> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return fetch(client.baseUrl + urlPath, { headers: { cookie } });
}

/**
 * An S3 endpoint in front of MinIO that can hold one GET until the test releases it: the moment between the export's
 * check of an object and its read, made as long as the test needs. Requests pass unchanged (their signatures name
 * this host, which MinIO checks against the Host header, passed on as it came).
 */
async function holdingProxy(target: string) {
  let hold: { pattern: RegExp; caught: () => void; released: Promise<void> } | null = null;
  const server = http.createServer((req, res) => {
    const forward = () => {
      const up = http.request(target + req.url, { method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', (e) => res.destroy(e));
      req.pipe(up);
    };
    const h = hold;
    if (req.method === 'GET' && h && h.pattern.test(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname))) {
      hold = null;
      h.caught();
      void h.released.then(forward);
    } else forward();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Holds the next GET whose path matches until `release`; `caught` resolves when it arrives. */
    holdNextGet(pattern: RegExp) {
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      const caught = new Promise<void>((r) => (hold = { pattern, caught: r, released }));
      return { caught, release };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function readAll(res: Response): Promise<Buffer> {
  return Buffer.from(await res.arrayBuffer());
}

describe.each(['local', 's3'] as const)('a project export on the %s store', (kind) => {
  let stack: TestStack;
  let minio: MinioServer | undefined;
  let proxy: Awaited<ReturnType<typeof holdingProxy>> | undefined;
  beforeAll(async () => {
    if (kind === 's3') {
      minio = await startMinio({ bucket: 'export-race' });
      proxy = await holdingProxy(minio.endpoint);
      // The in-process store takes its credentials from the SDK's default chain, as a deployed process does.
      process.env.AWS_ACCESS_KEY_ID = minio.accessKeyId;
      process.env.AWS_SECRET_ACCESS_KEY = minio.secretAccessKey;
    }
    stack = await startStack({ workers: [], env: minio ? { ...minio.env, S3_ENDPOINT: proxy!.endpoint } : {} });
  }, 600_000);
  afterAll(async () => {
    await stack?.stop();
    await proxy?.close();
    await minio?.stop();
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
  });

  it('completes with a consistent archive when an artifact is replaced between its check and its read', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Racing export');
    const big = randomBytes(kind === 'local' ? 32 * 1024 * 1024 : 1024 * 1024);
    await plant(stack, projectId, 'big.bin', big);
    const old = await plant(stack, projectId, 'model-checkpoint-epoch-1.bin', randomBytes(100_000));
    // The replacement, as `saveCheckpoint` makes it: the new row, the old row deleted, then the old file removed.
    const replace = async () => {
      await plant(stack, projectId, 'model-checkpoint-epoch-2.bin', randomBytes(100_000));
      await stack.ds.query('DELETE FROM artifacts WHERE id = $1', [old.id]);
      await stack.store.remove(old.storageKey);
    };

    let body: Buffer;
    if (proxy) {
      // S3: the old checkpoint's GET is held until it has been replaced.
      const held = proxy.holdNextGet(/model-checkpoint-epoch-1\.bin$/);
      const res = await openGet(client, `/api/projects/${projectId}/export`);
      expect(res.status).toBe(200);
      const reading = readAll(res);
      await Promise.race([held.caught, reading.then(() => Promise.reject(new Error('the export ended before reading the checkpoint')))]);
      await replace();
      held.release();
      body = await reading;
    } else {
      // Local: a large first file holds the archive back while the client reads nothing, and the checkpoint is
      // replaced meanwhile.
      const res = await openGet(client, `/api/projects/${projectId}/export`);
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const chunks: Buffer[] = [Buffer.from((await reader.read()).value!)];
      await replace();
      for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(Buffer.from(r.value));
      body = Buffer.concat(chunks);
    }

    const zip = readZip(body);
    const manifest = JSON.parse(zip.get('manifest.json')!.toString('utf8')) as { artifacts: { filename: string; path: string; sha256: string }[] };
    // Every file the manifest names is in the archive with the bytes it names, and nothing else; the large one is there.
    for (const a of manifest.artifacts) expect({ path: a.path, sha: sha(zip.get(a.path) ?? Buffer.alloc(0)) }).toEqual({ path: a.path, sha: a.sha256 });
    expect([...zip.keys()].sort()).toEqual(['manifest.json', ...manifest.artifacts.map((a) => a.path)].sort());
    expect(zip.get(manifest.artifacts.find((a) => a.filename === 'big.bin')!.path)!.equals(big)).toBe(true);
  }, 120_000);
});

describe('the sweep of unreferenced artifacts (local store)', () => {
  let stack: TestStack;
  const logged: { msg: string; removed?: number; keys?: string[] }[] = [];
  beforeAll(async () => {
    const capture = new Writable({
      write(chunk: Buffer, _enc, cb) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logged.push(JSON.parse(line));
        cb();
      },
    });
    stack = await startStack({ workers: [], env: { ARTIFACT_SWEEP_INTERVAL_SECS: '1', ARTIFACT_SWEEP_GRACE_SECS: '600', LOG_LEVEL: 'info' }, logTo: capture });
  });
  afterAll(async () => stack?.stop());

  const fileOf = (storageKey: string) => path.join(stack.config.artifactDir, storageKey);
  /** Makes a stored file look written `secs` ago. */
  const age = (storageKey: string, secs: number) => {
    const t = new Date(Date.now() - secs * 1000);
    fs.utimesSync(fileOf(storageKey), t, t);
  };

  it('removes an old file no row references, and keeps an old one a row references', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Swept');
    const kept = await plant(stack, projectId, 'kept.txt', Buffer.from('still referenced'));
    age(kept.storageKey, 7200);
    // An attempt that died after storing its file, before its row: two hours ago.
    const orphan = await stack.store.put(projectId, 'orphan.bin', randomBytes(4096));
    age(orphan.storageKey, 7200);
    // Not a storage key (another folder's business) and a process's temporary file: never the sweep's.
    const stranger = path.join(stack.config.artifactDir, 'not-a-key.txt');
    fs.writeFileSync(stranger, 'x');
    fs.utimesSync(stranger, new Date(0), new Date(0));

    await eventually(async () => !fs.existsSync(fileOf(orphan.storageKey)), 30_000, 200);
    expect(fs.existsSync(fileOf(kept.storageKey))).toBe(true);
    expect(fs.existsSync(stranger)).toBe(true);
    // The empty folder of the removed key goes with it.
    expect(fs.existsSync(path.dirname(fileOf(orphan.storageKey)))).toBe(false);
    const download = await client.get(`/api/artifacts/${kept.id}/download`);
    expect({ status: download.status, body: download.raw!.toString('utf8') }).toEqual({ status: 200, body: 'still referenced' });
    // Counted and named in the log.
    const line = await eventually(async () => logged.find((l) => l.keys?.includes(orphan.storageKey)), 5_000);
    expect(line).toMatchObject({ msg: expect.stringMatching(/^artifact sweep/), removed: 1 });
  }, 60_000);

  it('keeps an unreferenced file younger than the grace period (a write whose row is not committed yet)', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'In flight');
    const fresh = await stack.store.put(projectId, 'in-flight.bin', randomBytes(4096));
    age(fresh.storageKey, 300); // five minutes: inside the ten-minute grace period
    // An old orphan planted after it: once it is gone, a sweep has seen the fresh one too.
    const witness = await stack.store.put(projectId, 'witness.bin', randomBytes(16));
    age(witness.storageKey, 7200);
    await eventually(async () => !fs.existsSync(fileOf(witness.storageKey)), 30_000, 200);
    expect(fs.existsSync(fileOf(fresh.storageKey))).toBe(true);
  }, 60_000);
});

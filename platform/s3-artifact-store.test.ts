import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ArtifactStore, MissingObjectError } from './artifact-store';
import { LocalArtifactStore } from './local-artifact-store';
import { MinioServer, startMinio } from './minio';
import { S3ArtifactStore, S3StoreOptions } from './s3-artifact-store';

/**
 * The artifact stores against their real back ends: the local folder, and S3 as a MinIO server this file starts
 * (built once with Go, see platform/minio.ts). The shared contract runs on both; the S3 store's own parts (multipart
 * uploads, the local cache) after it.
 */
let minio: MinioServer;
let tmp: string;
const stores: S3ArtifactStore[] = [];

beforeAll(async () => {
  minio = await startMinio({ bucket: 'store-test' });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mlsvc-store-test-'));
}, 600_000);
afterAll(async () => {
  stores.forEach((s) => s.close());
  await minio?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

function s3Store(opts: Partial<S3StoreOptions> = {}): S3ArtifactStore {
  const s = new S3ArtifactStore({
    bucket: minio.bucket,
    region: 'us-east-1',
    endpoint: minio.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: minio.accessKeyId, secretAccessKey: minio.secretAccessKey },
    cacheDir: fs.mkdtempSync(path.join(tmp, 'cache-')),
    cacheMaxBytes: 1 << 30,
    ...opts,
  });
  stores.push(s);
  return s;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function bytesOf(r: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** `total` random bytes in 1 MiB chunks, then `fail` (if given) instead of the end. */
function source(total: number, fail?: Error): { stream: Readable; sent: Buffer } {
  const sent = randomBytes(total);
  let at = 0;
  const stream = new Readable({
    read() {
      if (at >= total) {
        if (fail) this.destroy(fail);
        else this.push(null);
        return;
      }
      const n = Math.min(1 << 20, total - at);
      this.push(sent.subarray(at, at + n));
      at += n;
    },
  });
  return { stream, sent };
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => fs.statSync(path.join(dir, f)).isFile());
}

function writeTemp(bytes: Buffer): string {
  const p = path.join(tmp, `src-${randomBytes(4).toString('hex')}.bin`);
  fs.writeFileSync(p, bytes);
  return p;
}

describe.each([
  ['local', () => new LocalArtifactStore(fs.mkdtempSync(path.join(tmp, 'local-')))],
  ['s3', () => s3Store()],
] as [string, () => ArtifactStore][])('the %s artifact store', (_kind, make) => {
  let store: ArtifactStore;
  beforeAll(() => {
    store = make();
  });

  it('puts a buffer and reads it back whole, by range and from a start; describe gives its size and SHA-256', async () => {
    const bytes = Buffer.from('0123456789abcdefghij');
    const o = await store.put('p1', 'notes/../x y.txt', bytes);
    expect(o).toEqual({ storageKey: expect.stringMatching(/^p1\/[0-9a-f-]{36}\/x_y\.txt$/), sizeBytes: 20, sha256: sha(bytes) });
    expect(await store.describe(o.storageKey)).toEqual(o);
    expect(await store.exists(o.storageKey)).toBe(true);
    expect((await bytesOf(store.read(o.storageKey))).toString()).toBe('0123456789abcdefghij');
    expect((await bytesOf(store.read(o.storageKey, { start: 5, end: 9 }))).toString()).toBe('56789');
    expect((await bytesOf(store.read(o.storageKey, { start: 15 }))).toString()).toBe('fghij');
    expect(fs.readFileSync(await store.localPath(o.storageKey), 'utf8')).toBe('0123456789abcdefghij');
  });

  it('streams a 20 MiB upload (multipart on S3) and hashes it on the way', async () => {
    const { stream, sent } = source(20 << 20);
    const o = await store.put('p1', 'big.bin', stream);
    expect(o.sizeBytes).toBe(sent.length);
    expect(o.sha256).toBe(sha(sent));
    // Describe of a streamed object (no hash known before the upload) reads it back.
    expect(await store.describe(o.storageKey)).toEqual(o);
    expect(sha(await bytesOf(store.read(o.storageKey)))).toBe(sha(sent));
  }, 60_000);

  it('moves a file in: the source is gone and the object holds its bytes', async () => {
    const bytes = randomBytes(100_000);
    const src = writeTemp(bytes);
    const key = await store.moveIn('p2', 'data.parquet', src);
    expect(fs.existsSync(src)).toBe(false);
    expect(await store.describe(key)).toEqual({ storageKey: key, sizeBytes: bytes.length, sha256: sha(bytes) });
    expect(fs.readFileSync(await store.localPath(key)).equals(bytes)).toBe(true);
  });

  it('removes an object (and a missing one without complaint); reading it then fails as missing', async () => {
    const o = await store.put('p3', 'gone.txt', Buffer.from('bye'));
    await store.remove(o.storageKey);
    await store.remove(o.storageKey);
    expect(await store.exists(o.storageKey)).toBe(false);
    await expect(bytesOf(store.read(o.storageKey))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.describe(o.storageKey)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a storage key that leaves the store', async () => {
    await expect(store.localPath('../../etc/passwd')).rejects.toThrow(/escapes the store/);
  });

  it('opens an object once: what was opened reads whole after the object is removed; a missing one is MissingObjectError', async () => {
    const bytes = randomBytes(300_000);
    const o = await store.put('p4', 'open.bin', bytes);
    const opened = await store.open(o.storageKey);
    await store.remove(o.storageKey);
    expect((await bytesOf(opened)).equals(bytes)).toBe(true);
    await expect(store.open(o.storageKey)).rejects.toBeInstanceOf(MissingObjectError);
  });

  it('lists its objects by storage key with when each was stored (a moved-in file: when it moved in), and nothing else', async () => {
    const project = randomUUID();
    const before = Date.now();
    const a = await store.put(project, 'a.txt', Buffer.from('a'));
    const src = writeTemp(randomBytes(10));
    fs.utimesSync(src, new Date(0), new Date(0)); // written long ago, stored now
    const b = await store.moveIn(project, 'b.bin', src);
    const notAKey = await store.put('p5', 'not-listed.txt', Buffer.from('x'));
    const found = new Map<string, Date>();
    for await (const o of store.list()) found.set(o.storageKey, o.storedAt);
    expect([...found.keys()].filter((k) => k.startsWith(`${project}/`)).sort()).toEqual([a.storageKey, b].sort());
    expect(found.has(notAKey.storageKey)).toBe(false);
    // S3 keeps whole seconds.
    for (const k of [a.storageKey, b]) expect(found.get(k)!.getTime()).toBeGreaterThanOrEqual(before - 2000);
  });
});

describe('the S3 artifact store', () => {
  async function listed(prefix: string): Promise<{ objects: string[]; uploads: string[] }> {
    const store = s3Store();
    const objects = await store.client.send(new ListObjectsV2Command({ Bucket: minio.bucket, Prefix: prefix }));
    const uploads = await store.client.send(new ListMultipartUploadsCommand({ Bucket: minio.bucket, Prefix: prefix }));
    return { objects: (objects.Contents ?? []).map((o) => o.Key ?? ''), uploads: (uploads.Uploads ?? []).map((u) => u.Key ?? '') };
  }

  it('keeps no object and no multipart upload when the source fails after several parts', async () => {
    const store = s3Store();
    const send = jest.spyOn(store.client, 'send');
    const { stream } = source(30 << 20, new Error('client went away'));
    await expect(store.put('failed-project', 'half.bin', stream)).rejects.toThrow('client went away');
    // It was a multipart upload with parts on the server, aborted before put rejected.
    const sent = send.mock.calls.map(([cmd]) => cmd.constructor.name);
    expect(sent).toContain('CreateMultipartUploadCommand');
    expect(sent.filter((n) => n === 'UploadPartCommand').length).toBeGreaterThanOrEqual(3);
    expect(sent).toContain('AbortMultipartUploadCommand');
    expect(sent).not.toContain('CompleteMultipartUploadCommand');
    expect(await listed('failed-project/')).toEqual({ objects: [], uploads: [] });
  }, 60_000);

  it('keeps no object when a small source fails before its first part', async () => {
    const store = s3Store();
    const { stream } = source(1000, new Error('cut short'));
    await expect(store.put('failed-small', 'tiny.bin', stream)).rejects.toThrow('cut short');
    expect(await listed('failed-small/')).toEqual({ objects: [], uploads: [] });
  });

  it('is ready against a bucket that exists, and names the bucket and the endpoint when it does not', async () => {
    await expect(s3Store().ready()).resolves.toBeUndefined();
    await expect(s3Store({ bucket: 'no-such-bucket' }).ready()).rejects.toThrow(`Artifact store: S3 bucket no-such-bucket at ${minio.endpoint} does not exist`);
    await expect(s3Store({ credentials: { accessKeyId: 'nobody', secretAccessKey: 'wrong-secret-key' } }).ready()).rejects.toThrow(/refuses these credentials/);
  });

  it('stops the producer when the bucket refuses the upload', async () => {
    const store = s3Store({ bucket: 'no-such-bucket' });
    const { stream } = source(30 << 20);
    await expect(store.put('p', 'x.bin', stream)).rejects.toMatchObject({ name: 'NoSuchBucket' });
    expect(stream.destroyed).toBe(true);
  }, 60_000);

  it('downloads a copy for localPath once: concurrent calls share the download, later ones hit the cache', async () => {
    const writer = s3Store();
    const bytes = randomBytes(3 << 20);
    const o = await writer.put('p4', 'shared.parquet', bytes);
    const reader = s3Store();
    const send = jest.spyOn(reader.client, 'send');
    const gets = () => send.mock.calls.filter(([cmd]) => cmd instanceof GetObjectCommand).length;
    const paths = await Promise.all(Array.from({ length: 5 }, () => reader.localPath(o.storageKey)));
    expect(new Set(paths).size).toBe(1);
    expect(paths[0].startsWith(reader.cache.dir)).toBe(true);
    expect(fs.readFileSync(paths[0]).equals(bytes)).toBe(true);
    expect(gets()).toBe(1);
    await reader.localPath(o.storageKey);
    // A stream of a cached object reads the copy, not the bucket.
    expect((await bytesOf(reader.read(o.storageKey, { start: 10, end: 19 }))).equals(bytes.subarray(10, 20))).toBe(true);
    expect(gets()).toBe(1);
    // Nothing half-written stays behind.
    expect(filesUnder(path.join(reader.cache.dir, 'tmp'))).toEqual([]);
    // Removing the object removes the copy too.
    await reader.remove(o.storageKey);
    expect(fs.existsSync(paths[0])).toBe(false);
    expect(reader.cache.sizeBytes).toBe(0);
  });

  it('a failed download leaves no copy and no temporary file, and is not remembered', async () => {
    const reader = s3Store();
    await expect(reader.localPath('p5/00000000-0000-0000-0000-000000000000/none.bin')).rejects.toBeInstanceOf(MissingObjectError);
    expect(filesUnder(path.join(reader.cache.dir, 'tmp'))).toEqual([]);
    expect(reader.cache.sizeBytes).toBe(0);
  });

  it('evicts the least recently used copies past its size bound, and rebuilds its index after a restart', async () => {
    const writer = s3Store();
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((n) => writer.put('p6', `${n}.bin`, randomBytes(1000))));
    const cacheDir = fs.mkdtempSync(path.join(tmp, 'evict-'));
    const reader = s3Store({ cacheDir, cacheMaxBytes: 2500, cacheKeepRecentMs: 0 });
    const pa = await reader.localPath(a.storageKey);
    const pb = await reader.localPath(b.storageKey);
    await reader.localPath(a.storageKey); // a is now more recent than b
    const pc = await reader.localPath(c.storageKey);
    expect(fs.existsSync(pb)).toBe(false);
    expect(fs.existsSync(pa) && fs.existsSync(pc)).toBe(true);
    expect(reader.cache.keys()).toEqual([a.storageKey, c.storageKey]);
    expect(reader.cache.sizeBytes).toBe(2000);
    // An evicted copy comes back on demand.
    expect(fs.readFileSync(await reader.localPath(b.storageKey)).length).toBe(1000);
    expect(reader.cache.keys()).toEqual([c.storageKey, b.storageKey]);

    const restarted = s3Store({ cacheDir, cacheMaxBytes: 2500, cacheKeepRecentMs: 0 });
    expect(restarted.cache.sizeBytes).toBe(2000);
    expect(restarted.cache.keys().sort()).toEqual([b.storageKey, c.storageKey].sort());
  });

  it('spares copies in recent use, staying over its bound rather than deleting a path just handed out', async () => {
    const writer = s3Store();
    const objs = await Promise.all(['x', 'y'].map((n) => writer.put('p7', `${n}.bin`, randomBytes(1000))));
    const reader = s3Store({ cacheMaxBytes: 500, cacheKeepRecentMs: 60_000 });
    const paths = [await reader.localPath(objs[0].storageKey), await reader.localPath(objs[1].storageKey)];
    expect(paths.every((p) => fs.existsSync(p))).toBe(true);
    expect(reader.cache.sizeBytes).toBe(2000);
  });

  it('keeps a moved-in file as the local copy, so reading it right after needs no download', async () => {
    const store = s3Store();
    const bytes = randomBytes(50_000);
    const key = await store.moveIn('p8', 'staged.parquet', writeTemp(bytes));
    const send = jest.spyOn(store.client, 'send');
    const p = await store.localPath(key);
    expect(fs.readFileSync(p).equals(bytes)).toBe(true);
    expect(send.mock.calls.filter(([cmd]) => cmd instanceof GetObjectCommand)).toHaveLength(0);
  });
});

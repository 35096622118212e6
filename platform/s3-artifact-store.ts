import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ArtifactCache } from './artifact-cache';
import { ArtifactStore, asStream, ByteRange, hashFile, hashingMeter, isStorageKey, MissingObjectError, newStorageKey, StoredObject, StoreLog } from './artifact-store';

/**
 * Multipart part size: an upload holds at most {@link UPLOAD_QUEUE} parts in memory (32 MiB), whatever the object's
 * size; S3's 10,000-part limit then caps one object at 80 GB, far past the upload limits.
 */
const PART_BYTES = 8 * 1024 * 1024;
const UPLOAD_QUEUE = 4;

export interface S3StoreOptions {
  bucket: string;
  region: string;
  /** An S3-compatible server (MinIO, ...); unset: AWS. */
  endpoint?: string;
  forcePathStyle: boolean;
  /** The local copies `localPath` hands out (see {@link ArtifactCache}). */
  cacheDir: string;
  cacheMaxBytes: number;
  /** Tests: how long a used copy is spared from eviction. */
  cacheKeepRecentMs?: number;
  /** Tests: explicit credentials instead of the SDK's default chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  log?: StoreLog;
}

/**
 * Artifact bytes in an S3 bucket (`ARTIFACT_STORE=s3`), so processes on different machines share them. Writes stream
 * through `@aws-sdk/lib-storage`'s Upload: one PutObject for a small object, else a multipart upload that is
 * completed only once every byte arrived, and aborted (its parts deleted) when the source fails, so a key never
 * holds half an object. The SHA-256 travels as object metadata when it is known before the upload (buffers and
 * moved-in files), so {@link describe} needs no download. Readers that need a file get a copy in a bounded local
 * cache; streams read from that copy when there is one, else straight from the bucket (ranged GetObject).
 *
 * Credentials come from the AWS SDK's default chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an
 * instance role).
 */
export class S3ArtifactStore implements ArtifactStore {
  readonly kind = 's3';
  readonly client: S3Client;
  readonly bucket: string;
  private readonly endpoint?: string;
  readonly cache: ArtifactCache;
  private readonly log?: StoreLog;

  constructor(opts: S3StoreOptions) {
    this.bucket = opts.bucket;
    this.endpoint = opts.endpoint;
    this.log = opts.log;
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      credentials: opts.credentials,
      // Checksums only where S3 requires them: S3-compatible servers differ in the newer trailing-checksum uploads,
      // and every object's SHA-256 is computed here anyway.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.cache = new ArtifactCache(opts.cacheDir, opts.cacheMaxBytes, { keepRecentMs: opts.cacheKeepRecentMs });
  }

  /** A HeadBucket: the endpoint answers, the credentials are accepted and the bucket exists. */
  async ready(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
      const status = e.$metadata?.httpStatusCode;
      const what = status === 404 ? 'does not exist' : status === 403 ? 'refuses these credentials' : `is not reachable (${e.name ?? 'Error'}: ${e.message ?? String(err)})`;
      throw new Error(`Artifact store: S3 bucket ${this.bucket}${this.endpoint ? ` at ${this.endpoint}` : ''} ${what}`, { cause: err });
    }
  }

  async put(projectId: string, filename: string, source: Readable | Buffer): Promise<StoredObject> {
    const storageKey = newStorageKey(projectId, filename);
    const known = Buffer.isBuffer(source) ? createHash('sha256').update(source).digest('hex') : undefined;
    const meter = hashingMeter();
    const piping = pipeline(asStream(source), meter.stream);
    // A failed upload stops the source too (a producer writing into it would otherwise wait forever).
    const uploading = this.upload(storageKey, meter.stream, known).catch((err: unknown) => {
      meter.stream.destroy(err instanceof Error ? err : new Error(String(err)));
      throw err;
    });
    // Both settle before put does: the multipart upload is aborted by the time a failure is reported.
    const [piped, uploaded] = await Promise.allSettled([piping, uploading]);
    if (uploaded.status === 'rejected') throw piped.status === 'rejected' ? piped.reason : uploaded.reason;
    if (piped.status === 'rejected') {
      // The upload completed on a stream that then failed: cannot happen with a pipeline, but never keep it.
      await this.remove(storageKey);
      throw piped.reason;
    }
    return { storageKey, ...meter.result() };
  }

  /** Hashes the file, uploads it, then keeps it as the local copy (callers usually read it right away). */
  async moveIn(projectId: string, filename: string, filePath: string): Promise<string> {
    const storageKey = newStorageKey(projectId, filename);
    const { sizeBytes, sha256 } = await hashFile(filePath);
    await this.upload(storageKey, fs.createReadStream(filePath), sha256, sizeBytes);
    await this.cache.adopt(storageKey, filePath).catch(() => fs.promises.rm(filePath, { force: true }));
    return storageKey;
  }

  async describe(storageKey: string): Promise<StoredObject> {
    const head = await this.head(storageKey);
    if (!head) throw new MissingObjectError(storageKey);
    const sha256 = head.Metadata?.sha256;
    if (sha256 && head.ContentLength !== undefined) return { storageKey, sizeBytes: head.ContentLength, sha256 };
    const meter = hashingMeter();
    await pipeline(this.read(storageKey), meter.stream, nullSink());
    return { storageKey, ...meter.result() };
  }

  async exists(storageKey: string): Promise<boolean> {
    return (await this.head(storageKey)) !== null;
  }

  read(storageKey: string, range?: ByteRange): Readable {
    const abort = new AbortController();
    const { client, bucket, cache } = this;
    async function* chunks(): AsyncGenerator<Buffer> {
      const local = await cache.open(storageKey);
      if (local) {
        const s = local.createReadStream(range ? { start: range.start, end: range.end } : {});
        try {
          yield* s;
        } finally {
          s.destroy();
        }
        return;
      }
      const res = await client
        .send(new GetObjectCommand({ Bucket: bucket, Key: storageKey, Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined }), { abortSignal: abort.signal })
        .catch((err: unknown) => {
          throw notFound(err) ? new MissingObjectError(storageKey) : err;
        });
      const body = res.Body as Readable;
      try {
        yield* body;
      } finally {
        body.destroy();
      }
    }
    const out = Readable.from(chunks(), { objectMode: false });
    out.once('close', () => abort.abort());
    return out;
  }

  /** The local copy when there is one (opened: eviction does not disturb it), else a GetObject whose answer has begun. */
  async open(storageKey: string): Promise<Readable> {
    const local = await this.cache.open(storageKey);
    if (local) return local.createReadStream();
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: storageKey })).catch((err: unknown) => {
      throw notFound(err) ? new MissingObjectError(storageKey) : err;
    });
    return res.Body as Readable;
  }

  /** ListObjectsV2, a page (up to 1,000 keys) at a time. */
  async *list(): AsyncIterable<{ storageKey: string; storedAt: Date }> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken: token }));
      for (const o of page.Contents ?? []) {
        if (o.Key && o.LastModified && isStorageKey(o.Key)) yield { storageKey: o.Key, storedAt: o.LastModified };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  localPath(storageKey: string): Promise<string> {
    return this.cache.get(storageKey, async (tmp) => {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: storageKey })).catch((err: unknown) => {
        throw notFound(err) ? new MissingObjectError(storageKey) : err;
      });
      await pipeline(res.Body as Readable, fs.createWriteStream(tmp));
    });
  }

  async remove(storageKey: string): Promise<void> {
    await this.cache.drop(storageKey).catch((err: unknown) => this.log?.warn({ err, storageKey }, 'could not remove a cached artifact copy'));
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: storageKey }));
    } catch (err) {
      this.log?.warn({ err, storageKey, bucket: this.bucket }, 'could not remove an artifact object');
    }
  }

  /** Closes the SDK's connections. */
  close(): void {
    this.client.destroy();
  }

  private async head(storageKey: string) {
    try {
      return await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: storageKey }));
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  private async upload(storageKey: string, body: Readable, sha256?: string, contentLength?: number): Promise<void> {
    const upload = new Upload({
      client: this.client,
      queueSize: UPLOAD_QUEUE,
      partSize: PART_BYTES,
      leavePartsOnError: false,
      params: { Bucket: this.bucket, Key: storageKey, Body: body, ContentLength: contentLength, Metadata: sha256 ? { sha256 } : undefined },
    });
    await upload.done();
  }
}

function notFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** Discards what is written to it (hashing a stream nobody keeps). */
function nullSink(): Writable {
  return new Writable({ write: (_chunk, _enc, cb) => cb() });
}

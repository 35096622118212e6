import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';

export interface StoredObject {
  storageKey: string;
  sizeBytes: number;
  sha256: string;
}

/** Bytes `start` to `end` of an object, both inclusive (as `fs.createReadStream` and HTTP Range count). */
export interface ByteRange {
  start: number;
  end?: number;
}

/**
 * Where artifact bytes live, addressed by storage key (`projectId/<uuid>/<filename>`; a key is never
 * written twice). Two implementations, chosen by `ARTIFACT_STORE`: the local folder (`local-artifact-store.ts`)
 * and an S3 bucket (`s3-artifact-store.ts`). Code above platform/ sees only this interface.
 *
 * Every write is all or nothing: a failed `put` or `moveIn` leaves no object under the key.
 */
export interface ArtifactStore {
  readonly kind: 'local' | 's3';
  /** Resolves once the store can be used; else rejects with a message naming what is wrong (checked at process start). */
  ready(): Promise<void>;
  /** Streams `source` into the store under a new key, hashing on the way. */
  put(projectId: string, filename: string, source: Readable | Buffer): Promise<StoredObject>;
  /**
   * Moves an existing local file into the store under a new key and returns the key; the file at `filePath` is
   * gone afterwards (renamed, uploaded, or kept as the local copy). Describe it with {@link describe}.
   */
  moveIn(projectId: string, filename: string, filePath: string): Promise<string>;
  /** Size and SHA-256 of a stored object. */
  describe(storageKey: string): Promise<StoredObject>;
  exists(storageKey: string): Promise<boolean>;
  /**
   * The object's bytes (or `range` of them) as a stream. Nothing is fetched until the stream is read, so a caller may
   * create many and consume them one after another (the project archive does). A missing object fails the stream.
   */
  read(storageKey: string, range?: ByteRange): Readable;
  /**
   * Opens the object now and resolves with its bytes as a stream read from what was opened: removing or replacing the
   * object afterwards does not disturb the reader. Rejects with {@link MissingObjectError} when there is no object.
   * Consume or destroy the stream (it holds a file handle or a connection).
   */
  open(storageKey: string): Promise<Readable>;
  /**
   * Every object of the store, in no particular order, with when it was stored (the file's modification time, the
   * S3 object's LastModified). Only storage keys: a process's temporary files, and anything else in the folder or the
   * bucket that is not shaped like a key, are never listed.
   */
  list(): AsyncIterable<{ storageKey: string; storedAt: Date }>;
  /**
   * A local file holding the object, for readers that need a path (DuckDB, the analyzers): the stored file itself
   * (local store) or a copy in a bounded local cache (S3). Treat it as read-only, and open it soon: an S3 store's
   * cache may evict a copy not used for a while (see `artifact-cache.ts`).
   */
  localPath(storageKey: string): Promise<string>;
  /**
   * Removes the object (a missing one is not an error). Best effort: it never rejects, since callers remove
   * after their rows are gone or while undoing a failed write; an object that could not be removed costs
   * space, never correctness, and the failure is logged.
   */
  remove(storageKey: string): Promise<void>;
}

/** A fresh storage key for `filename` in `projectId`. */
export function newStorageKey(projectId: string, filename: string): string {
  return path.posix.join(projectId, randomUUID(), safeName(filename));
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const STORAGE_KEY = new RegExp(`^${UUID}/${UUID}/[A-Za-z0-9._-]+$`);

/** Whether `key` has the shape {@link newStorageKey} gives (`<project uuid>/<uuid>/<safe name>`). */
export function isStorageKey(key: string): boolean {
  return STORAGE_KEY.test(key);
}

/** `storageKey` as a path under `root`; refuses a key that would leave it. */
export function pathUnder(root: string, storageKey: string): string {
  const p = path.resolve(root, storageKey);
  if (!p.startsWith(path.resolve(root) + path.sep)) throw new Error('storage key escapes the store');
  return p;
}

function safeName(name: string): string {
  const base = path.basename(name).replace(/[^A-Za-z0-9._-]+/g, '_');
  return base.length > 0 && base !== '.' && base !== '..' ? base.slice(0, 200) : 'file';
}

/** A pass-through that counts and hashes what flows through it; `result()` once it has ended. */
export function hashingMeter(): { stream: Transform; result(): { sizeBytes: number; sha256: string } } {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      size += chunk.length;
      cb(null, chunk);
    },
  });
  return { stream, result: () => ({ sizeBytes: size, sha256: hash.digest('hex') }) };
}

/** `source` as a stream (a Buffer becomes a one-chunk stream). */
export function asStream(source: Readable | Buffer): Readable {
  return Buffer.isBuffer(source) ? Readable.from([source]) : source;
}

/**
 * Size and SHA-256 of a local file, read through one reused buffer: a stream's fresh chunk per read would leave
 * hundreds of MB of garbage buffers counted in the process's RSS until the GC runs.
 */
export async function hashFile(filePath: string): Promise<{ sizeBytes: number; sha256: string }> {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(1 << 20);
  let size = 0;
  const fh = await fs.promises.open(filePath, 'r');
  try {
    for (let n; (n = (await fh.read(buf, 0, buf.length, size)).bytesRead) > 0; size += n) hash.update(buf.subarray(0, n));
  } finally {
    await fh.close();
  }
  return { sizeBytes: size, sha256: hash.digest('hex') };
}

/** The object of a storage key is not in the store. */
export class MissingObjectError extends Error {
  readonly code = 'ENOENT';
  constructor(readonly storageKey: string) {
    super('the object is missing from the artifact store');
  }
}

/** Failures the stores log instead of throwing (see {@link ArtifactStore.remove}). */
export interface StoreLog {
  warn(obj: object, msg: string): void;
}

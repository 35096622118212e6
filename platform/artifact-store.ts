import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable, Transform } from 'node:stream';
import { scratchDir } from './scratch';

export interface StoredObject {
  storageKey: string;
  sizeBytes: number;
  sha256: string;
}

/**
 * Artifact bytes on the local disk, addressed by storage key. Writes go to a temporary
 * name and are renamed into place, so a failed write never leaves a half file behind; the
 * temporary names are in this process's folder under `tmp/`, which the next process to start
 * removes if this one is killed mid-write (platform/scratch.ts).
 */
export class ArtifactStore {
  private readonly tmpDir: string;

  constructor(readonly root: string) {
    this.tmpDir = scratchDir(path.join(root, 'tmp'));
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  pathOf(storageKey: string): string {
    const p = path.resolve(this.root, storageKey);
    if (!p.startsWith(path.resolve(this.root) + path.sep)) throw new Error('storage key escapes the store');
    return p;
  }

  /** Streams `source` into the store under `projectId/<uuid>/<filename>`. */
  async put(projectId: string, filename: string, source: Readable | Buffer): Promise<StoredObject> {
    const storageKey = path.posix.join(projectId, randomUUID(), safeName(filename));
    const finalPath = this.pathOf(storageKey);
    const tmp = path.join(this.tmpDir, randomUUID());
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        hash.update(chunk);
        size += chunk.length;
        cb(null, chunk);
      },
    });
    try {
      const input = Buffer.isBuffer(source) ? Readable.from([source]) : source;
      await pipeline(input, meter, fs.createWriteStream(tmp));
      fs.mkdirSync(path.dirname(finalPath), { recursive: true });
      fs.renameSync(tmp, finalPath);
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      throw err;
    }
    return { storageKey, sizeBytes: size, sha256: hash.digest('hex') };
  }

  /**
   * Moves an existing file into the store under `projectId/<uuid>/<filename>` and returns its storage key: a rename
   * when the file is on the store's file system (a big dataset is not copied), else a copy, after which the
   * source is removed. Describe it with {@link describe}.
   */
  async moveIn(projectId: string, filename: string, filePath: string): Promise<string> {
    const storageKey = path.posix.join(projectId, randomUUID(), safeName(filename));
    const finalPath = this.pathOf(storageKey);
    await fs.promises.mkdir(path.dirname(finalPath), { recursive: true });
    try {
      await fs.promises.rename(filePath, finalPath).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EXDEV') throw err;
        await this.copyInto(filePath, finalPath);
        await fs.promises.rm(filePath, { force: true });
      });
    } catch (err) {
      this.remove(storageKey);
      throw err;
    }
    return storageKey;
  }

  /**
   * Size and SHA-256 of a stored object, read from the store through one reused buffer: a stream's fresh chunk per
   * read would leave hundreds of MB of garbage buffers counted in the process's RSS until the GC runs.
   */
  async describe(storageKey: string): Promise<StoredObject> {
    const hash = createHash('sha256');
    const buf = Buffer.allocUnsafe(1 << 20);
    let size = 0;
    const fh = await fs.promises.open(this.pathOf(storageKey), 'r');
    try {
      for (let n; (n = (await fh.read(buf, 0, buf.length, size)).bytesRead) > 0; size += n) hash.update(buf.subarray(0, n));
    } finally {
      await fh.close();
    }
    return { storageKey, sizeBytes: size, sha256: hash.digest('hex') };
  }

  /** Copies across file systems through a temporary name, so `dest` never holds half a file. */
  private async copyInto(src: string, dest: string): Promise<void> {
    const tmp = path.join(this.tmpDir, randomUUID());
    try {
      await fs.promises.copyFile(src, tmp);
      await fs.promises.rename(tmp, dest);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
  }

  exists(storageKey: string): boolean {
    return fs.existsSync(this.pathOf(storageKey));
  }

  read(storageKey: string): fs.ReadStream {
    return fs.createReadStream(this.pathOf(storageKey));
  }

  remove(storageKey: string): void {
    const p = this.pathOf(storageKey);
    fs.rmSync(p, { force: true });
    const dir = path.dirname(p);
    try {
      fs.rmdirSync(dir);
    } catch {
      /* not empty or gone */
    }
  }
}

function safeName(name: string): string {
  const base = path.basename(name).replace(/[^A-Za-z0-9._-]+/g, '_');
  return base.length > 0 && base !== '.' && base !== '..' ? base.slice(0, 200) : 'file';
}

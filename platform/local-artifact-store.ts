import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { scratchDir } from './scratch';
import { ArtifactStore, asStream, ByteRange, hashFile, hashingMeter, isStorageKey, MissingObjectError, newStorageKey, pathUnder, StoredObject, StoreLog } from './artifact-store';

/**
 * Artifact bytes in a local folder (`ARTIFACT_STORE=local`, the default), addressed by storage key. Writes go to a
 * temporary name and are renamed into place, so a failed write never leaves a half file behind; the temporary names
 * are in this process's folder under `tmp/`, which the next process to start removes if this one is killed mid-write
 * (platform/scratch.ts).
 */
export class LocalArtifactStore implements ArtifactStore {
  readonly kind = 'local';
  private readonly tmpDir: string;

  constructor(
    readonly root: string,
    private readonly log?: StoreLog,
  ) {
    this.tmpDir = scratchDir(path.join(root, 'tmp'));
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  async ready(): Promise<void> {
    await fs.promises.access(this.tmpDir, fs.constants.W_OK);
  }

  /** The file of `storageKey` (it may not exist). Local only: code above platform/ uses {@link localPath}. */
  pathOf(storageKey: string): string {
    return pathUnder(this.root, storageKey);
  }

  async put(projectId: string, filename: string, source: Readable | Buffer): Promise<StoredObject> {
    const storageKey = newStorageKey(projectId, filename);
    const finalPath = this.pathOf(storageKey);
    const tmp = path.join(this.tmpDir, randomUUID());
    const meter = hashingMeter();
    try {
      await pipeline(asStream(source), meter.stream, fs.createWriteStream(tmp));
      await fs.promises.mkdir(path.dirname(finalPath), { recursive: true });
      await fs.promises.rename(tmp, finalPath);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
    return { storageKey, ...meter.result() };
  }

  /**
   * A rename when the file is on the store's file system (a big dataset is not copied), else a copy through a
   * temporary name, after which the source is removed.
   */
  async moveIn(projectId: string, filename: string, filePath: string): Promise<string> {
    const storageKey = newStorageKey(projectId, filename);
    const finalPath = this.pathOf(storageKey);
    await fs.promises.mkdir(path.dirname(finalPath), { recursive: true });
    try {
      await fs.promises.rename(filePath, finalPath).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EXDEV') throw err;
        await this.copyInto(filePath, finalPath);
        await fs.promises.rm(filePath, { force: true });
      });
      // A rename keeps the file's modification time, which is when it was written, not stored: the store's age of an
      // object (list's `storedAt`, what the sweep's grace period counts from) starts now.
      const now = new Date();
      await fs.promises.utimes(finalPath, now, now);
    } catch (err) {
      await this.remove(storageKey);
      throw err;
    }
    return storageKey;
  }

  async describe(storageKey: string): Promise<StoredObject> {
    return { storageKey, ...(await hashFile(this.pathOf(storageKey))) };
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

  async exists(storageKey: string): Promise<boolean> {
    return fs.promises.access(this.pathOf(storageKey)).then(
      () => true,
      () => false,
    );
  }

  read(storageKey: string, range?: ByteRange): Readable {
    return fs.createReadStream(this.pathOf(storageKey), range ? { start: range.start, end: range.end } : {});
  }

  async open(storageKey: string): Promise<Readable> {
    const fh = await fs.promises.open(this.pathOf(storageKey), 'r').catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' ? new MissingObjectError(storageKey) : err;
    });
    return fh.createReadStream(); // closes the handle when it ends or is destroyed
  }

  /** Walks `<project>/<uuid>/<file>`; folders and files that go away meanwhile are skipped. */
  async *list(): AsyncIterable<{ storageKey: string; storedAt: Date }> {
    const names = async (dir: string) => fs.promises.readdir(dir).catch(() => [] as string[]);
    for (const project of await names(this.root)) {
      if (project === 'tmp') continue;
      for (const id of await names(path.join(this.root, project))) {
        for (const file of await names(path.join(this.root, project, id))) {
          const storageKey = `${project}/${id}/${file}`;
          if (!isStorageKey(storageKey)) continue;
          const st = await fs.promises.stat(path.join(this.root, project, id, file)).catch(() => null);
          if (st?.isFile()) yield { storageKey, storedAt: st.mtime };
        }
      }
    }
  }

  async localPath(storageKey: string): Promise<string> {
    return this.pathOf(storageKey);
  }

  async remove(storageKey: string): Promise<void> {
    try {
      const p = this.pathOf(storageKey);
      await fs.promises.rm(p, { force: true });
      // The key's own folder (`projectId/<uuid>`) holds only this file.
      await fs.promises.rmdir(path.dirname(p)).catch(() => undefined);
    } catch (err) {
      this.log?.warn({ err, storageKey }, 'could not remove an artifact file');
    }
  }
}

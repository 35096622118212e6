import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathUnder } from './artifact-store';
import { scratchDir } from './scratch';
import { SingleFlight } from './single-flight';

/** A copy used this recently is never evicted: its path was just handed to a reader that may not have opened it yet. */
export const DEFAULT_KEEP_RECENT_MS = 60_000;

/**
 * Local copies of remote artifacts (S3 store), for readers that need a file path. Bounded by total size: past
 * `maxBytes` the least recently used copies are deleted, except those used in the last `keepRecentMs` (a path handed
 * out must stay valid long enough to be opened; once open, deleting the file does not disturb the reader). So the
 * cache can stay over its bound while every copy in it is in use, and a single object larger than the bound is still
 * cached (the caller needs it) and evicted later.
 *
 * A copy is downloaded to a temporary name (in this process's scratch folder under `tmp/`, swept at the next start if
 * the process dies mid-download: platform/scratch.ts) and renamed into place: a reader never sees half a file. Concurrent
 * requests for one key share one download. Storage keys are never rewritten, so a copy never goes stale.
 * The index lives in memory and is rebuilt from the folder at start (least recently modified first); processes that
 * share a DATA_DIR each bound what they know of the folder and tolerate each other's evictions (a missing copy is
 * downloaded again).
 */
export class ArtifactCache {
  /** Map order is recency order: the first entry is the least recently used. */
  private readonly entries = new Map<string, { size: number; usedAt: number }>();
  private total = 0;
  private readonly flights = new SingleFlight<string>();
  private readonly objects: string;
  private readonly tmp: string;
  private readonly keepRecentMs: number;

  constructor(
    readonly dir: string,
    readonly maxBytes: number,
    opts: { keepRecentMs?: number } = {},
  ) {
    this.keepRecentMs = opts.keepRecentMs ?? DEFAULT_KEEP_RECENT_MS;
    this.objects = path.join(dir, 'objects');
    this.tmp = scratchDir(path.join(dir, 'tmp'));
    fs.mkdirSync(this.objects, { recursive: true });
    fs.mkdirSync(this.tmp, { recursive: true });
    this.scan();
  }

  /** Bytes the cache holds, as far as this process knows. */
  get sizeBytes(): number {
    return this.total;
  }

  /** Keys held, least recently used first. */
  keys(): string[] {
    return [...this.entries.keys()];
  }

  pathOf(storageKey: string): string {
    return pathUnder(this.objects, storageKey);
  }

  /**
   * The local copy of `storageKey`, fetched with `download(tmpPath)` (which writes the whole object to `tmpPath`)
   * when there is none. A failed download leaves nothing behind and is not remembered.
   */
  async get(storageKey: string, download: (tmpPath: string) => Promise<void>): Promise<string> {
    const p = this.pathOf(storageKey);
    const st = await fs.promises.stat(p).catch(() => null);
    if (st) {
      this.touch(storageKey, st.size);
      return p;
    }
    return this.flights.run(storageKey, async () => {
      const tmp = path.join(this.tmp, randomUUID());
      try {
        await download(tmp);
        await fs.promises.mkdir(path.dirname(p), { recursive: true });
        await fs.promises.rename(tmp, p);
      } catch (err) {
        await fs.promises.rm(tmp, { force: true });
        throw err;
      }
      await this.added(storageKey, p);
      return p;
    });
  }

  /** Opens the local copy of `storageKey` if there is one (an open file survives eviction); null otherwise. */
  async open(storageKey: string): Promise<fs.promises.FileHandle | null> {
    const fh = await fs.promises.open(this.pathOf(storageKey), 'r').catch(() => null);
    if (fh) this.touch(storageKey, (await fh.stat()).size);
    return fh;
  }

  /** Makes the local file at `filePath` (just uploaded as `storageKey`) the cached copy: a rename, else a copy. */
  async adopt(storageKey: string, filePath: string): Promise<void> {
    const p = this.pathOf(storageKey);
    await fs.promises.mkdir(path.dirname(p), { recursive: true });
    await fs.promises.rename(filePath, p).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EXDEV') throw err;
      const tmp = path.join(this.tmp, randomUUID());
      try {
        await fs.promises.copyFile(filePath, tmp);
        await fs.promises.rename(tmp, p);
      } catch (e) {
        await fs.promises.rm(tmp, { force: true });
        throw e;
      }
      await fs.promises.rm(filePath, { force: true });
    });
    await this.added(storageKey, p);
  }

  /** Forgets and deletes the copy of `storageKey`, if any. */
  async drop(storageKey: string): Promise<void> {
    const e = this.entries.get(storageKey);
    if (e) {
      this.entries.delete(storageKey);
      this.total -= e.size;
    }
    await this.unlink(storageKey);
  }

  private async added(storageKey: string, p: string): Promise<void> {
    this.touch(storageKey, (await fs.promises.stat(p)).size);
    await this.evict(storageKey);
  }

  private touch(storageKey: string, size: number): void {
    const old = this.entries.get(storageKey);
    if (old) {
      this.entries.delete(storageKey);
      this.total -= old.size;
    }
    this.entries.set(storageKey, { size, usedAt: Date.now() });
    this.total += size;
  }

  /** Deletes least recently used copies until the cache fits, sparing `keep` and copies in recent use. */
  private async evict(keep: string): Promise<void> {
    const now = Date.now();
    const victims: string[] = [];
    for (const [key, e] of this.entries) {
      if (this.total <= this.maxBytes) break;
      if (key === keep || now - e.usedAt < this.keepRecentMs) continue;
      this.entries.delete(key);
      this.total -= e.size;
      victims.push(key);
    }
    for (const key of victims) await this.unlink(key);
  }

  private async unlink(storageKey: string): Promise<void> {
    const p = this.pathOf(storageKey);
    await fs.promises.rm(p, { force: true });
    // Up to two now-empty folders: `<uuid>/` and `<projectId>/`.
    for (let d = path.dirname(p), i = 0; i < 2 && d !== this.objects; d = path.dirname(d), i++) {
      if (
        !(await fs.promises.rmdir(d).then(
          () => true,
          () => false,
        ))
      )
        break;
    }
  }

  /** Rebuilds the index from the folder, oldest modification first. */
  private scan(): void {
    const found: { key: string; size: number; mtime: number }[] = [];
    for (const rel of fs.readdirSync(this.objects, { recursive: true, encoding: 'utf8' })) {
      try {
        const st = fs.statSync(path.join(this.objects, rel));
        if (st.isFile()) found.push({ key: rel.split(path.sep).join('/'), size: st.size, mtime: st.mtimeMs });
      } catch {
        /* gone meanwhile */
      }
    }
    found.sort((a, b) => a.mtime - b.mtime);
    // Copies found at start count as used when last written: a restart does not make them all "recent".
    for (const f of found) {
      this.entries.set(f.key, { size: f.size, usedAt: f.mtime });
      this.total += f.size;
    }
  }
}

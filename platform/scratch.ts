import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Temporary files in folders owned by one process. Every process (the API, each worker process) writes its
 * uploads, staging folders and half-written artifacts under `<parent>/<host>.<pid>/`, so a process killed without
 * warning (SIGKILL, the OOM killer, a power cut) leaves them in a folder that names it: the next process to start
 * on that host removes the folders of processes that are gone, without touching those of processes still running
 * (the API and the workers share DATA_DIR under `npm start`).
 */
const OWNER = /^(.+)\.(\d+)$/;

/** The name of this process's folders: `<hostname>.<pid>`. */
export function scratchOwner(): string {
  return `${os.hostname()}.${process.pid}`;
}

/** This process's folder under `parent` (created on first use by whoever writes there). */
export function scratchDir(parent: string, ...sub: string[]): string {
  return path.join(parent, scratchOwner(), ...sub);
}

/** Whether a process with this id runs on this host (EPERM: it runs, as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function olderThanThisProcess(dir: string): boolean {
  try {
    return fs.statSync(dir).mtimeMs < Date.now() - process.uptime() * 1000;
  } catch {
    return false;
  }
}

/**
 * Removes, under each of `parents`, the folders of processes of this host that no longer run, and a folder with this
 * process's own pid last changed before this process started: a previous life's (a container's main process restarts
 * with the same pid). Folders of other hosts (a DATA_DIR on a shared volume) are theirs to sweep. Called when a
 * process starts; returns the folders removed.
 */
export function sweepScratch(parents: string[]): string[] {
  const host = os.hostname();
  const removed: string[] = [];
  for (const parent of parents) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(parent, { withFileTypes: true });
    } catch {
      continue; // nothing written there yet
    }
    for (const e of entries) {
      const m = OWNER.exec(e.name);
      if (!e.isDirectory() || !m || m[1] !== host) continue;
      const dir = path.join(parent, e.name);
      const pid = Number(m[2]);
      if (pid === process.pid ? !olderThanThisProcess(dir) : processAlive(pid)) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    }
  }
  return removed;
}

/**
 * The folders whose per-process subfolders hold temporary files: DATA_DIR's, the local artifact store's (renames into
 * the store stay on its file system) and the S3 store's cache (downloads renamed into it).
 */
export function scratchParents(config: { dataDir: string; artifactDir: string; artifactStore: { cacheDir: string } }): string[] {
  return [path.join(config.dataDir, 'tmp'), path.join(config.artifactDir, 'tmp'), path.join(config.artifactStore.cacheDir, 'tmp')];
}

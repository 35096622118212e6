import fs from 'node:fs';
import { processAlive } from './scratch';

/**
 * Local services `npm start` runs as children (the embedded PostgreSQL, the Temporal dev server) outlive a start that
 * is killed (`kill -9`, an OOM kill): nothing tells them their parent is gone. Each leaves its pid in a file; the next
 * start stops what it finds there, so it owns the services it talks to instead of reusing a stranger's.
 */

const STOP_TIMEOUT_MS = 30_000;

/** The pid a file names (first line), when that process still runs and its command line contains `command`. */
export function leftoverPid(pidFile: string, command: string): number | undefined {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid || !processAlive(pid)) return undefined;
  return commandLineOf(pid)?.includes(command) === false ? undefined : pid;
}

/**
 * Whether the process is an orphan: its parent is gone (it was re-parented to init or a subreaper that is not a start
 * of ours). A live parent means another start still runs it; that one must not be stopped. Without /proc, an orphan.
 */
export function orphaned(pid: number): { orphan: boolean; parent?: number } {
  const parent = parentOf(pid);
  if (parent === undefined || parent <= 1) return { orphan: true };
  return commandLineOf(parent)?.includes('scripts/start') ? { orphan: false, parent } : { orphan: true };
}

/**
 * The leftover a pid file names, stopped when its start is gone; an error when a running start still owns it (two
 * starts on one DATA_DIR would share, then kill, each other's services).
 */
export async function stopLeftover(pidFile: string, command: string, signal: NodeJS.Signals, onStop: (pid: number) => void): Promise<void> {
  const pid = leftoverPid(pidFile, command);
  if (pid === undefined) return;
  const { orphan, parent } = orphaned(pid);
  if (!orphan) throw new Error(`another start (pid ${parent}) is running with this DATA_DIR and owns its ${command} (pid ${pid}): stop it first, or use another DATA_DIR`);
  onStop(pid);
  await stopProcess(pid, signal);
}

/** Stops a process (SIGINT or SIGTERM, SIGKILL after 30 s) and waits until it is gone. */
export async function stopProcess(pid: number, signal: NodeJS.Signals): Promise<void> {
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (processAlive(pid) && Date.now() < deadline) await sleep(100);
  if (!processAlive(pid)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return;
  }
  while (processAlive(pid)) await sleep(100);
}

function parentOf(pid: number): number | undefined {
  try {
    // Field 4 of /proc/<pid>/stat, after the command name in parentheses (which may itself hold spaces).
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** The process's command line, or undefined where /proc is missing (macOS): the pid file is then trusted. */
function commandLineOf(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

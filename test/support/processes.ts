import fs from 'node:fs';

/** The ids of the processes whose parent is `pid` (from /proc). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Field 4 of /proc/<pid>/stat, after the command name in parentheses (which may hold spaces).
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** `pid`'s children, their children and so on, parents first. */
export function descendantsOf(pid: number): number[] {
  const out: number[] = [];
  for (let frontier = childrenOf(pid); frontier.length; frontier = frontier.flatMap(childrenOf)) out.push(...frontier);
  return out;
}

/** The command line of a process, for a message ('' once it is gone). */
export function commandLineOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/**
 * SIGKILLs every process the test run started and left running, and says which: a worker process a test did not
 * stop keeps polling after the Temporal server is gone and, with stderr inherited, holds the runner's output open
 * (CI then waits for it until its own time limit).
 */
export function killLeftovers(log: (line: string) => void): number {
  const left = descendantsOf(process.pid);
  for (const pid of left) {
    const cmd = commandLineOf(pid);
    try {
      process.kill(pid, 'SIGKILL');
      log(`[test teardown] killed a process the tests left running: ${pid} ${cmd.slice(0, 300)}`);
    } catch {
      /* gone meanwhile */
    }
  }
  return left.length;
}

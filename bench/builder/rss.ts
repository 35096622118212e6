/**
 * Resident set size of other processes, read from `/proc/<pid>/status` every 100 ms: the current RSS (VmRSS, to
 * place a peak in time and under the stage that was running) and the kernel's own high-water mark (VmHWM, which no
 * sampling gap can miss). Linux only, as the machines the benchmark runs on.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const MB = 1e6;

/** VmRSS and VmHWM of `pid` in bytes; null once the process is gone. */
export function readRss(pid: number): { rss: number; hwm: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kib = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) * 1024;
  const rss = kib('VmRSS');
  // A process being created or reaped has no memory lines yet (or any more).
  return Number.isNaN(rss) ? null : { rss, hwm: kib('VmHWM') };
}

/** Process ids of `pid`'s children (all its threads' children). */
export function childPids(pid: number): number[] {
  try {
    const out: number[] = [];
    for (const tid of readdirSafe(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
    return [...new Set(out)];
  } catch {
    return [];
  }
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Resets the kernel's high-water mark of `pid` to its current RSS (writing 5 to `clear_refs`, Linux ≥ 4.0), so a
 * stage's VmHWM is its own rather than an earlier stage's. False where the kernel refuses it.
 */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Peak of one process over one stage, in MB. */
export interface StagePeak {
  /** Highest sampled VmRSS while the stage ran. */
  sampled_peak_mb: number;
  /** The kernel's VmHWM at the end of the stage (since the last reset), or null when the process had ended. */
  hwm_mb: number | null;
  /** VmRSS when the stage began. */
  start_mb: number;
}

/**
 * Samples named processes every `intervalMs` and keeps, per stage label, each process's peak. `stage(label)` starts a
 * new stage (resetting each process's high-water mark) and closes the previous one; `stop()` closes the last.
 */
export class RssSampler {
  private timer: NodeJS.Timeout;
  private current = '';
  private readonly peaks = new Map<string, Record<string, StagePeak>>();
  /** Every sample: wall-clock time (ms since the epoch) and RSS (MB) per process, to place a peak in a job's window. */
  readonly series: { at: number; rss_mb: Record<string, number> }[] = [];

  constructor(
    private readonly pids: Record<string, number>,
    intervalMs = 100,
  ) {
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  /** Adds a process to sample from now on (a worker found after the sampler started). */
  watch(name: string, pid: number): void {
    this.pids[name] = pid;
  }

  /** Closes the running stage (its VmHWM read now) and opens `label`, from the processes' current RSS. */
  stage(label: string): void {
    this.closeStage();
    this.current = label;
    const peaks: Record<string, StagePeak> = {};
    for (const [name, pid] of Object.entries(this.pids)) {
      resetPeak(pid);
      const r = readRss(pid);
      peaks[name] = { sampled_peak_mb: (r?.rss ?? 0) / MB, hwm_mb: null, start_mb: (r?.rss ?? 0) / MB };
    }
    this.peaks.set(label, peaks);
  }

  /** Ends sampling; returns every stage's peaks per process. */
  stop(): Record<string, Record<string, StagePeak>> {
    this.closeStage();
    clearInterval(this.timer);
    this.current = '';
    return Object.fromEntries(this.peaks);
  }

  /** The highest sampled RSS of `name` between two wall-clock times (ms), or null when no sample falls there. */
  peakBetween(name: string, from: number, to: number): number | null {
    let peak: number | null = null;
    for (const s of this.series) if (s.at >= from && s.at <= to && s.rss_mb[name] !== undefined) peak = Math.max(peak ?? 0, s.rss_mb[name]);
    return peak;
  }

  private sample(): void {
    const peaks = this.peaks.get(this.current);
    if (!peaks) return;
    const point: Record<string, number> = {};
    for (const [name, pid] of Object.entries(this.pids)) {
      const r = readRss(pid);
      if (!r) continue;
      point[name] = r.rss / MB;
      const p = (peaks[name] ??= { sampled_peak_mb: 0, hwm_mb: null, start_mb: r.rss / MB });
      p.sampled_peak_mb = Math.max(p.sampled_peak_mb, r.rss / MB);
    }
    this.series.push({ at: Date.now(), rss_mb: point });
  }

  private closeStage(): void {
    const peaks = this.peaks.get(this.current);
    if (!peaks) return;
    this.sample();
    for (const [name, pid] of Object.entries(this.pids)) {
      const r = readRss(pid);
      if (r && peaks[name]) peaks[name].hwm_mb = r.hwm / MB;
    }
  }
}

/** Rounds to one decimal for the result JSON. */
export const round1 = (x: number): number => Math.round(x * 10) / 10;

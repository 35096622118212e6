/**
 * Benchmark (not a test): the builder's engine on a ~1 GB messy CSV. Three stages, each in a fresh child process
 * (engine-stage.ts) whose RSS this process samples every 100 ms from /proc, per operation where the engine reports
 * progress:
 *
 * 1. `ingestFile`: the CSV → canonical Parquet (what an upload does);
 * 2. `executeOperations` with the five-operation recipe (recipe.ts) → Parquet;
 * 3. the peer: the same recipe as hand-written DuckDB SQL under the same memory limit (peer.ts).
 *
 *   nice -n 19 node <build>/bench/builder/run-engine.js [rows=9500000] [csv; default /tmp/mlsvc-bench/builder-<rows>.csv]
 *
 * The CSV is generated once and reused. Result: bench/results/builder/engine-<rows>.json.
 */
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import type { IngestOutcome, StageMessage } from './engine-stage';
import { DEFAULT_ROWS, ensureMessyCsv } from './generate';
import { machineInfo } from './machine';
import { recipeOperations } from './recipe';
import { round1, RssSampler, StagePeak } from './rss';

/** The repository: this file compiles to <repo>/<build folder>/bench/builder/run-engine.js. */
const repoRoot = resolve(__dirname, '..', '..', '..');

interface StageRun {
  seconds: number;
  cpu_seconds: number;
  /**
   * The stage's peak: the highest of its intervals' sampled RSS and VmHWM. Not the child's getrusage maxRSS: resetting
   * VmHWM per interval (clear_refs) resets the mark maxRSS is taken from, so at exit it holds the last interval's.
   */
  peak_rss_mb: number;
  /** Per progress interval (label: the engine's progress message that opened it): sampled peak and VmHWM. */
  intervals: { label: string; at_s: number; rss: StagePeak }[];
  result: unknown;
}

/** Runs one stage in a child process, sampling its RSS; a progress message opens a new sampling interval. */
function runStage(stage: string, a: string, b: string): Promise<StageRun> {
  const child = fork(join(__dirname, 'engine-stage.js'), [stage, a, b], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const sampler = new RssSampler({ [stage]: child.pid ?? 0 });
  const t0 = performance.now();
  const labels: { label: string; at_s: number }[] = [{ label: 'start', at_s: 0 }];
  sampler.stage('start');
  return new Promise((res, rej) => {
    let done: Extract<StageMessage, { kind: 'done' }> | undefined;
    child.on('message', (m: StageMessage) => {
      if (m.kind === 'progress') {
        const label = `${m.done}/${m.total} ${m.message}`;
        labels.push({ label, at_s: (performance.now() - t0) / 1000 });
        sampler.stage(label);
        console.log(`  [${stage}] ${((performance.now() - t0) / 1000).toFixed(1)} s  ${label}`);
      } else if (m.kind === 'done') {
        done = m;
      } else {
        rej(new Error(`${stage} failed: ${m.message}`));
      }
    });
    child.on('exit', (code) => {
      const peaks = sampler.stop();
      if (!done) return rej(new Error(`${stage} exited with ${code} before finishing`));
      const intervals = labels.map((l) => ({ ...l, rss: peaks[l.label]?.[stage] }));
      res({
        seconds: done.seconds,
        cpu_seconds: done.cpuSeconds,
        peak_rss_mb: Math.max(done.maxRssMb, ...intervals.map((i) => Math.max(i.rss?.sampled_peak_mb ?? 0, i.rss?.hwm_mb ?? 0))),
        intervals,
        result: done.result,
      });
    });
  });
}

function printStage(name: string, r: StageRun): void {
  console.log(`${name}: ${r.seconds.toFixed(1)} s wall, ${r.cpu_seconds.toFixed(1)} CPU-s, peak RSS ${r.peak_rss_mb.toFixed(0)} MB`);
  for (const i of r.intervals) {
    if (i.rss) console.log(`    ${i.at_s.toFixed(1).padStart(6)} s  ${i.label.padEnd(48)} sampled peak ${i.rss.sampled_peak_mb.toFixed(0)} MB, VmHWM ${i.rss.hwm_mb?.toFixed(0) ?? '-'} MB`);
  }
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? DEFAULT_ROWS);
  const csv = process.argv[3] ?? join('/tmp', 'mlsvc-bench', `builder-${rows}.csv`);
  mkdirSync(join(csv, '..'), { recursive: true });
  const machine = machineInfo();
  const tg = performance.now();
  const bytes = await ensureMessyCsv(csv, rows);
  console.log(`csv: ${csv} (${rows} rows, ${(bytes / 1e9).toFixed(2)} GB; ready in ${((performance.now() - tg) / 1000).toFixed(1)} s)`);

  const work = mkdtempSync(join(os.tmpdir(), 'bench-builder-'));
  try {
    const ingest = await runStage('ingest', csv, join(work, 'ingest'));
    printStage('ingestFile', ingest);
    const table = ingest.result as IngestOutcome;
    const out = join(work, 'recipe.parquet');
    const execute = await runStage('execute', table.parquetPath, out);
    printStage('executeOperations (5 operations)', execute);
    const outBytes = statSync(out).size;
    rmSync(out, { force: true });
    const peer = await runStage('peer', table.parquetPath, join(work, 'peer.parquet'));
    printStage('peer: hand-written DuckDB SQL', peer);

    const result = {
      what: 'builder engine: 1 GB messy CSV → ingestFile → executeOperations (5 operations), against hand-written DuckDB SQL',
      machine,
      loadavg_at_end: os.loadavg().map((x) => Math.round(x * 100) / 100),
      csv: { path: csv, rows, bytes },
      table: { rows: table.rows, columns: table.columns, stored_bytes: table.storedBytes, dtypes: table.dtypes },
      recipe: recipeOperations(),
      ingest: { ...ingest, result: undefined },
      execute: { ...execute, output_bytes: outBytes },
      peer,
      ratio_execute_vs_peer: round1((execute.seconds / peer.seconds) * 100) / 100,
      at: new Date().toISOString(),
    };
    console.log(`executeOperations / peer: ${result.ratio_execute_vs_peer}x`);
    const outDir = join(repoRoot, 'bench', 'results', 'builder');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, `engine-${rows}.json`), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

/**
 * Child process of the builder benchmark's engine run: one stage per process, so its RSS is the stage's own and not
 * what an earlier stage left in the allocator. The parent (run-engine.ts) samples this process from outside.
 *
 *   node engine-stage.js ingest <csv> <dir>         ingestFile: CSV → canonical Parquet
 *   node engine-stage.js execute <in> <out>         executeOperations: the recipe (recipe.ts) → Parquet
 *   node engine-stage.js peer <in> <out>            the same five operations as DuckDB SQL written by hand (peer.ts)
 *
 * Progress and the result go to the parent over IPC.
 */
import { executeOperations, type ExecutionSummary } from '../../engine/builder';
import { ingestFile } from '../../engine/data';
import { runPeer } from './peer';
import { recipeOperations } from './recipe';

export type StageMessage =
  { kind: 'progress'; done: number; total: number; message: string } | { kind: 'done'; seconds: number; cpuSeconds: number; maxRssMb: number; result: unknown } | { kind: 'error'; message: string };

function send(m: StageMessage): void {
  process.send?.(m);
}

/** Parquet written by an ingest stage: what the next stages read. */
export interface IngestOutcome {
  rows: number;
  columns: number;
  parquetPath: string;
  storedBytes: number;
  dtypes: Record<string, string>;
}

async function run(stage: string, a: string, b: string): Promise<unknown> {
  if (stage === 'ingest') {
    const r = await ingestFile(a, b);
    return {
      rows: r.row_count,
      columns: r.column_count,
      parquetPath: r.parquet_path,
      storedBytes: r.stored_bytes,
      dtypes: Object.fromEntries(r.columns.map((c) => [c.name, c.dtype])),
    } satisfies IngestOutcome;
  }
  if (stage === 'execute') {
    const summary: ExecutionSummary = await executeOperations({
      input: a,
      output: b,
      operations: recipeOperations(),
      onProgress: (done, total, message) => send({ kind: 'progress', done, total, message }),
    });
    return summary;
  }
  if (stage === 'peer') return runPeer(a, b);
  throw new Error(`unknown stage ${stage}`);
}

async function main(): Promise<void> {
  const [stage, a, b] = process.argv.slice(2);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await run(stage, a, b);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  // maxRSS (KiB): the kernel's peak since the parent last reset it (rss.ts `resetPeak`); the parent also samples.
  send({ kind: 'done', seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, maxRssMb: (process.resourceUsage().maxRSS * 1024) / 1e6, result });
  process.disconnect?.();
}

main().catch((err: unknown) => {
  send({ kind: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exitCode = 1;
  process.disconnect?.();
});

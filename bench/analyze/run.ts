/**
 * Benchmark (not a test): analyze() vs DuckDB SUMMARIZE of the same stored Parquet, in the same run.
 *
 * The Parquet is the service's stored form of the ingest benchmark's CSV (bench/ingest/generate.ts), made once with
 * ingestFile and reused. It is moved into place after ingesting, so analyze() starts cold (no dtypes remembered
 * from the ingest), as when a client asks for statistics of a stored version.
 *
 * Usage: node <build>/bench/analyze/run.js [rows=10000000] [parquet path]
 * Result JSON: bench/results/analyze.json.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { analyze, ingestFile } from '../../engine/data';
import { ensureCsv } from '../ingest/generate';
import { summarizeParquet, timeDuckDb } from '../ingest/peers';

/** The repository: this file compiles to <repo>/<build folder>/bench/analyze/run.js. */
const repoRoot = resolve(__dirname, '..', '..', '..');

async function ensureParquet(rows: number, pq: string): Promise<void> {
  if (existsSync(pq)) return;
  const dir = join(pq, '..');
  mkdirSync(dir, { recursive: true });
  const csv = join(dir, `bench-${rows}.csv`);
  await ensureCsv(csv, rows);
  const staging = join(dir, `ingest-${rows}`);
  const res = await ingestFile(csv, staging);
  renameSync(res.parquet_path, pq);
  rmSync(staging, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 10_000_000);
  const pq = process.argv[3] ?? join('/tmp', 'mlsvc-bench', `bench-${rows}.parquet`);
  await ensureParquet(rows, pq);

  // Warm the page cache so neither side pays for the first read.
  await timeDuckDb([`SELECT count(*) FROM read_parquet('${pq.replace(/'/g, "''")}')`]);
  const summarize = await timeDuckDb(summarizeParquet(pq));
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const t0 = performance.now();
  const profile = await analyze(pq);
  const ours = (performance.now() - t0) / 1000;
  clearInterval(sampler);

  const result = {
    rows: profile.row_count,
    columns: Object.keys(profile.columns).length,
    parquet: pq,
    analyze_s: ours,
    duckdb_summarize_s: summarize,
    ratio: ours / summarize,
    peak_rss_mb: peak / 1e6,
    at: new Date().toISOString(),
  };
  console.log(`rows: ${result.rows}, columns: ${result.columns}`);
  console.log(`analyze: ${ours.toFixed(2)} s, DuckDB SUMMARIZE: ${summarize.toFixed(2)} s, ratio ${result.ratio.toFixed(2)}`);
  console.log(`peak RSS (sampled): ${result.peak_rss_mb.toFixed(0)} MB`);
  const outDir = join(repoRoot, 'bench', 'results');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'analyze.json'), `${JSON.stringify(result, null, 2)}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

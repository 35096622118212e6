/**
 * Benchmark (not a test): analyze() vs DuckDB SUMMARIZE on the same Parquet file.
 * Usage: node .build-data/bench/analyze/run.js PATH.csv|PATH.parquet
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { ingestFile } from '../../engine/data/ingest';
import { analyze } from '../../engine/data/profile';

async function main(): Promise<void> {
  const src = process.argv[2] ?? '/work/shared/datasets/diamonds.csv';
  const dir = mkdtempSync(join(tmpdir(), 'bench-analyze-'));
  try {
    const { parquet_path: pq, row_count: rows } = await ingestFile(src, join(dir, 'out'));
    const t0 = performance.now();
    const inst = await DuckDBInstance.create(':memory:');
    const conn = await inst.connect();
    await conn.runAndReadAll(`SUMMARIZE SELECT * FROM read_parquet('${pq}')`);
    conn.closeSync();
    inst.closeSync();
    const summarize = performance.now() - t0;
    const t1 = performance.now();
    await analyze(pq);
    const ours = performance.now() - t1;
    console.log(`${rows} rows: SUMMARIZE ${summarize.toFixed(0)} ms, analyze ${ours.toFixed(0)} ms, ratio ${(ours / summarize).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();

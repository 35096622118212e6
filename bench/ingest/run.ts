/**
 * Benchmark (not a test): ingestFile vs DuckDB reading the same CSV directly.
 * Usage: node .build-data/bench/ingest/run.js [rows=10000000]   (~85 bytes/row → ~0.85 GB at 10M rows)
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { ingestFile } from '../../engine/data/ingest';

async function generate(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('id,amount,ratio,flag,category,created,note\n');
  const cats = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
  let buf = '';
  for (let i = 0; i < rows; i++) {
    const ts = new Date(1_600_000_000_000 + i * 1000).toISOString().slice(0, 19).replace('T', ' ');
    buf += `${i},${(i * 7919) % 100000},${((i % 1000) / 997).toFixed(6)},${i % 3 === 0 ? 'true' : 'false'},${cats[i % 5]},${ts},"note ${i % 10007}, free text"\n`;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 10_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'bench-ingest-'));
  try {
    const csv = join(dir, 'data.csv');
    await generate(csv, rows);
    console.log(`generated ${rows} rows, ${(statSync(csv).size / 1e9).toFixed(2)} GB`);
    let peak = process.memoryUsage().rss;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);

    const t0 = performance.now();
    const inst = await DuckDBInstance.create(':memory:');
    const conn = await inst.connect();
    await conn.runAndReadAll(`SELECT count(*) FROM read_csv('${csv}')`);
    conn.closeSync();
    inst.closeSync();
    const direct = performance.now() - t0;

    const t1 = performance.now();
    const res = await ingestFile(csv, join(dir, 'out'));
    const ingest = performance.now() - t1;
    clearInterval(timer);
    console.log(`duckdb count(*) read_csv: ${(direct / 1000).toFixed(2)} s`);
    console.log(`ingestFile: ${(ingest / 1000).toFixed(2)} s (${res.row_count} rows, parquet ${(res.stored_bytes / 1e6).toFixed(1)} MB)`);
    console.log(`ratio ingest/direct: ${(ingest / direct).toFixed(2)}`);
    console.log(`peak RSS: ${(peak / 1e6).toFixed(0)} MB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();

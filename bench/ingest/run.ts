/**
 * Benchmark (not a test): uploading a generated mixed-type CSV through the real HTTP API, timed against DuckDB
 * reading the same file in the same run.
 *
 * The API runs in a child process (api-server.ts) so its peak RSS is its own (the embedded database is its own server
 * process, as an external PostgreSQL would be); the upload streams from disk with
 * a declared Content-Length. The timed span is the whole request: multipart receive → ingestFile → move into the
 * artifact store → its hash and qualityReport side by side → database rows → 201. The API's CPU time over the
 * request is reported too: on a shared machine it drifts less than wall time. Peers: DuckDB `CREATE TABLE AS SELECT * FROM read_csv_auto(...)`
 * (the target's yardstick) and `COPY (SELECT * FROM read_csv_auto(...)) TO 'x.parquet'`.
 *
 * Usage: node <build>/bench/ingest/run.js [rows=10000000] [csv path; default /tmp/mlsvc-bench/bench-<rows>.csv]
 * The CSV is generated once and reused. Result JSON: bench/results/ingest.json.
 */
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FromServer, ToServer } from './api-server';
import { startEmbeddedPostgres } from '../../platform/embedded-postgres';
import { createLogger } from '../../platform/logger';
import { ensureCsv } from './generate';
import { login, postJson, uploadMultipart } from './http-client';
import { csvToParquet, materializeCsv, timeDuckDb } from './peers';

const TARGET_RATIO = 1.5;
const TARGET_RSS_BYTES = 1e9;

/** The repository: this file compiles to <repo>/<build folder>/bench/ingest/run.js. */
const repoRoot = resolve(__dirname, '..', '..', '..');

function startServer(dataDir: string, databaseUrl: string): Promise<{ port: number; email: string; password: string; ask: (m: ToServer) => Promise<FromServer>; child: ReturnType<typeof fork> }> {
  const child = fork(join(__dirname, 'api-server.js'), [], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      MAX_DATASET_UPLOAD_BYTES: String(64 * 1024 ** 3),
      RECONCILE_INTERVAL_SECS: '0',
      RATE_LIMIT_GENERAL: '100000',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = (): Promise<FromServer> =>
    new Promise((res, rej) => {
      child.once('message', (m: FromServer) => res(m));
      child.once('exit', (code) => rej(new Error(`API process exited with ${code}`)));
    });
  return next().then((m) => {
    if (m.kind !== 'ready') throw new Error(`API process failed: ${m.kind === 'error' ? m.message : m.kind}`);
    const ask = (q: ToServer): Promise<FromServer> => {
      const p = next();
      child.send(q);
      return p;
    };
    return { port: m.port, email: m.email, password: m.password, ask, child };
  });
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 10_000_000);
  const csv = process.argv[3] ?? join('/tmp', 'mlsvc-bench', `bench-${rows}.csv`);
  mkdirSync(join(csv, '..'), { recursive: true });
  const tg = performance.now();
  const bytes = await ensureCsv(csv, rows);
  console.log(`csv: ${csv} (${rows} rows, ${(bytes / 1e9).toFixed(2)} GB; ready in ${((performance.now() - tg) / 1000).toFixed(1)} s)`);

  const work = mkdtempSync(join(tmpdir(), 'bench-ingest-'));
  try {
    // Same page-cache state for everyone: the first read of the file is not timed.
    await timeDuckDb([`SELECT count(*) FROM read_csv_auto('${csv.replace(/'/g, "''")}')`]);
    const duckTable = await timeDuckDb(materializeCsv(csv));
    const duckParquet = await timeDuckDb(csvToParquet(csv, join(work, 'peer.parquet')));
    rmSync(join(work, 'peer.parquet'), { force: true });

    const pg = await startEmbeddedPostgres({ dir: join(work, 'pg'), port: 0, log: createLogger('warn', 'bench-pg') });
    const server = await startServer(join(work, 'api-data'), pg.url);
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const session = await login(base, server.email, server.password);
      const project = await postJson<{ id: string }>(session, '/api/projects', { name: 'Bench' });
      const baseRss = await server.ask({ cmd: 'rss' });
      const t0 = performance.now();
      const res = await uploadMultipart(session, '/api/datasets/upload', { project_id: project.id, name: 'bench' }, csv);
      const uploadS = (performance.now() - t0) / 1000;
      if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.body.slice(0, 500)}`);
      const body = JSON.parse(res.body) as { row_count: number; column_count: number; quality: { overall_score: number } };
      const rss = await server.ask({ cmd: 'rss' });
      const peak = rss.kind === 'rss' ? rss.maxRssBytes : NaN;
      const apiCpuS = rss.kind === 'rss' && baseRss.kind === 'rss' ? rss.cpuSeconds - baseRss.cpuSeconds : NaN;
      const idle = baseRss.kind === 'rss' ? baseRss.maxRssBytes : NaN;

      const result = {
        rows: body.row_count,
        columns: body.column_count,
        csv_bytes: bytes,
        upload_ingest_s: uploadS,
        duckdb_create_table_s: duckTable,
        duckdb_copy_parquet_s: duckParquet,
        ratio_vs_create_table: uploadS / duckTable,
        ratio_vs_copy_parquet: uploadS / duckParquet,
        api_cpu_s: apiCpuS,
        api_peak_rss_mb: peak / 1e6,
        api_rss_before_upload_mb: idle / 1e6,
        quality_score: body.quality.overall_score,
        targets: { ratio: TARGET_RATIO, rss_mb: TARGET_RSS_BYTES / 1e6 },
        met: { ratio: uploadS / duckTable <= TARGET_RATIO, rss: peak < TARGET_RSS_BYTES },
        at: new Date().toISOString(),
      };
      console.log(`rows: ${result.rows}, columns: ${result.columns}, file: ${(bytes / 1e9).toFixed(2)} GB`);
      console.log(`upload+ingest over HTTP: ${uploadS.toFixed(2)} s`);
      console.log(`duckdb CREATE TABLE AS read_csv_auto: ${duckTable.toFixed(2)} s  (ratio ${result.ratio_vs_create_table.toFixed(2)}, target ≤ ${TARGET_RATIO})`);
      console.log(`duckdb COPY read_csv_auto TO parquet: ${duckParquet.toFixed(2)} s  (ratio ${result.ratio_vs_copy_parquet.toFixed(2)})`);
      console.log(`API CPU time during the upload: ${apiCpuS.toFixed(2)} s (all threads)`);
      console.log(`API peak RSS: ${result.api_peak_rss_mb.toFixed(0)} MB (before upload ${result.api_rss_before_upload_mb.toFixed(0)} MB; target < ${TARGET_RSS_BYTES / 1e6} MB)`);
      const outDir = join(repoRoot, 'bench', 'results');
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, 'ingest.json'), `${JSON.stringify(result, null, 2)}\n`);
    } finally {
      server.child.send({ cmd: 'stop' } satisfies ToServer);
      await new Promise((r) => server.child.once('exit', r));
      await pg.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

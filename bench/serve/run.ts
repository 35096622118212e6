/**
 * Benchmark (not a test): single-row predictions of a production deployment
 * (`POST /api/mlops/deployments/{id}/predict`, inference logging on, inputs stored too) from the
 * Go load process at 1/4/16/64 requests in flight and an open loop at 500/s, beside a hello-world
 * Koa server in its own process (the floor) and MLflow's scoring server on an equivalent LightGBM
 * model, in the same run. Then checks that every request sent to the deployment left one row in
 * inference_logs.
 *
 *   npm run build && node dist/bench/serve/run.js [seconds=10] [--no-mlflow]   # → bench/results/serve.json
 *
 * The service runs on the real stack the tests use (bench/support/serving.ts).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../platform/temporal-dev';
import { buildLoadgen, killGroup, LevelsRun, LoadResult, openLevel, peakRps, runLevels, startMlflow, startServiceBench, Target, TITANIC_ROW, whenReady, writeResults } from '../support/serving';
import type { ServiceBench } from '../support/serving';

/** The inference log is flushed every 200 ms: wait this long, then read the rows until their count holds. */
const FLUSH_WAIT_MS = 1_000;

interface LogCount {
  sent: number;
  sentErrors: number;
  rows: number;
  rowsWithInputs: number;
  rowsByStatus: Record<string, number>;
  apiTotal: number;
  equal: boolean;
}

/** The deployment's rows in inference_logs (read from PostgreSQL, and the API's list `total`) against what was sent. */
async function countLogs(bench: ServiceBench, deploymentId: string, run: LevelsRun): Promise<LogCount> {
  const count = async () => {
    const rows: { status_code: number; n: number; with_inputs: number }[] = await bench.stack.ds.query(
      'SELECT status_code, count(*)::int AS n, (count(*) FILTER (WHERE inputs IS NOT NULL))::int AS with_inputs FROM inference_logs WHERE deployment_id = $1 GROUP BY 1',
      [deploymentId],
    );
    return rows;
  };
  await new Promise((r) => setTimeout(r, FLUSH_WAIT_MS));
  let before = -1;
  let byStatus = await count();
  const total = (rs: typeof byStatus) => rs.reduce((n, r) => n + r.n, 0);
  while (total(byStatus) !== before) {
    before = total(byStatus);
    await new Promise((r) => setTimeout(r, 500));
    byStatus = await count();
  }
  const api = await bench.client.get(`/api/mlops/deployments/${deploymentId}/inference-logs?limit=1`);
  const rows = total(byStatus);
  return {
    sent: run.sent,
    sentErrors: run.sentErrors,
    rows,
    rowsWithInputs: byStatus.reduce((n, r) => n + r.with_inputs, 0),
    rowsByStatus: Object.fromEntries(byStatus.map((r) => [String(r.status_code), r.n])),
    apiTotal: api.body.total as number,
    equal: rows === run.sent && api.body.total === run.sent,
  };
}

/** The hello-world Koa server (bench/serve/floor.ts) in its own Node process. */
async function startFloor(): Promise<{ target: Target; stop(): void }> {
  const port = await freePort();
  const p = spawn(process.execPath, [path.join(__dirname, 'floor.js'), String(port)], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  await whenReady(p, 'floor').catch((err) => {
    killGroup(p);
    throw err;
  });
  return { target: { label: 'floor', url: `http://127.0.0.1:${port}/predict`, body: { inputs: TITANIC_ROW }, headers: {} }, stop: () => killGroup(p) };
}

function printTable(runs: { label: string; levels: LoadResult[] }[]): void {
  console.log('\n| load | server | req/s | p50 ms | p99 ms | p99.9 ms | errors | load average |\n|---|---|---|---|---|---|---|---|');
  for (const [i, first] of runs[0].levels.entries())
    for (const { label, levels } of runs) {
      const r = levels[i];
      console.log(
        `| ${first.mode === 'closed' ? `${first.level} in flight` : `open ${first.level}/s`} | ${label} | ${r.rps.toFixed(0)} | ${r.p50_ms.toFixed(2)} | ${r.p99_ms.toFixed(2)} | ${r.p999_ms.toFixed(2)} | ${r.errors} | ${r.loadavg1.toFixed(2)} |`,
      );
    }
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 10);
  const withMlflow = !process.argv.includes('--no-mlflow');
  await buildLoadgen();
  const bench = await startServiceBench();
  const stops: (() => void)[] = [];
  try {
    const { client, modelId, projectId, stack } = bench;
    const dep = await client.post(`/api/mlops/projects/${projectId}/deployments`, { model_id: modelId, name: 'bench', stage: 'production', store_payload: true });
    if (dep.status !== 201) throw new Error(`deployment failed ${dep.status} ${JSON.stringify(dep.body)}`);
    const deploymentId = dep.body.id as string;
    const key = (await client.post('/api/auth/api-keys', { name: 'bench', scopes: ['predict:deployments'] })).body.api_key as string;
    const targets: Target[] = [{ label: 'service', url: `${stack.baseUrl}/api/mlops/deployments/${deploymentId}/predict`, body: { inputs: TITANIC_ROW }, headers: { authorization: `Bearer ${key}` } }];
    const floor = await startFloor();
    stops.push(floor.stop);
    targets.push(floor.target);
    if (withMlflow) {
      const mlflow = await startMlflow();
      stops.push(mlflow.stop);
      targets.push(mlflow.target);
    }

    const [service, floorRun, mlflowRun] = await runLevels(targets, seconds);
    // The API runs in this process: its CPU per request over the service's levels (all threads).
    const sum = (k: 'cpu_user_us' | 'cpu_system_us' | 'sent') => service.levels.reduce((n, r) => n + r[k], 0);
    const apiCpuUsPerRequest = { user: sum('cpu_user_us') / sum('sent'), system: sum('cpu_system_us') / sum('sent') };
    const logs = await countLogs(bench, deploymentId, service);

    printTable([{ label: 'service', levels: service.levels }, { label: 'floor', levels: floorRun.levels }, ...(mlflowRun ? [{ label: 'MLflow', levels: mlflowRun.levels }] : [])]);
    console.log(
      `\ninference logs: ${logs.rows} rows (${logs.rowsWithInputs} with inputs; by status ${JSON.stringify(logs.rowsByStatus)}; API list total ${logs.apiTotal}) for ${logs.sent} requests sent (${logs.sentErrors} failed): ${logs.equal ? 'equal' : 'NOT EQUAL'}`,
    );
    console.log(`API CPU over the service's levels, per request: ${apiCpuUsPerRequest.user.toFixed(0)} µs user, ${apiCpuUsPerRequest.system.toFixed(0)} µs system`);
    const open = openLevel(service.levels);
    const peak = peakRps(service.levels);
    const ratios = {
      p99_at_open_ms: open.p99_ms,
      open_rps: open.rps,
      p99_target_met: open.level === 500 && open.p99_ms < 5,
      service_over_floor: peak / peakRps(floorRun.levels),
      service_over_mlflow: mlflowRun ? peak / peakRps(mlflowRun.levels) : null,
    };
    console.log(`service p99 ${open.p99_ms.toFixed(2)} ms at ${open.rps.toFixed(0)} req/s (open ${open.level}/s; target < 5 ms at 500): ${ratios.p99_target_met ? 'met' : 'MISSED'}`);
    console.log(`peak throughput: service ${peak.toFixed(0)}, floor ${peakRps(floorRun.levels).toFixed(0)} req/s: ${(100 * ratios.service_over_floor).toFixed(0)}% of the floor (target >= 25%)`);
    if (mlflowRun) console.log(`peak throughput: MLflow ${peakRps(mlflowRun.levels).toFixed(0)} req/s: service/MLflow ${ratios.service_over_mlflow!.toFixed(1)}x (target >= 10x)`);
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    writeResults('serve', { seconds, service: service.levels, floor: floorRun.levels, mlflow: mlflowRun?.levels ?? null, inference_logs: logs, api_cpu_us_per_request: apiCpuUsPerRequest, ratios });
  } finally {
    for (const stop of stops) stop();
    await bench.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

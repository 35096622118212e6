/**
 * Alert evaluation time: one cycle of a project's 100 rules over 1M inference-log rows (the target: under 5 s
 * per cycle on 2 cores). Needs a PostgreSQL server (DATABASE_URL, a role that may create databases and set
 * session_replication_role); a throwaway database is created, migrated, seeded and dropped.
 *
 *   node .build-perf/bench/alerts/run.js [rows=1000000] [rules=100] [deployments=10]   # → bench/results/alerts.json
 *
 * The rows span the last 24 hours over the deployments (2% errors, log-normal latencies); the rules mix the metrics
 * read from the logs and the jobs (error_rate, latency_p95, latency_p99, request_volume, job_failures) over windows of
 * 5, 15, 60 and 1440 minutes, one deployment each or the whole project, with thresholds that make about a third fire.
 * The model metrics (drift_psi, prediction_anomaly, accuracy_degradation) read at most a few thousand rows of one
 * deployment's window (capped in activities/alerts-evaluate/model-metrics.ts) and need a trained model: not here.
 * Printed: the first cycle (alerts created, notifications owed) and the steady cycles after it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { evaluateProject, type EvaluationDeps } from '../../activities/alerts-evaluate/evaluate';
import { ALERT_METRICS } from '../../entities';
import { connectAndMigrate, createDataSource } from '../../platform/database';
import { createLogger } from '../../platform/logger';
import { seeded } from '../support/seeded';

const [rowsArg, rulesArg, deploymentsArg] = process.argv.slice(2);
const ROWS = Number(rowsArg ?? 1_000_000);
const RULES = Number(rulesArg ?? 100);
const DEPLOYMENTS = Number(deploymentsArg ?? 10);
const METRICS = ['error_rate', 'latency_p95', 'latency_p99', 'request_volume', 'job_failures'] as const satisfies readonly (typeof ALERT_METRICS)[number][];
const THRESHOLDS: Record<(typeof METRICS)[number], [number, number]> = { error_rate: [0.01, 0.05], latency_p95: [20, 200], latency_p99: [40, 400], request_volume: [100, 1e9], job_failures: [0, 100] };
const WINDOWS = [5, 15, 60, 1440];

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL (a PostgreSQL server) is required');
  const dbName = `bench_alerts_${randomBytes(4).toString('hex')}`;
  const admin = new PgClient({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const ds = createDataSource({ url: u.toString(), poolSize: 5 });
  try {
    await connectAndMigrate(ds);
    const { projectId, seedSecs } = await seed(u.toString());
    console.log(`seeded ${ROWS} inference logs over ${DEPLOYMENTS} deployments and ${RULES} rules in ${seedSecs.toFixed(1)} s`);
    const log = createLogger('warn', 'bench');
    // Only the log and job metrics run here: the model sources are never reached.
    const deps: EvaluationDeps = { ds, serving: undefined as never, datasetVersions: undefined as never, log, appBaseUrl: 'http://bench' };
    const cycles: { secs: number; notifications: number }[] = [];
    for (let i = 0; i < 4; i++) {
      const t0 = performance.now();
      const r = await evaluateProject(deps, projectId, new Date());
      cycles.push({ secs: (performance.now() - t0) / 1000, notifications: r.notificationIds.length });
      console.log(`cycle ${i + 1}: ${cycles[i].secs.toFixed(3)} s, ${r.rules} rules, ${r.notificationIds.length} notifications owed`);
    }
    const [firing]: { n: number }[] = await ds.query(`SELECT count(*)::int AS n FROM alerts WHERE state = 'firing'`);
    const result = { date: new Date().toISOString(), rows: ROWS, rules: RULES, deployments: DEPLOYMENTS, firing: firing.n, cycles, target_secs: 5 };
    fs.mkdirSync(path.join(__dirname, '..', '..', '..', 'bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join(__dirname, '..', '..', '..', 'bench', 'results', 'alerts.json'), `${JSON.stringify(result, null, 1)}\n`);
    console.log(JSON.stringify(result));
  } finally {
    await ds.destroy();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

/** The rows, in a few INSERT … SELECT generate_series; foreign keys off for the session (no models to train). */
async function seed(url: string): Promise<{ projectId: string; seedSecs: number }> {
  const t0 = performance.now();
  const c = new PgClient({ connectionString: url });
  await c.connect();
  await c.query('SET session_replication_role = replica');
  const userId = randomUUID();
  const projectId = randomUUID();
  await c.query(`INSERT INTO users (id, email, name, password_hash) VALUES ($1, 'bench@example.test', 'Bench', 'x')`, [userId]);
  await c.query(`INSERT INTO projects (id, name, owner_id) VALUES ($1, 'bench', $2)`, [projectId, userId]);
  const deployments = Array.from({ length: DEPLOYMENTS }, () => randomUUID());
  const modelId = randomUUID();
  for (const [i, id] of deployments.entries()) {
    await c.query(`INSERT INTO deployments (id, project_id, model_id, name, stage, is_active, traffic_percent, config) VALUES ($1, $2, $3, $4, 'staging', true, 100, '{}')`, [
      id,
      projectId,
      modelId,
      `d${i}`,
    ]);
  }
  await c.query(
    `INSERT INTO inference_logs (deployment_id, requested_deployment_id, model_id, project_id, request_id, latency_ms, status_code, prediction, created_at)
     SELECT d, d, $2, $3, 'r' || g, exp(2 + random()), CASE WHEN random() < 0.02 THEN 500 ELSE 200 END, '"pos"'::jsonb,
            now() - (random() * interval '24 hours')
       FROM generate_series(1, $1) g, LATERAL (SELECT ($4::uuid[])[1 + (g % $5)] AS d) x`,
    [ROWS, modelId, projectId, deployments, DEPLOYMENTS],
  );
  await c.query(
    `INSERT INTO jobs (id, project_id, kind, status, workflow_id, task_queue, finished_at)
     SELECT gen_random_uuid(), $1, 'drift_compute', CASE WHEN g % 5 = 0 THEN 'failed' ELSE 'succeeded' END, 'wf-' || g, 'q', now() - (random() * interval '24 hours')
       FROM generate_series(1, 500) g`,
    [projectId],
  );
  const rnd = seeded(30);
  for (let i = 0; i < RULES; i++) {
    const metric = METRICS[i % METRICS.length];
    const [low, high] = THRESHOLDS[metric];
    await c.query(
      `INSERT INTO alert_rules (project_id, deployment_id, name, metric, operator, threshold, window_minutes, min_samples, severity, cooldown_minutes)
       VALUES ($1, $2, $3, $4, 'gt', $5, $6, 10, 'warning', 60)`,
      [projectId, i % 7 === 0 ? null : deployments[i % DEPLOYMENTS], `rule ${i}`, metric, rnd() < 0.35 ? low : high, WINDOWS[Math.floor(rnd() * WINDOWS.length)]],
    );
  }
  // As autovacuum leaves an append-only table: statistics, and pages marked all-visible (index-only scans).
  await c.query('VACUUM ANALYZE');
  await c.end();
  return { projectId, seedSecs: (performance.now() - t0) / 1000 };
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

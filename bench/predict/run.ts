/**
 * Benchmark (not a test): single-row HTTP predictions of a trained GBM, from a separate load
 * process, at increasing concurrency and at a fixed 500 requests/second, side by side with
 * MLflow's scoring server serving an equivalent LightGBM model in the same run.
 *
 *   pip install mlflow lightgbm scikit-learn pandas   (or a venv in ~/.cache/mlsvc/venv-bench)
 *   npm run build && node dist/bench/predict/run.js [seconds=10] [--service-only]
 *
 * The load process is bench/predict/loadgen (Go, built here with `go build`).
 *
 * The service runs on the real stack the tests use (PostgreSQL, Temporal dev server, a
 * worker), authenticated with an API key; rate limits are raised by configuration.
 */
import { buildLoadgen, openLevel, peakRps, runLevels, startMlflow, startServiceBench, TITANIC_ROW, writeResults } from '../support/serving';

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 10);
  const withMlflow = !process.argv.includes('--service-only');
  await buildLoadgen();
  const bench = await startServiceBench();
  let mlflow: { stop(): void } | undefined;
  try {
    const { client, modelId, stack } = bench;
    const key = (await client.post('/api/auth/api-keys', { name: 'bench', scopes: ['predict:models'] })).body.api_key as string;
    const [ours] = (
      await runLevels([{ label: 'service', url: `${stack.baseUrl}/api/models/${modelId}/predict`, body: { inputs: TITANIC_ROW }, headers: { authorization: `Bearer ${key}` } }], seconds)
    ).map((r) => r.levels);

    if (!withMlflow) return;
    const m = await startMlflow();
    mlflow = m;
    const [theirs] = (await runLevels([m.target], seconds)).map((r) => r.levels);

    const open = openLevel(ours);
    console.log(
      `\nservice: p99 ${open.p99_ms.toFixed(2)} ms at ${open.rps.toFixed(0)} req/s (target < 5 ms at 500); peak throughput ${peakRps(ours).toFixed(0)} vs MLflow ${peakRps(theirs).toFixed(0)} req/s: ratio ${(peakRps(ours) / peakRps(theirs)).toFixed(1)}x (target >= 10x)`,
    );
    writeResults('predict', { seconds, service: ours, mlflow: theirs });
  } finally {
    mlflow?.stop();
    await bench.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

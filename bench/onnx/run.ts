/**
 * Benchmark (not a test): scoring a 100-tree model (XGBoost-style, depth 6, binary, 28 float
 * features) one row at a time and in 10k-row batches, through onnxruntime-node (the serving path:
 * engine/serving's OnnxSessionPool, one intra-op thread) and through the TypeScript scorer
 * (`model.predict`). Prints p50/p99 latency per call and rows per second for each.
 *
 * The model is trained on the first 200k rows of the bench/gbdt data (make_data.py; default
 * /tmp/gbdt/data.f32) and scored on rows it did not see.
 *
 * Usage: node <build>/bench/onnx/run.js [data.f32] [single-row calls=5000] [batches=40]
 * Result JSON: bench/results/onnx.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Column, Frame, modelFromJSON, selectRows, trainXGBoost } from '../../engine/automl';
import { OnnxSessionPool } from '../../engine/serving';

const P = 28;
const TRAIN_ROWS = 200_000;
const BATCH_ROWS = 10_000;

function loadFrame(file: string, from: number, to: number): { frame: Frame; y: Float64Array } {
  const buf = fs.readFileSync(file);
  const data = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
  const n = Math.min(to, data.length / (P + 1)) - from;
  const columns: Column[] = [];
  for (let j = 0; j < P; j++) {
    const v = new Float64Array(n);
    for (let i = 0; i < n; i++) v[i] = data[(from + i) * (P + 1) + j];
    columns.push({ kind: 'numeric', values: v });
  }
  const y = Float64Array.from({ length: n }, (_, i) => data[(from + i) * (P + 1) + P]);
  return { frame: { names: columns.map((_, j) => `f${j}`), columns, nrows: n }, y };
}

interface Timing {
  p50_ms: number;
  p99_ms: number;
  rows_per_s: number;
}

function summarize(ms: number[], rowsPerCall: number): Timing {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  const total = ms.reduce((a, b) => a + b, 0);
  const round = (x: number, d: number): number => Math.round(x * 10 ** d) / 10 ** d;
  return { p50_ms: round(at(0.5), 4), p99_ms: round(at(0.99), 4), rows_per_s: Math.round((rowsPerCall * ms.length * 1000) / total) };
}

async function timeCalls(calls: number, run: (i: number) => unknown | Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < Math.min(50, calls); i++) await run(i); // warm-up: JIT, session arenas
  const ms: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t = process.hrtime.bigint();
    await run(i);
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return ms;
}

async function main(): Promise<void> {
  const file = process.argv[2] ?? '/tmp/gbdt/data.f32';
  const singleCalls = Number(process.argv[3] ?? 5000);
  const batches = Number(process.argv[4] ?? 40);
  if (!fs.existsSync(file)) throw new Error(`${file} not found: run python3 bench/gbdt/make_data.py first`);
  const train = loadFrame(file, 0, TRAIN_ROWS);
  const test = loadFrame(file, TRAIN_ROWS, TRAIN_ROWS + BATCH_ROWS);
  const trained = trainXGBoost({ features: train.frame, target: { name: 'y', kind: 'binary', y: train.y, classes: ['0', '1'] } }, { n_estimators: 100, max_depth: 6, eta: 0.1 });
  const model = modelFromJSON(trained.toJSON());
  const onnx = model.toONNX();
  const pool = new OnnxSessionPool(1);
  const bytes = async (): Promise<Uint8Array> => onnx;

  // The serving path per call: features to ONNX feeds, one session.run, probabilities back.
  const rowFrames = Array.from({ length: Math.min(singleCalls, test.frame.nrows) }, (_, i) => selectRows(test.frame, [i]));
  const frameAt = (i: number): Frame => rowFrames[i % rowFrames.length];
  const onnxScore = (f: Frame) => pool.run('bench', bytes, model.onnxFeeds(f), f.nrows, ['probabilities']);

  // Both scorers must agree before their speed means anything.
  const ours = model.predict(test.frame).probabilities as Float64Array;
  const theirs = (await onnxScore(test.frame)).outputs.probabilities;
  let maxDiff = 0;
  for (let i = 0; i < ours.length; i++) maxDiff = Math.max(maxDiff, Math.abs(ours[i] - theirs[i]));

  const result = {
    model: { trees: 100, max_depth: 6, features: P, train_rows: train.frame.nrows },
    max_abs_probability_difference: maxDiff,
    single_row: {
      onnxruntime: summarize(await timeCalls(singleCalls, (i) => onnxScore(frameAt(i))), 1),
      typescript: summarize(await timeCalls(singleCalls, (i) => model.predict(frameAt(i))), 1),
    },
    batch_10k: {
      onnxruntime: summarize(await timeCalls(batches, () => onnxScore(test.frame)), test.frame.nrows),
      typescript: summarize(await timeCalls(batches, () => model.predict(test.frame)), test.frame.nrows),
    },
  };
  await pool.close();
  console.log(JSON.stringify(result, null, 2));
  // Throughput of the serving path (onnxruntime) against the TypeScript scorer: above 1, onnxruntime is faster.
  for (const [name, r] of [
    ['single row', result.single_row],
    ['10k-row batch', result.batch_10k],
  ] as const) {
    console.log(`${name}: onnxruntime / TypeScript rows per second = ${(r.onnxruntime.rows_per_s / r.typescript.rows_per_s).toFixed(2)}`);
  }
  const out = path.resolve(__dirname, '..', '..', '..', 'bench', 'results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'onnx.json'), JSON.stringify(result, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

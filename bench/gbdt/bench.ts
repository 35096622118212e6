/**
 * GBDT speed benchmark: the engine/automl XGBoost-style learner on the problem written by
 * make_data.py (1M x 28, binary), 100 trees, depth 6, learning rate 0.1, 255 bins, train on the
 * first 80% of rows, AUC on the last 20%. Seconds include binning, as the Python baselines'
 * include building their Dataset/DMatrix.
 *
 * Build, then: node .build-automl/bench/gbdt/bench.js [data path] [baselines.jsonl] [threads] [algo]
 * where baselines.jsonl is the output of python_baselines.py; ratios are printed against it.
 * algo: xgboost (default), gbm (H2O GBM, min_rows 1, default scoring: every tree) or gbm-final
 * (H2O GBM scored only after the last tree).
 *
 * GBDT_DUMP=<prefix> also writes the trained model (<prefix>.model.json, toJSON()) and the test
 * rows' class-1 probabilities (<prefix>.pred.f64, raw little-endian float64), so two builds can
 * be compared byte for byte with `cmp` (a refactoring must leave both unchanged).
 */
import * as fs from 'fs';
import { auc, binFrame, Column, Frame, resolveThreads, trainGBM, trainXGBoost } from '../../engine/automl';

const P = 28;

function load(path: string): { train: Frame; ytrain: Float64Array; test: Frame; ytest: Float64Array } {
  const buf = fs.readFileSync(path);
  const data = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
  const n = data.length / (P + 1);
  const cut = Math.floor(n * 0.8);
  const split = (a: number, b: number): { frame: Frame; y: Float64Array } => {
    const columns: Column[] = [];
    for (let j = 0; j < P; j++) {
      const v = new Float64Array(b - a);
      for (let i = a; i < b; i++) v[i - a] = data[i * (P + 1) + j];
      columns.push({ kind: 'numeric', values: v });
    }
    const y = new Float64Array(b - a);
    for (let i = a; i < b; i++) y[i - a] = data[i * (P + 1) + P];
    return { frame: { names: columns.map((_, j) => `f${j}`), columns, nrows: b - a }, y };
  };
  const tr = split(0, cut);
  const te = split(cut, n);
  return { train: tr.frame, ytrain: tr.y, test: te.frame, ytest: te.y };
}

function main(): void {
  const path = process.argv[2] ?? '/tmp/gbdt/data.f32';
  const baselines = process.argv[3];
  const threads = Number(process.argv[4] ?? -1);
  const algo = process.argv[5] ?? 'xgboost';
  const { train, ytrain, test, ytest } = load(path);
  const t0 = Date.now();
  // Binning on the training threads too, as LightGBM and XGBoost build their datasets.
  const binned = binFrame(train, { threads: resolveThreads(threads) });
  const tBin = (Date.now() - t0) / 1000;
  const data = { features: train, target: { name: 'y', kind: 'binary' as const, y: ytrain, classes: ['0', '1'] }, binned };
  const model =
    algo === 'xgboost'
      ? trainXGBoost(data, { n_estimators: 100, max_depth: 6, eta: 0.1, nthread: threads })
      : trainGBM(data, { ntrees: 100, max_depth: 6, learn_rate: 0.1, min_rows: 1, nthreads: threads, ...(algo === 'gbm-final' ? { score_tree_interval: 100 } : {}) });
  const seconds = (Date.now() - t0) / 1000;
  const probs = model.predict(test).probabilities as Float64Array;
  const p1 = new Float64Array(test.nrows);
  for (let i = 0; i < test.nrows; i++) p1[i] = probs[2 * i + 1];
  const ours = { library: algo === 'xgboost' ? 'engine/automl xgboost-style' : `engine/automl ${algo}`, seconds: Math.round(seconds * 100) / 100, binning_seconds: tBin, auc: auc(ytest, p1) };
  console.log(JSON.stringify(ours));
  const dump = process.env.GBDT_DUMP;
  if (dump) {
    fs.writeFileSync(`${dump}.model.json`, JSON.stringify(model.toJSON()));
    fs.writeFileSync(`${dump}.pred.f64`, new Uint8Array(p1.buffer, p1.byteOffset, p1.byteLength));
  }
  if (baselines && fs.existsSync(baselines)) {
    for (const line of fs
      .readFileSync(baselines, 'utf8')
      .split('\n')
      .filter((l) => l.trim().startsWith('{'))) {
      const b = JSON.parse(line) as { library: string; seconds: number; auc: number };
      console.log(`${b.library}: ${b.seconds}s auc ${b.auc.toFixed(5)} | ours ${ours.seconds}s auc ${ours.auc.toFixed(5)} | time ratio ours/theirs ${(ours.seconds / b.seconds).toFixed(2)}`);
    }
  }
}

main();

/**
 * Benchmark (not a test): our AutoML against default-parameter LightGBM, XGBoost and
 * scikit-learn HistGradientBoosting and H2O AutoML, on fixed 75/25 splits of the shared
 * datasets at the same time budget. Prints each test metric and our ratio to the best peer.
 *
 *   python3 bench/automl/split.py /tmp/mlsvc-bench/automl
 *   python3 bench/automl/peers.py /tmp/mlsvc-bench/automl 120 > /tmp/mlsvc-bench/automl/peers.jsonl
 *   node dist/bench/automl/run.js /tmp/mlsvc-bench/automl 120 /tmp/mlsvc-bench/automl/peers.jsonl
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  binaryMetrics,
  CandidateResult,
  compareByMetric,
  Kind,
  ModelBudgetExceeded,
  modelFromJSON,
  multiclassMetrics,
  parseAutoMLConfig,
  planModels,
  prepareExperiment,
  readCsvFrame,
  regressionMetrics,
  trainCandidate,
  trainStackedEnsembles,
} from '../../engine/automl';

interface Spec {
  file: string;
  target: string;
  kind: Kind;
}

const HIGHER = new Set(['AUC']);

/** The ensembles' grace past the budget, as the automl_train workflow gives them (workflows/automl-train.ts). */
const ENSEMBLE_GRACE_MS = 30_000;

async function ours(dir: string, name: string, spec: Spec, budgetSecs: number) {
  const train = await readCsvFrame(path.join(dir, name, 'train.csv'));
  const test = await readCsvFrame(path.join(dir, name, 'test.csv'));
  const { config } = parseAutoMLConfig({ max_runtime_secs: budgetSecs, max_models: 50, seed: 42, nfolds: 5 }, spec.kind);
  const started = Date.now();
  const deadline = started + budgetSecs * 1000;
  const pe = prepareExperiment(train, spec.target, spec.kind === 'regression' ? 'regression' : 'classification', config!);
  const done: CandidateResult[] = [];
  for (const s of planModels(config!, pe.data.kind)) {
    // Leave room for the ensembles, as H2O does.
    if (Date.now() > deadline - budgetSecs * 100) break;
    try {
      done.push(trainCandidate(pe, s, { deadlineMs: deadline }));
    } catch (err) {
      if (!(err instanceof ModelBudgetExceeded)) console.error(`${name} ${s.name}: ${(err as Error).message}`);
    }
  }
  const all: { name: string; metrics: Record<string, unknown>; model: unknown }[] = done.map((c) => ({ name: c.spec.name, metrics: c.metrics, model: c.model }));
  if (done.length >= 2) for (const e of trainStackedEnsembles(pe, done, { deadlineMs: deadline + ENSEMBLE_GRACE_MS })) all.push({ name: e.spec.name, metrics: e.metrics, model: e.model });
  all.sort((a, b) => compareByMetric(config!.sort_metric)(a.metrics, b.metrics));
  const leader = modelFromJSON(all[0].model as never);
  const pred = leader.predict(test);
  const y = test.columns[test.names.indexOf(spec.target)];
  let metric: string;
  let value: number;
  if (spec.kind === 'regression') {
    const yv = (y as { values: Float64Array }).values;
    metric = 'RMSE';
    value = regressionMetrics(yv, pred.value as Float64Array).rmse;
  } else {
    const labels = y.kind === 'categorical' ? Array.from(y.codes, (c) => (c < 0 ? '' : y.levels[c])) : Array.from((y as { values: Float64Array }).values, String);
    const yi = Float64Array.from(labels, (l) => leader.classes.indexOf(l));
    if (spec.kind === 'binary') {
      metric = 'AUC';
      value = binaryMetrics(
        yi,
        Float64Array.from({ length: yi.length }, (_, i) => (pred.probabilities as Float64Array)[i * 2 + 1]),
      ).auc;
    } else {
      metric = 'logloss';
      value = multiclassMetrics(yi, pred.probabilities as Float64Array, leader.classes.length).logloss;
    }
  }
  return { metric, value, leader: all[0].name, models: all.length, seconds: (Date.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const [dir, budgetArg, peersFile] = process.argv.slice(2);
  const budget = Number(budgetArg ?? 120);
  const specs = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'bench', 'automl', 'datasets.json'), 'utf8')) as Record<string, Spec>;
  const peers =
    peersFile && fs.existsSync(peersFile)
      ? fs
          .readFileSync(peersFile, 'utf8')
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('{')) // h2o prints warnings to stdout
          .map((l) => JSON.parse(l) as { dataset: string; peer: string; metric?: string; value?: number; error?: string })
      : [];
  const only = process.env.BENCH_DATASETS?.split(',');
  const results = [];
  let beatH2O = 0;
  let withinDefault = 0;
  for (const [name, spec] of Object.entries(specs)) {
    if (only && !only.includes(name)) continue;
    const r = await ours(dir, name, spec, budget);
    const mine = peers.filter((p) => p.dataset === name && p.value !== undefined);
    const better = (a: number, b: number) => (HIGHER.has(r.metric) ? a >= b : a <= b);
    const h2o = mine.find((p) => p.peer === 'h2o_automl');
    const defaults = mine.filter((p) => p.peer !== 'h2o_automl');
    const bestDefault = defaults.reduce<number | undefined>((acc, p) => (acc === undefined || better(p.value!, acc) ? p.value : acc), undefined);
    const vsDefault = bestDefault === undefined ? null : HIGHER.has(r.metric) ? r.value / bestDefault : bestDefault / r.value;
    if (h2o && better(r.value, h2o.value!)) beatH2O++;
    if (vsDefault !== null && vsDefault >= 0.99) withinDefault++;
    const line = {
      dataset: name,
      metric: r.metric,
      ours: r.value,
      leader: r.leader,
      models: r.models,
      seconds: r.seconds,
      h2o: h2o?.value ?? null,
      best_default: bestDefault ?? null,
      ratio_to_best_default: vsDefault,
      peers: Object.fromEntries(mine.map((p) => [p.peer, p.value])),
    };
    results.push(line);
    console.log(
      `${name.padEnd(12)} ${r.metric.padEnd(7)} ours ${r.value.toFixed(5)} (${r.leader}, ${r.models} models, ${r.seconds.toFixed(0)}s)  h2o ${h2o?.value?.toFixed(5) ?? 'n/a'}  best default ${bestDefault?.toFixed(5) ?? 'n/a'}  ratio ${vsDefault?.toFixed(4) ?? 'n/a'}`,
    );
  }
  console.log(`\nbetter than or equal to H2O AutoML on ${beatH2O}/${results.length}; within 1% of the best default peer on ${withinDefault}/${results.length}`);
  fs.mkdirSync(path.join(__dirname, '..', '..', '..', 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, '..', '..', '..', 'bench', 'results', 'automl.json'), JSON.stringify({ budget, results, beat_h2o: beatH2O, within_default: withinDefault }, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

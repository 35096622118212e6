/**
 * Every synthesizer type (gaussian_copula, ctgan, tvae, copulagan) on the shared datasets against SDV with the same
 * model and settings, in one run: ours first (fit time = wall time of `fitSynthesizer`, then as many rows sampled as
 * the real table has, our quality report and privacy check), then peer.py in a child process (SDV's synthesizer of
 * the same type fitted on the same rows; SDMetrics' QualityReport of both synthetic tables), then a table of the
 * two sides with quality ours - SDV and fit time ours / SDV.
 *
 *   npx tsc -p tsconfig.json --outDir .build-perf --tsBuildInfoFile .build-perf/.tsbuildinfo
 *   node .build-perf/bench/synth/run.js [--types ctgan,tvae] [--epochs 30] [--batch-size 500] [--embedding-dim 128]
 *        [--generator-dim 256,256] [--discriminator-dim 256,256] [--pac 10] [--threads 2]
 *        [titanic.csv german.csv diamonds.csv:5000 ...]
 *
 * `name:N` keeps N evenly spaced rows. The peer runs with `SDV_PYTHON` (default ~/.cache/mlsvc/venv-synth/bin/python,
 * which needs sdv and sdmetrics) and torch limited to `--threads`. Writes bench/results/synth/: <dataset>.real.csv,
 * <dataset>.<type>.synthetic.csv, <dataset>.<type>.json (ours), <dataset>.<type>.peer.json, and summary.json.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { Frame, readCsvFrame, selectRows } from '../../engine/automl';
import { CTGAN_DEFAULTS, evaluateQuality, fitSynthesizer, privacyCheck, sampleSynthesizerBatches, SYNTH_MODEL_TYPES, SynthConfig, SynthModelType, TVAE_DEFAULTS } from '../../engine/synth';

/** The repository root: the first directory above the compiled script that holds the bench's sources. */
const ROOT = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'bench', 'synth', 'peer.py'))) {
    if (path.dirname(dir) === dir) throw new Error('bench/synth/peer.py not found above ' + __dirname);
    dir = path.dirname(dir);
  }
  return dir;
})();
const OUT = path.join(ROOT, 'bench', 'results', 'synth');
const PEER = path.join(ROOT, 'bench', 'synth', 'peer.py');

interface Args {
  types: SynthModelType[];
  datasets: string[];
  neural: { epochs: number; batch_size: number; embedding_dim: number; generator_dim: number[]; discriminator_dim: number[]; pac: number };
  threads: number;
  /** Fit seed of both sides (sampling uses seed + 1 on ours; SDV samples from the generator the fit left). */
  seed: number;
  peer: boolean;
  /** Print the table from the result files an earlier run left (e.g. one cut short), fitting nothing. */
  tableOnly: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    types: [...SYNTH_MODEL_TYPES].sort((x, y) => (x === 'gaussian_copula' ? -1 : y === 'gaussian_copula' ? 1 : 0)),
    datasets: [],
    neural: { ...CTGAN_DEFAULTS },
    threads: 2,
    seed: 1,
    peer: true,
    tableOnly: false,
  };
  const list = (v: string) => v.split(',').map((s) => Number(s));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--types') {
      a.types = next().split(',') as SynthModelType[];
      for (const t of a.types) if (!SYNTH_MODEL_TYPES.includes(t)) throw new Error(`unknown type ${t} (one of ${SYNTH_MODEL_TYPES.join(', ')})`);
    } else if (arg === '--epochs') a.neural.epochs = Number(next());
    else if (arg === '--batch-size') a.neural.batch_size = Number(next());
    else if (arg === '--embedding-dim') a.neural.embedding_dim = Number(next());
    else if (arg === '--generator-dim') a.neural.generator_dim = list(next());
    else if (arg === '--discriminator-dim') a.neural.discriminator_dim = list(next());
    else if (arg === '--pac') a.neural.pac = Number(next());
    else if (arg === '--threads') a.threads = Number(next());
    else if (arg === '--seed') a.seed = Number(next());
    else if (arg === '--no-peer') a.peer = false;
    else if (arg === '--table-only') a.tableOnly = true;
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else a.datasets.push(arg);
  }
  if (!a.datasets.length) a.datasets = ['titanic.csv', 'german.csv', 'diamonds.csv:5000'];
  return a;
}

/** The settings both sides use for a type (TVAE: epochs, batch_size, embedding_dim; its 128-128 widths are fixed on both sides). */
function configOf(type: SynthModelType, n: Args['neural'], seed: number): SynthConfig & { seed: number } {
  if (type === 'gaussian_copula') return { seed };
  if (type === 'tvae') return { epochs: n.epochs, batch_size: n.batch_size, embedding_dim: n.embedding_dim, seed };
  return { ...n, seed };
}

function datasetsDir(): string {
  return process.env.DATASETS_DIR ?? path.join(ROOT, '..', 'shared', 'datasets');
}

function toCsv(frame: Frame): string {
  const rows: string[][] = [];
  for (let i = 0; i < frame.nrows; i++) {
    rows.push(
      frame.columns.map((c) => {
        if (c.kind === 'categorical') return c.codes[i] < 0 ? '' : c.levels[c.codes[i]];
        const v = c.kind === 'numeric' ? c.values[i] : c.epochMs[i];
        if (Number.isNaN(v)) return '';
        return c.kind === 'datetime' ? new Date(v).toISOString() : String(v);
      }),
    );
  }
  return stringify([frame.names, ...rows]);
}

/** `diamonds.csv:5000` → `diamonds-5000`. */
function datasetName(spec: string): string {
  const [file, limit] = spec.split(':');
  return file.replace(/\.csv$/, '') + (limit ? `-${limit}` : '');
}

async function loadDataset(spec: string): Promise<{ name: string; real: Frame }> {
  const [file, limit] = spec.split(':');
  let real = await readCsvFrame(path.join(datasetsDir(), file));
  if (limit && real.nrows > Number(limit)) {
    const n = Number(limit);
    const all = real;
    real = selectRows(
      all,
      Array.from({ length: n }, (_, i) => Math.floor((i * all.nrows) / n)),
    );
  }
  return { name: datasetName(spec), real };
}

/** Samples `n` rows in one batch (the bench compares whole tables). */
async function sampleAll(model: Awaited<ReturnType<typeof fitSynthesizer>>, n: number, seed: number): Promise<Frame> {
  const parts: Frame[] = [];
  for await (const batch of sampleSynthesizerBatches(model, n, { seed, batchRows: n })) parts.push(batch);
  if (parts.length !== 1) throw new Error(`expected one batch of ${n} rows, got ${parts.length}`);
  return parts[0];
}

function copulaMarginals(model: Awaited<ReturnType<typeof fitSynthesizer>>, real: Frame): Record<string, string | null> {
  const encodings = (model.params as { encodings: Array<{ kind: string; marginal?: { family: string } | null }> }).encodings;
  return Object.fromEntries(encodings.map((e, j) => [real.names[j], e.kind === 'numeric' ? (e.marginal?.family ?? null) : 'categorical']));
}

interface OursResult {
  dataset: string;
  type: SynthModelType;
  rows: number;
  columns: number;
  kinds: Record<string, string>;
  config: SynthConfig;
  fit_secs: number;
  sample_secs: number;
  quality: { overall: number; column_shapes: number | null; column_pair_trends: number | null };
  privacy: unknown;
  last_progress: string;
  /** gaussian_copula: the marginal family each numeric column got (by KS), 'categorical' for the others. */
  marginals?: Record<string, string | null>;
}

interface PeerResult {
  dataset: string;
  type: SynthModelType;
  sdv_fit_secs: number;
  sdv_quality: { overall: number; column_shapes: number; column_pair_trends: number };
  ours_quality_by_sdmetrics: { overall: number; column_shapes: number; column_pair_trends: number };
}

async function runOurs(args: Args): Promise<OursResult[]> {
  fs.mkdirSync(OUT, { recursive: true });
  const results: OursResult[] = [];
  for (const spec of args.datasets) {
    const { name, real } = await loadDataset(spec);
    fs.writeFileSync(path.join(OUT, `${name}.real.csv`), toCsv(real));
    for (const type of args.types) {
      const config = configOf(type, args.neural, args.seed);
      let lastProgress = '';
      let t = process.hrtime.bigint();
      const model = await fitSynthesizer(type, real, config, { threads: args.threads, onProgress: (_f, m) => (lastProgress = m) });
      const fitSecs = Number(process.hrtime.bigint() - t) / 1e9;
      t = process.hrtime.bigint();
      const synthetic = await sampleAll(model, real.nrows, args.seed + 1);
      const sampleSecs = Number(process.hrtime.bigint() - t) / 1e9;
      const quality = evaluateQuality(real, synthetic);
      const result: OursResult = {
        dataset: name,
        type,
        rows: real.nrows,
        columns: real.names.length,
        kinds: Object.fromEntries(real.names.map((n, j) => [n, real.columns[j].kind])),
        config,
        fit_secs: fitSecs,
        sample_secs: sampleSecs,
        quality: { overall: quality.overall_score, column_shapes: quality.column_shapes.score, column_pair_trends: quality.column_pair_trends.score },
        privacy: privacyCheck(real, real, synthetic),
        last_progress: lastProgress,
        marginals: type === 'gaussian_copula' ? copulaMarginals(model, real) : undefined,
      };
      fs.writeFileSync(path.join(OUT, `${name}.${type}.synthetic.csv`), toCsv(synthetic));
      fs.writeFileSync(path.join(OUT, `${name}.${type}.json`), JSON.stringify(result, null, 1));
      results.push(result);
      console.log(`ours ${name} ${type}: fit ${fitSecs.toFixed(2)} s, sample ${sampleSecs.toFixed(2)} s, engine quality ${quality.overall_score.toFixed(4)} (${lastProgress})`);
    }
  }
  return results;
}

function runPeer(args: Args, ours: OursResult[]): PeerResult[] {
  const python = process.env.SDV_PYTHON ?? path.join(os.homedir(), '.cache', 'mlsvc', 'venv-synth', 'bin', 'python');
  const jobs = ours.map((r) => `${r.dataset}.${r.type}`);
  const res = spawnSync(python, [PEER, '--threads', String(args.threads), ...jobs], { stdio: 'inherit' });
  if (res.status !== 0) throw new Error(`peer.py failed (${res.error?.message ?? `exit ${res.status}`})`);
  return jobs.map((j) => JSON.parse(fs.readFileSync(path.join(OUT, `${j}.peer.json`), 'utf8')) as PeerResult);
}

function printTable(ours: OursResult[], peers: Array<PeerResult | null> | null): void {
  const f = (v: number | null | undefined, d = 4) => (v === null || v === undefined || Number.isNaN(v) ? '-' : v.toFixed(d));
  const lines = [
    '| dataset | type | rows | ours fit s | SDV fit s | fit ours/SDV | ours quality (SDMetrics) | SDV quality (SDMetrics) | quality ours - SDV | ours quality (engine) | targets met |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  ours.forEach((o, i) => {
    const p = peers?.[i];
    const ratio = p ? o.fit_secs / p.sdv_fit_secs : null;
    const diff = p ? p.ours_quality_by_sdmetrics.overall - p.sdv_quality.overall : null;
    const met = p ? `${diff! >= 0 ? 'quality yes' : 'quality no'}, ${ratio! <= 0.5 ? 'time yes' : 'time no'}` : '-';
    lines.push(
      `| ${o.dataset} | ${o.type} | ${o.rows} | ${f(o.fit_secs, 2)} | ${f(p?.sdv_fit_secs, 2)} | ${f(ratio, 2)} | ${f(p?.ours_quality_by_sdmetrics.overall)} | ${f(p?.sdv_quality.overall)} | ${diff === null ? '-' : (diff >= 0 ? '+' : '') + diff.toFixed(4)} | ${f(o.quality.overall)} | ${met} |`,
    );
  });
  console.log(lines.join('\n'));
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  console.log(
    `settings: ${JSON.stringify({ ...args.neural, tvae: { ...TVAE_DEFAULTS, epochs: args.neural.epochs, batch_size: args.neural.batch_size, embedding_dim: args.neural.embedding_dim }, threads: args.threads })}`,
  );
  if (args.tableOnly) {
    const read = <T>(file: string): T | null => (fs.existsSync(path.join(OUT, file)) ? (JSON.parse(fs.readFileSync(path.join(OUT, file), 'utf8')) as T) : null);
    const jobs = args.datasets.flatMap((spec) => args.types.map((t) => `${datasetName(spec)}.${t}`));
    const ours = jobs.map((j) => read<OursResult>(`${j}.json`));
    const rows = jobs.map((j, i) => ({ o: ours[i], p: read<PeerResult>(`${j}.peer.json`) })).filter((r): r is { o: OursResult; p: PeerResult | null } => r.o !== null);
    printTable(
      rows.map((r) => r.o),
      rows.map((r) => r.p),
    );
    return;
  }
  const started = new Date().toISOString();
  const ours = await runOurs(args);
  const peers = args.peer ? runPeer(args, ours) : null;
  printTable(ours, peers);
  const summary = {
    started,
    finished: new Date().toISOString(),
    host: { cpus: os.cpus().length, loadavg: os.loadavg() },
    args,
    results: ours.map((o, i) => ({ ...o, peer: peers?.[i] ?? null })),
  };
  fs.writeFileSync(path.join(OUT, 'summary.json'), JSON.stringify(summary, null, 1));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

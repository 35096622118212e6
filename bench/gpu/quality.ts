/**
 * Issue 32's quality check: SDMetrics' quality of GPU-trained models against CPU-trained ones on the same tables.
 *   node dist/bench/gpu/quality.js prepare <dir>            writes <dir>/<name>.frame.json (DuckDB's reading of each table)
 *   (on the GPU machine) node bench.cjs models <out> <dir>  fits each table with CTGAN, TVAE and CopulaGAN: <name>.<type>.bin
 *   node dist/bench/gpu/quality.js score <gpu-models-dir> [seeds=1] [tables]   fits the same tables on the CPU engine (same settings and seed),
 *        samples as many rows as the real table from both, and scores both with SDMetrics' QualityReport
 *        (bench/synth/peer.py's scorer, in ~/.cache/mlsvc/venv-synth): bench/results/gpu-quality/summary.md
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { Frame, readCsvFrame, selectRows } from '../../engine/automl';
import { deserializeNeural, fitSynthesizer, sampleSynthesizerBatches } from '../../engine/synth';
import { QUALITY_CONFIG, QUALITY_TYPES, qualityModelFile, type FrameJSON } from './fit-case';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const OUT = path.join(ROOT, 'bench', 'results', 'gpu-quality');
/** The tables compared: bench/synth's (diamonds as 5,000 evenly spaced rows, which the CPU engine fits in minutes). */
const TABLES = ['titanic.csv', 'german.csv', 'diamonds.csv:5000'];

async function load(spec: string): Promise<{ name: string; frame: Frame }> {
  const [file, limit] = spec.split(':');
  let frame = await readCsvFrame(path.join(ROOT, '..', 'shared', 'datasets', file));
  if (limit && frame.nrows > Number(limit)) {
    const n = Number(limit);
    const all = frame;
    frame = selectRows(
      all,
      Array.from({ length: n }, (_, i) => Math.floor((i * all.nrows) / n)),
    );
  }
  return { name: file.replace(/\.csv$/, '') + (limit ? `-${limit}` : ''), frame };
}

function toJSON(frame: Frame): FrameJSON {
  const nums = (v: Float64Array) => Array.from(v, (x) => (Number.isNaN(x) ? null : x));
  return {
    names: frame.names,
    columns: frame.columns.map((c) =>
      c.kind === 'numeric'
        ? { kind: 'numeric', values: nums(c.values) }
        : c.kind === 'datetime'
          ? { kind: 'datetime', epochMs: nums(c.epochMs) }
          : { kind: 'categorical', codes: Array.from(c.codes), levels: c.levels },
    ),
  };
}

function toCsv(frame: Frame): string {
  const rows: string[][] = [];
  for (let i = 0; i < frame.nrows; i++) {
    rows.push(
      frame.columns.map((c) => {
        if (c.kind === 'categorical') return c.codes[i] < 0 ? '' : c.levels[c.codes[i]];
        const v = c.kind === 'numeric' ? c.values[i] : c.epochMs[i];
        return Number.isNaN(v) ? '' : c.kind === 'datetime' ? new Date(v).toISOString() : String(v);
      }),
    );
  }
  return stringify([frame.names, ...rows]);
}

async function sampleAll(model: Parameters<typeof sampleSynthesizerBatches>[0], n: number): Promise<Frame> {
  const parts: Frame[] = [];
  for await (const batch of sampleSynthesizerBatches(model, n, { seed: 7, batchRows: n })) parts.push(batch);
  return parts[0];
}

const SCORER = `
import json, sys, warnings
warnings.filterwarnings("ignore")
import pandas as pd
from sdmetrics.reports.single_table import QualityReport
kinds = json.loads(sys.argv[1])
def load(p):
    cats = [c for c, k in kinds.items() if k == "categorical"]
    df = pd.read_csv(p, dtype={c: str for c in cats}, keep_default_na=False, na_values=[""])
    for c, k in kinds.items():
        if k == "datetime": df[c] = pd.to_datetime(df[c], utc=True).dt.tz_localize(None)
    return df
sdtype = {"numeric": "numerical", "categorical": "categorical", "datetime": "datetime"}
md = {"columns": {c: {"sdtype": sdtype[k]} for c, k in kinds.items()}}
real = load(sys.argv[2])
out = {}
for p in sys.argv[3:]:
    r = QualityReport(); r.generate(real, load(p), md, verbose=False); out[p] = r.get_score()
print(json.dumps(out))
`;

async function prepare(dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  for (const spec of TABLES) {
    const { name, frame } = await load(spec);
    fs.writeFileSync(path.join(dir, `${name}.frame.json`), JSON.stringify(toJSON(frame)));
    console.log(`${name}: ${frame.nrows} rows`);
  }
}

async function score(gpuDir: string, seeds: number[], tables: string[]): Promise<void> {
  fs.mkdirSync(OUT, { recursive: true });
  const python = process.env.SDV_PYTHON ?? path.join(os.homedir(), '.cache', 'mlsvc', 'venv-synth', 'bin', 'python');
  const gpuTimes = JSON.parse(fs.readFileSync(path.join(gpuDir, 'models.json'), 'utf8')) as Array<{ name: string; type: string; seed?: number; seconds: number }>;
  const lines = ['| table | type | seed | GPU fit (s) | CPU fit (s) | quality GPU | quality CPU | GPU − CPU |', '|---|---|---|---|---|---|---|---|'];
  const summary = path.join(OUT, `summary-seeds-${seeds.join('-')}.md`);
  for (const spec of tables) {
    const { name, frame } = await load(spec);
    const realCsv = path.join(OUT, `${name}.real.csv`);
    fs.writeFileSync(realCsv, toCsv(frame));
    const kinds = Object.fromEntries(frame.names.map((n, j) => [n, frame.columns[j].kind]));
    for (const type of QUALITY_TYPES)
      for (const seed of seeds) {
        const gpuModel = deserializeNeural(new Uint8Array(fs.readFileSync(path.join(gpuDir, qualityModelFile(name, type, seed)))));
        const t = performance.now();
        const cpuModel = await fitSynthesizer(type, frame, { ...QUALITY_CONFIG, seed }, { threads: 2 });
        const cpuSeconds = (performance.now() - t) / 1000;
        const files = { gpu: path.join(OUT, `${name}.${type}.s${seed}.gpu.csv`), cpu: path.join(OUT, `${name}.${type}.s${seed}.cpu.csv`) };
        fs.writeFileSync(files.gpu, toCsv(await sampleAll(gpuModel, frame.nrows)));
        fs.writeFileSync(files.cpu, toCsv(await sampleAll(cpuModel, frame.nrows)));
        const scores = JSON.parse(execFileSync(python, ['-c', SCORER, JSON.stringify(kinds), realCsv, files.gpu, files.cpu], { encoding: 'utf8' })) as Record<string, number>;
        const [g, c] = [scores[files.gpu], scores[files.cpu]];
        const gpuSeconds = gpuTimes.find((x) => x.name === name && x.type === type && (x.seed ?? 1) === seed)?.seconds;
        const line = `| ${name} | ${type} | ${seed} | ${gpuSeconds?.toFixed(1) ?? '—'} | ${cpuSeconds.toFixed(1)} | ${g.toFixed(4)} | ${c.toFixed(4)} | ${(g - c >= 0 ? '+' : '') + (g - c).toFixed(4)} |`;
        console.log(line);
        lines.push(line);
        fs.writeFileSync(summary, lines.join('\n') + '\n');
      }
  }
}

const [mode, dir, seeds = '1', tables = TABLES.join(',')] = process.argv.slice(2);
(mode === 'prepare'
  ? prepare(dir)
  : mode === 'score'
    ? score(dir, seeds.split(',').map(Number), tables.split(','))
    : Promise.reject(new Error('usage: quality.js prepare <dir> | score <gpu-models-dir>'))
).then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);

/**
 * bench/gpu's program, bundled into one file by build.sh and run by run.sh on the GPU machine:
 *   node bench.cjs run   <out-dir> [seconds=100] [smoke]   times each case, writes <out-dir>/engine.json
 *   node bench.cjs fit   <out-dir> <csv> [seconds=200] [smoke]   the whole CTGAN fit of diamonds.csv, writes fit.json
 *   node bench.cjs models <out-dir> <frames-dir> [epochs] [seeds=1]   GPU fits of quality.ts's tables (<name>.<type>.bin)
 *   node bench.cjs table <out-dir>                  the table of engine.json beside <out-dir>/torch*.jsonl
 * The adapter is platform/gpu's: hardware first, Mesa's software renderer only with GPU_ALLOW_SOFTWARE=1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { acquireGpu, describeGpu, type AcquiredGpu } from '../../platform/gpu';
import { benchCases, FULL_SIZES, SMOKE_SIZES } from './cases';
import { fitQualityModels, runCtganFit, type FitResult } from './fit-case';
import { measureStep } from './measure';
import { formatTable, parseTorchLines, type EngineRun } from './table';

/** Steps a case is timed for: a full run, or (`smoke`: run.sh --smoke, on a software renderer, tiny shapes) a few. */
const FULL = { warmupSteps: 5, steps: 200 };
const SMOKE = { warmupSteps: 1, steps: 3 };

async function runCases(outDir: string, seconds: number, smoke: boolean): Promise<void> {
  const run: EngineRun = { at: new Date().toISOString(), node: process.version, results: [] };
  const CASES = benchCases(smoke ? SMOKE_SIZES : FULL_SIZES);
  const save = () => fs.writeFileSync(path.join(outDir, 'engine.json'), JSON.stringify(run, null, 2));
  let gpu;
  try {
    gpu = await acquireGpu();
  } catch (err) {
    run.noGpu = (err as Error).message;
    // The rows still come out, so PyTorch's figures for the same work are in the table.
    run.results = CASES.map((c) => ({ name: c.name, what: c.what, torch: c.torch, error: 'no GPU adapter' }));
    save();
    console.log(`no GPU adapter: ${run.noGpu}`);
    return;
  }
  run.gpu = gpu.description;
  console.log(`adapter: ${describeGpu(gpu.description)}`);
  // Each case gets an equal share of what is left, so the time of a case that cannot run goes to the others.
  const deadline = Date.now() + seconds * 1000;
  try {
    for (const [i, c] of CASES.entries()) {
      const perCase = Math.max(1, (deadline - Date.now()) / 1000 / (CASES.length - i));
      const result = { name: c.name, what: c.what, torch: c.torch } as EngineRun['results'][number];
      run.results.push(result);
      try {
        const prepared = await c.prepare(gpu);
        if ('notYet' in prepared) {
          result.notYet = prepared.notYet;
        } else {
          // What engine.json says if run.sh's time limit ends the process inside this case.
          result.error = 'did not finish within the time limit';
          save();
          try {
            result.timing = await measureStep(prepared, { ...(smoke ? SMOKE : FULL), seconds: perCase });
            delete result.error;
          } finally {
            await prepared.destroy();
          }
        }
      } catch (err) {
        result.error = (err as Error).message;
      }
      console.log(
        `${c.name}: ${result.timing ? `${result.timing.eachMs.toFixed(3)} ms/step each, ${result.timing.replayMs.toFixed(3)} ms/step replayed` : (result.notYet ?? `failed: ${result.error}`)}`,
      );
      save();
    }
  } finally {
    await gpu.destroy();
  }
}

async function withGpu<T>(work: (gpu: AcquiredGpu) => Promise<T>): Promise<T> {
  const gpu = await acquireGpu();
  console.log(`adapter: ${describeGpu(gpu.description)}`);
  try {
    return await work(gpu);
  } finally {
    await gpu.destroy();
  }
}

async function runFit(outDir: string, csv: string, seconds: number, smoke: boolean): Promise<void> {
  const result = await withGpu((gpu) => runCtganFit(gpu, csv, outDir, seconds, smoke));
  fs.writeFileSync(path.join(outDir, 'fit.json'), JSON.stringify(result, null, 2));
  console.log(JSON.stringify(result));
}

function printTable(outDir: string): void {
  const run = JSON.parse(fs.readFileSync(path.join(outDir, 'engine.json'), 'utf8')) as EngineRun;
  const torchText = fs
    .readdirSync(outDir)
    .filter((f) => /^torch.*\.jsonl$/.test(f))
    .map((f) => fs.readFileSync(path.join(outDir, f), 'utf8'))
    .join('\n');
  const fitFile = path.join(outDir, 'fit.json');
  const fit = fs.existsSync(fitFile) ? (JSON.parse(fs.readFileSync(fitFile, 'utf8')) as FitResult) : undefined;
  const table = formatTable(run, parseTorchLines(torchText), fit);
  fs.writeFileSync(path.join(outDir, 'table.md'), table);
  console.log(table);
}

async function main(): Promise<void> {
  const [mode, outDir = process.env.OUT ?? '/tmp/out', seconds = '100', smoke] = process.argv.slice(2);
  fs.mkdirSync(outDir, { recursive: true });
  if (mode === 'run') await runCases(outDir, Number(seconds), smoke === 'smoke');
  else if (mode === 'fit') await runFit(outDir, process.argv[4], Number(process.argv[5] ?? 200), process.argv[6] === 'smoke');
  else if (mode === 'models')
    await withGpu((gpu) => fitQualityModels(gpu, process.argv[4], outDir, process.argv[5] ? Number(process.argv[5]) : undefined, process.argv[6] ? process.argv[6].split(',').map(Number) : undefined));
  else if (mode === 'table') printTable(outDir);
  else throw new Error('usage: bench.cjs run|fit|table <out-dir> ...');
}

main().then(
  // Dawn's instance keeps the event loop alive after the device is gone.
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);

/**
 * bench/gpu's whole-fit case: a CTGAN fit of diamonds.csv (SDV's defaults: 300 epochs, batch 500, 256-256, pac 10)
 * through fitNeuralGpu, the data transformer included, timed from the CSV's text to the fitted model, as SDV's figure
 * is (sdv.sh: its fit, transformer included). Bounded in seconds: a fit that runs out of time stops at an epoch and
 * reports the epochs done and the time a whole fit would take at that pace.
 * The fitted model is written beside the figures (model.bin), so its quality can be measured on another machine.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AcquiredGpu } from '../../platform/gpu';
// Single modules, not the indexes: the bundle must not carry DuckDB's or ONNX Runtime's native bindings.
// eslint-disable-next-line no-restricted-imports
import { categoricalFromStrings, columnLength, makeFrame, type Column, type Frame } from '../../engine/automl/frame';
// eslint-disable-next-line no-restricted-imports
import { fitNeuralGpu } from '../../engine/gpu/neural/fit';
// eslint-disable-next-line no-restricted-imports
import { serializeNeural } from '../../engine/synth/neural/model';

export interface FitResult {
  rows: number;
  epochsAsked: number;
  epochsDone: number;
  /** From the CSV's text to the first training step: parsing, the transformer, encoding, the graph. */
  prepareS: number;
  trainS: number;
  /** prepare + the whole fit at the measured pace (the measured total when every epoch ran). */
  wholeFitS: number;
  msPerStep: number;
  lastLine: string;
  stoppedEarly: boolean;
}

/** A plain CSV (no quoted fields, as diamonds.csv is): numbers where every value parses, categories otherwise. */
export function parsePlainCsv(text: string, limit = Infinity): Frame {
  const lines = text.split('\n').filter((l) => l.length > 0);
  const names = lines[0].split(',').map((n) => n.replace(/^"|"$/g, ''));
  const rows = lines.slice(1, 1 + Math.min(limit, lines.length - 1)).map((l) => l.split(','));
  const columns = names.map((_, j): Column => {
    const raw = rows.map((r) => r[j]?.replace(/^"|"$/g, '') ?? '');
    const nums = raw.map(Number);
    if (nums.every((v, i) => Number.isFinite(v) && raw[i] !== '')) return { kind: 'numeric', values: Float64Array.from(nums) };
    return categoricalFromStrings(raw);
  });
  return makeFrame(names, columns);
}

class OutOfTime extends Error {}

export async function runCtganFit(gpu: AcquiredGpu, csvPath: string, outDir: string, seconds: number, smoke: boolean): Promise<FitResult> {
  const t0 = performance.now();
  const frame = parsePlainCsv(fs.readFileSync(csvPath, 'utf8'), smoke ? 400 : Infinity);
  const config = smoke ? { epochs: 2, batch_size: 40, embedding_dim: 16, generator_dim: [32, 32], discriminator_dim: [32, 32], pac: 4 } : { epochs: 300 };
  const deadline = Date.now() + seconds * 1000;
  let epochsDone = 0;
  let lastLine = '';
  let stoppedEarly = false;
  const nrows = frame.columns.length ? columnLength(frame.columns[0]) : 0;
  const stepsPerEpoch = Math.max(1, Math.floor(nrows / (smoke ? 40 : 500)));
  let trainStart = 0;
  try {
    const model = await fitNeuralGpu('ctgan', frame, config, {
      device: gpu.device,
      checkCancel: () => {
        if (!trainStart) trainStart = performance.now();
        if (Date.now() > deadline) throw new OutOfTime();
      },
      onEpoch: (epoch, epochs, line) => {
        epochsDone = epoch;
        lastLine = line;
        if (epoch === 1 || epoch % 25 === 0 || epoch === epochs) console.log(`  ${line} (+${((performance.now() - t0) / 1000).toFixed(1)} s)`);
      },
    });
    fs.writeFileSync(path.join(outDir, 'model.bin'), serializeNeural(model));
  } catch (err) {
    if (!(err instanceof OutOfTime)) throw err;
    stoppedEarly = true;
  }
  const end = performance.now();
  const prepareS = ((trainStart || end) - t0) / 1000;
  const trainS = (end - (trainStart || end)) / 1000;
  const perEpochS = epochsDone ? trainS / epochsDone : NaN;
  return {
    rows: nrows,
    epochsAsked: config.epochs,
    epochsDone,
    prepareS,
    trainS,
    wholeFitS: prepareS + perEpochS * config.epochs,
    msPerStep: (perEpochS * 1000) / stepsPerEpoch,
    lastLine,
    stoppedEarly,
  };
}

/** A frame as JSON (quality.ts writes these from DuckDB's reading, so both engines train on the same table). */
export interface FrameJSON {
  names: string[];
  columns: Array<{ kind: 'numeric'; values: Array<number | null> } | { kind: 'categorical'; codes: number[]; levels: string[] } | { kind: 'datetime'; epochMs: Array<number | null> }>;
}

export function frameFromJSON(json: FrameJSON): Frame {
  const nums = (v: Array<number | null>) => Float64Array.from(v, (x) => (x === null ? NaN : x));
  return makeFrame(
    json.names,
    json.columns.map((c): Column =>
      c.kind === 'numeric'
        ? { kind: 'numeric', values: nums(c.values) }
        : c.kind === 'datetime'
          ? { kind: 'datetime', epochMs: nums(c.epochMs) }
          : { kind: 'categorical', codes: Int32Array.from(c.codes), levels: c.levels },
    ),
  );
}

export const QUALITY_TYPES = ['ctgan', 'tvae', 'copulagan'] as const;
/** The settings of the quality comparison (SDV's defaults; seed 1 on both engines). */
export const QUALITY_CONFIG = { epochs: 300, seed: 1 } as const;

/** A GPU model's file: `<name>.<type>.bin` for seed 1, `<name>.<type>.s<seed>.bin` for the others. */
export const qualityModelFile = (name: string, type: string, seed: number): string => (seed === 1 ? `${name}.${type}.bin` : `${name}.${type}.s${seed}.bin`);

/**
 * Fits every `<name>.frame.json` in `framesDir` with each neural type on the GPU and writes `<name>.<type>.bin` and
 * the fit times to `models.json` (quality.ts scores them beside CPU fits of the same tables).
 */
export async function fitQualityModels(
  gpu: AcquiredGpu,
  framesDir: string,
  outDir: string,
  epochs: number = QUALITY_CONFIG.epochs,
  seeds: number[] = [QUALITY_CONFIG.seed],
): Promise<Array<{ name: string; type: string; seed: number; seconds: number }>> {
  const times: Array<{ name: string; type: string; seed: number; seconds: number }> = [];
  for (const file of fs
    .readdirSync(framesDir)
    .filter((f) => f.endsWith('.frame.json'))
    .sort()) {
    const name = file.replace(/\.frame\.json$/, '');
    const frame = frameFromJSON(JSON.parse(fs.readFileSync(path.join(framesDir, file), 'utf8')) as FrameJSON);
    for (const type of QUALITY_TYPES) {
      for (const seed of seeds) {
        const t = performance.now();
        const model = await fitNeuralGpu(type, frame, { epochs, seed }, { device: gpu.device });
        const seconds = (performance.now() - t) / 1000;
        fs.writeFileSync(path.join(outDir, qualityModelFile(name, type, seed)), serializeNeural(model));
        times.push({ name, type, seed, seconds });
        console.log(`${name} ${type} seed ${seed}: ${seconds.toFixed(1)} s`);
        fs.writeFileSync(path.join(outDir, 'models.json'), JSON.stringify(times, null, 2));
      }
    }
  }
  return times;
}

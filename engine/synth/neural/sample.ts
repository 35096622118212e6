/**
 * Sampling a neural model in batches of at most `batchRows` rows (default 10,000), so memory stays bounded
 * whatever `numRows` is. A seed reproduces the output exactly (on the same TensorFlow.js backend). Values are
 * clipped to the training ranges and rounded where the column held whole numbers; missing cells come from the
 * model, their share calibrated to the training rate (transformer.ts, DecodeOptions.missingRates).
 *
 * Conditions hold exactly in every row:
 * - CTGAN / CopulaGAN feed the rarest categorical condition through the conditional vector (the generator was
 *   trained to honour it) and set it in the output (the fix-up for the rows where the generator strayed);
 * - every other condition is met by rejection: a categorical one must be generated as asked, a numeric one within
 *   NUMERIC_TOLERANCE_SHARE of the column's range, and is then set exactly.
 * Generation gives up with a SynthConditionError after max(REJECTION_FACTOR * numRows, MIN_REJECTION_BUDGET)
 * generated rows, so impossible or vanishingly rare combinations fail instead of running forever.
 */
import * as tf from '@tensorflow/tfjs';
import { Frame, initDeepLearningBackend, Rng } from '../../automl';
import { columnOf, finishNumeric } from '../columns';
import type { SampleOptions, SynthesizerModel } from '../types';
import { CondSampler } from './cond-sampler';
import { ResolvedCondition, resolveConditions, SynthConditionError } from './conditions';
import { fromNormalScores, loadMarginals } from './copulagan';
import { ctganGenerate } from './ctgan';
import { isNeuralModel, NeuralModel } from './model';
import { NeuralRng } from './rng';
import { decodeRows, DecodedColumn } from './transformer';
import { tvaeGenerate } from './tvae';

export const DEFAULT_BATCH_ROWS = 10_000;
export const REJECTION_FACTOR = 100;
export const MIN_REJECTION_BUDGET = 20_000;

let backend: Promise<string> | null = null;

/** Generates `numRows` rows of a CTGAN, TVAE or CopulaGAN model, batch by batch. */
export async function* sampleNeuralBatches(model: SynthesizerModel, numRows: number, opts: SampleOptions = {}): AsyncGenerator<Frame> {
  if (!isNeuralModel(model)) throw new Error(`sampleNeuralBatches: ${model.type} is not a neural model`);
  if (!Number.isInteger(numRows) || numRows < 0) throw new Error(`numRows must be a non-negative integer, got ${numRows}`);
  const conditions = resolveConditions(model.columns, model.params, opts.conditions);
  const batchRows = Math.max(1, Math.floor(opts.batchRows ?? DEFAULT_BATCH_ROWS));
  backend ??= initDeepLearningBackend();
  await backend;
  const seed = opts.seed ?? Math.floor(Math.random() * 2147483647);
  const rng = new NeuralRng(seed);
  const finishRng = new Rng(seed);
  const generator = makeGenerator(model, conditions);
  const marginals = model.params.marginals ? loadMarginals(model.params.marginals) : null;
  const missingRates = model.columns.map((c) => c.missingRate);
  const budget = Math.max(REJECTION_FACTOR * numRows, MIN_REJECTION_BUDGET);
  const chunkCap = Math.max(batchRows, 2048);
  let generated = 0;
  let accepted = 0;
  try {
    for (let produced = 0; produced < numRows;) {
      const want = Math.min(batchRows, numRows - produced);
      const parts: DecodedColumn[][] = [];
      let have = 0;
      while (have < want) {
        const rate = conditions.length === 0 ? 1 : generated === 0 ? 0.5 : Math.max(accepted / generated, 0.005);
        const chunk = Math.min(chunkCap, Math.ceil((want - have) / rate) + (conditions.length ? 16 : 0));
        const cols = decodeRows(model.params.transformer, generator.generate(chunk, rng), chunk, rng, { sigmas: generator.sigmas, missingRates });
        finish(model, cols, marginals, finishRng);
        const keep = acceptRows(cols, conditions, chunk, generator.fixedColumn);
        generated += chunk;
        accepted += keep.length;
        const take = keep.subarray(0, Math.min(keep.length, want - have));
        if (take.length) parts.push(selectDecoded(cols, take));
        have += take.length;
        if (have < want && generated >= budget) {
          const share = generated ? ((100 * accepted) / generated).toFixed(3) : '0';
          throw new SynthConditionError(`could not generate rows meeting the conditions: ${produced + have} of ${numRows} rows after ${generated} tries (${share}% accepted)`);
        }
      }
      produced += want;
      yield toFrame(model, concatDecoded(parts, want), conditions, want);
    }
  } finally {
    generator.dispose();
  }
}

interface RowGenerator {
  generate(n: number, rng: NeuralRng): Float32Array;
  sigmas?: Float32Array;
  /** Column whose condition goes through the conditional vector (fixed up, not rejected), or -1. */
  fixedColumn: number;
  dispose(): void;
}

function makeGenerator(model: NeuralModel, conditions: ResolvedCondition[]): RowGenerator {
  const p = model.params;
  const layout = p.transformer.layout;
  const weights: Record<string, tf.Tensor> = {};
  for (const [k, v] of Object.entries(p.weights)) weights[k] = tf.tensor(v.data, v.shape);
  const dispose = () => Object.values(weights).forEach((t) => t.dispose());
  if (model.type === 'tvae') {
    return { generate: (n, rng) => tvaeGenerate(weights, layout, p.config, n, rng), sigmas: p.weights.sigma?.data, fixedColumn: -1, dispose };
  }
  const layers = (p.config as { generator_dim: number[] }).generator_dim.length;
  if (layout.condDim === 0) return { generate: (n, rng) => ctganGenerate(weights, layers, layout, p.config, n, rng, null), fixedColumn: -1, dispose };
  const sampler = new CondSampler(layout, p.discreteCounts, null, 0);
  // The rarest categorical condition goes through the conditional vector; the commoner ones are cheap to reject.
  let fixed: { d: number; slot: number; column: number; count: number } | null = null;
  for (const c of conditions) {
    if (c.kind !== 'categorical') continue;
    const enc = p.transformer.encodings[c.column];
    if (enc.kind !== 'categorical') continue;
    const d = layout.discrete.indexOf(enc.span);
    const count = p.discreteCounts[d][c.slot];
    if (!fixed || count < fixed.count) fixed = { d, slot: c.slot, column: c.column, count };
  }
  const batch = sampler.allocate(p.config.batch_size);
  let drawRng: NeuralRng | null = null;
  const cond = (_rows: number) => (fixed ? sampler.fixed(batch, fixed.d, fixed.slot) : sampler.sampleOriginal(batch, drawRng as NeuralRng)).cond;
  return {
    generate: (n, rng) => {
      drawRng = rng;
      return ctganGenerate(weights, layers, layout, p.config, n, rng, cond);
    },
    fixedColumn: fixed ? fixed.column : -1,
    dispose,
  };
}

/** CopulaGAN's inverse marginals, then ranges, whole numbers (missing values come from the model itself). */
function finish(model: NeuralModel, cols: DecodedColumn[], marginals: ReturnType<typeof loadMarginals> | null, rng: Rng): void {
  cols.forEach((c, j) => {
    if (c.kind !== 'numeric') return;
    const m = marginals?.[j];
    if (m) fromNormalScores(c.values, m);
    finishNumeric(model.columns[j], c.values, rng, false);
  });
}

function acceptRows(cols: DecodedColumn[], conditions: ResolvedCondition[], n: number, fixedColumn: number): Int32Array {
  const keep = new Int32Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    let ok = true;
    for (const c of conditions) {
      if (c.column === fixedColumn) continue;
      const col = cols[c.column];
      if (c.kind === 'categorical') ok = col.kind === 'categorical' && col.codes[i] === c.level;
      else ok = col.kind === 'numeric' && Math.abs(col.values[i] - c.value) <= c.tolerance;
      if (!ok) break;
    }
    if (ok) keep[k++] = i;
  }
  return keep.subarray(0, k);
}

function selectDecoded(cols: DecodedColumn[], rows: Int32Array): DecodedColumn[] {
  return cols.map((c): DecodedColumn => {
    if (c.kind === 'numeric') return { kind: 'numeric', values: Float64Array.from(rows, (r) => c.values[r]) };
    return { kind: 'categorical', codes: Int32Array.from(rows, (r) => c.codes[r]), levels: c.levels };
  });
}

function concatDecoded(parts: DecodedColumn[][], n: number): DecodedColumn[] {
  return parts[0].map((first, j): DecodedColumn => {
    let at = 0;
    if (first.kind === 'numeric') {
      const values = new Float64Array(n);
      for (const p of parts) {
        const c = p[j] as Extract<DecodedColumn, { kind: 'numeric' }>;
        values.set(c.values, at);
        at += c.values.length;
      }
      return { kind: 'numeric', values };
    }
    const codes = new Int32Array(n);
    for (const p of parts) {
      const c = p[j] as Extract<DecodedColumn, { kind: 'categorical' }>;
      codes.set(c.codes, at);
      at += c.codes.length;
    }
    return { kind: 'categorical', codes, levels: first.levels };
  });
}

function toFrame(model: NeuralModel, cols: DecodedColumn[], conditions: ResolvedCondition[], nrows: number): Frame {
  for (const c of conditions) {
    const col = cols[c.column];
    if (c.kind === 'categorical' && col.kind === 'categorical') col.codes.fill(c.level);
    if (c.kind === 'numeric' && col.kind === 'numeric') col.values.fill(c.value);
  }
  const columns = cols.map((c, j) => (c.kind === 'numeric' ? columnOf(model.columns[j], c.values) : columnOf(model.columns[j], c.codes, c.levels)));
  return { names: model.columns.map((c) => c.name), columns, nrows };
}

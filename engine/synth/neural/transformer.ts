/**
 * CTGAN's data transformer, shared by CTGAN, TVAE and CopulaGAN: every row becomes one vector the networks read
 * and write.
 *
 * - Numeric and datetime columns: mode-specific normalization. A variational Gaussian mixture (./mixture.ts, at
 *   most 10 modes) is fitted to the present values; modes of weight <= 0.005 are dropped (RDT's
 *   ClusterBasedNormalizer). A value becomes a scalar (x - mean_k) / (4 std_k) clipped to [-0.99, 0.99] plus a
 *   one-hot of the mode k, drawn from the mode posterior (as RDT). A column with missing values gets one more
 *   "mode" that stands for missing (scalar 0), so the networks learn missingness jointly with the other columns.
 * - Categorical columns: one-hot of the observed levels, plus a missing category when there are missing values.
 *   Past `MAX_ONE_HOT_LEVELS` distinct levels, the rarer ones share one "other" slot, decoded by drawing from their
 *   training frequencies (at most `MAX_OTHER_LEVELS` of them are kept).
 *
 * Layout: the scalars come first (one per numeric column), then the one-hot spans ordered by width, so spans of
 * equal width are contiguous and the networks apply one softmax (or log-sum-exp) per width group instead of one
 * per column. The conditional vector covers the categorical spans, in column order.
 */
import type { Column, Frame } from '../../automl';
import { fitVariationalMixture, mixturePosterior, VariationalMixture } from './mixture';
import { drawCumulative, NeuralRng } from './rng';

/** Categorical columns wider than this share an "other" slot among their rarest levels. */
export const MAX_ONE_HOT_LEVELS = 500;
/** Levels of the "other" slot kept for decoding (the most frequent ones). */
export const MAX_OTHER_LEVELS = 10_000;
/** Modes whose expected weight is at most this are dropped (RDT's weight_threshold). */
const MODE_WEIGHT_THRESHOLD = 0.005;
const STD_MULTIPLIER = 4;

export interface NumericEncoding {
  kind: 'numeric';
  column: number;
  means: number[];
  stds: number[];
  hasMissing: boolean;
  /** Index of the column's scalar in the row vector. */
  scalar: number;
  /** Index of the column's mode span in `layout.spans`. */
  span: number;
  /** The full mixture (every component) and which components are kept, for the mode posterior. */
  mixture: VariationalMixture;
  kept: number[];
}

export interface CategoricalEncoding {
  kind: 'categorical';
  column: number;
  /** Output levels: the observed levels (the source column's order), at most MAX_ONE_HOT_LEVELS + MAX_OTHER_LEVELS. */
  levels: string[];
  /** Per one-hot slot: the level index it stands for, -1 for missing, -2 for "other". */
  slots: number[];
  /** The "other" slot's levels and their cumulative training counts. */
  other: { levels: number[]; cum: number[] } | null;
  span: number;
}

/** A column with no present value: nothing to learn, sampled as all missing. */
export interface EmptyEncoding {
  kind: 'empty';
  column: number;
}

export type ColumnEncoding = NumericEncoding | CategoricalEncoding | EmptyEncoding;

export interface Span {
  /** First index of the span in the row vector. */
  offset: number;
  width: number;
  column: number;
  /** Categorical spans are discrete: they take part in the conditional vector. */
  discrete: boolean;
  /** Start of the span in the conditional vector (-1 for mode spans). */
  condOffset: number;
}

/** Contiguous spans of equal width: one reshape to [rows, count, width] reaches them all. */
export interface SpanGroup {
  offset: number;
  width: number;
  count: number;
  /** Index of the group's first span in `spans`. */
  firstSpan: number;
}

export interface Layout {
  dim: number;
  /** Scalars occupy [0, nScalar). */
  nScalar: number;
  /** In row-vector order. */
  spans: Span[];
  groups: SpanGroup[];
  condDim: number;
  /** Discrete span indices in conditional-vector order. */
  discrete: number[];
}

export interface TransformerState {
  names: string[];
  kinds: Column['kind'][];
  encodings: ColumnEncoding[];
  layout: Layout;
}

/** Fits the transformer to a frame; `seed` fixes the mixtures' initialisation. */
export function fitTransformer(frame: Frame, seed: number): TransformerState {
  const pending: Array<{ column: number; width: number; discrete: boolean; owner: NumericEncoding | CategoricalEncoding }> = [];
  let nScalar = 0;
  const encodings = frame.columns.map((c, j): ColumnEncoding => {
    if (c.kind === 'categorical') {
      const enc = fitCategorical(c, j);
      if (!enc) return { kind: 'empty', column: j };
      pending.push({ column: j, width: enc.slots.length, discrete: true, owner: enc });
      return enc;
    }
    const values = c.kind === 'numeric' ? c.values : c.epochMs;
    const present = presentValues(values);
    if (present.length === 0) return { kind: 'empty', column: j };
    const mixture = fitVariationalMixture(present, { seed: seed + j });
    const kept = mixture.weights.map((w, k) => (w > MODE_WEIGHT_THRESHOLD ? k : -1)).filter((k) => k >= 0);
    if (kept.length === 0) kept.push(mixture.weights.indexOf(Math.max(...mixture.weights)));
    const enc: NumericEncoding = {
      kind: 'numeric',
      column: j,
      means: kept.map((k) => mixture.means[k]),
      stds: kept.map((k) => mixture.stds[k]),
      hasMissing: present.length < values.length,
      scalar: nScalar++,
      span: -1,
      mixture,
      kept,
    };
    pending.push({ column: j, width: kept.length + (enc.hasMissing ? 1 : 0), discrete: false, owner: enc });
    return enc;
  });
  // Stable sort by width: equal widths become contiguous groups.
  const order = pending.map((_, i) => i).sort((a, b) => pending[a].width - pending[b].width || a - b);
  const spans: Span[] = [];
  const groups: SpanGroup[] = [];
  let offset = nScalar;
  for (const i of order) {
    const p = pending[i];
    const last = groups[groups.length - 1];
    if (last && last.width === p.width) last.count++;
    else groups.push({ offset, width: p.width, count: 1, firstSpan: spans.length });
    p.owner.span = spans.length;
    spans.push({ offset, width: p.width, column: p.column, discrete: p.discrete, condOffset: -1 });
    offset += p.width;
  }
  const discrete = spans.map((s, i) => (s.discrete ? i : -1)).filter((i) => i >= 0);
  discrete.sort((a, b) => spans[a].column - spans[b].column);
  let condDim = 0;
  for (const i of discrete) {
    spans[i].condOffset = condDim;
    condDim += spans[i].width;
  }
  return { names: frame.names.slice(), kinds: frame.columns.map((c) => c.kind), encodings, layout: { dim: offset, nScalar, spans, groups, condDim, discrete } };
}

function presentValues(values: Float64Array): Float64Array {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) n++;
  const out = new Float64Array(n);
  n = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) out[n++] = values[i];
  return out;
}

function fitCategorical(c: Extract<Column, { kind: 'categorical' }>, column: number): CategoricalEncoding | null {
  const counts = new Float64Array(c.levels.length);
  let missing = 0;
  for (let i = 0; i < c.codes.length; i++) {
    const code = c.codes[i];
    if (code < 0) missing++;
    else counts[code]++;
  }
  const observed = c.levels.map((_, l) => l).filter((l) => counts[l] > 0);
  if (observed.length === 0) return null;
  let inSlots = observed;
  let rest: number[] = [];
  if (observed.length > MAX_ONE_HOT_LEVELS) {
    const byCount = observed.slice().sort((a, b) => counts[b] - counts[a] || a - b);
    const top = new Set(byCount.slice(0, MAX_ONE_HOT_LEVELS - 1));
    inSlots = observed.filter((l) => top.has(l));
    rest = byCount.slice(MAX_ONE_HOT_LEVELS - 1, MAX_ONE_HOT_LEVELS - 1 + MAX_OTHER_LEVELS);
  }
  const levelsOut = [...inSlots, ...rest].sort((a, b) => a - b);
  const index = new Map(levelsOut.map((l, i) => [l, i]));
  const slots = inSlots.map((l) => index.get(l) as number);
  let other: CategoricalEncoding['other'] = null;
  if (rest.length) {
    slots.push(-2);
    let acc = 0;
    other = { levels: rest.map((l) => index.get(l) as number), cum: rest.map((l) => (acc += counts[l])) };
  }
  if (missing > 0) slots.push(-1);
  return { kind: 'categorical', column, levels: levelsOut.map((l) => c.levels[l]), slots, other, span: -1 };
}

/** Per categorical encoding: source level string -> slot (levels outside the slots go to "other" when it exists). */
function slotLookup(enc: CategoricalEncoding): { bySlotLevel: Map<string, number>; otherSlot: number; missingSlot: number } {
  const bySlotLevel = new Map<string, number>();
  enc.slots.forEach((s, slot) => s >= 0 && bySlotLevel.set(enc.levels[s], slot));
  return { bySlotLevel, otherSlot: enc.slots.indexOf(-2), missingSlot: enc.slots.indexOf(-1) };
}

/**
 * Encodes a frame (the training frame, or one with the same columns) into row vectors [nrows * dim]. Mode choice
 * is random (drawn from the mode posterior plus 1e-6, as RDT), from `rng`.
 */
export function encodeFrame(state: TransformerState, frame: Frame, rng: NeuralRng): Float32Array {
  const { layout } = state;
  const n = frame.nrows;
  const dim = layout.dim;
  const out = new Float32Array(n * dim);
  for (const enc of state.encodings) {
    if (enc.kind === 'empty') continue;
    const col = frame.columns[enc.column];
    const span = layout.spans[enc.span];
    if (enc.kind === 'categorical') {
      if (col.kind !== 'categorical') throw new Error(`encodeFrame: column ${state.names[enc.column]} is not categorical`);
      const { bySlotLevel, otherSlot, missingSlot } = slotLookup(enc);
      const slotOfCode = col.levels.map((l) => bySlotLevel.get(l) ?? otherSlot);
      for (let i = 0; i < n; i++) {
        const code = col.codes[i];
        const slot = code < 0 ? missingSlot : slotOfCode[code];
        // A level unseen at fit time (another frame) without an "other" slot: leave the span empty.
        if (slot >= 0) out[i * dim + span.offset + slot] = 1;
      }
      continue;
    }
    const values = col.kind === 'numeric' ? col.values : col.kind === 'datetime' ? col.epochMs : null;
    if (!values) throw new Error(`encodeFrame: column ${state.names[enc.column]} is not numeric`);
    const K = enc.kept.length;
    const post = new Float64Array(enc.mixture.means.length);
    const probs = new Float64Array(K);
    for (let i = 0; i < n; i++) {
      const x = values[i];
      const row = i * dim;
      if (Number.isNaN(x)) {
        out[row + span.offset + K] = 1; // the missing "mode"; scalar stays 0
        continue;
      }
      mixturePosterior(enc.mixture, x, post);
      let total = 0;
      for (let k = 0; k < K; k++) total += probs[k] = post[enc.kept[k]] + 1e-6;
      let u = rng.next() * total;
      let k = 0;
      while (k < K - 1 && (u -= probs[k]) >= 0) k++;
      const z = (x - enc.means[k]) / (STD_MULTIPLIER * enc.stds[k]);
      out[row + enc.scalar] = Math.max(-0.99, Math.min(0.99, z));
      out[row + span.offset + k] = 1;
    }
  }
  return out;
}

/** Raw decoded columns: numeric values (NaN missing; not yet clipped or rounded) or categorical codes (-1 missing). */
export type DecodedColumn = { kind: 'numeric'; values: Float64Array } | { kind: 'categorical'; codes: Int32Array; levels: string[] };

export interface DecodeOptions {
  /** TVAE: Gaussian noise of this scale is added to each scalar first, as the ctgan package does. */
  sigmas?: Float32Array;
  /**
   * Per source column, the training share of missing cells. When given, the generated share is calibrated to it:
   * rows the model made missing stay missing with probability min(1, rate / generated share), and present rows
   * become missing with probability (rate - share) / (1 - share) when the model made too few. The model's choice
   * (which rows are missing, jointly with the other columns) is kept where the rates agree; an undertrained model
   * that never picks the missing mode still gives the right rate. Rows turned present take the best other mode.
   */
  missingRates?: number[];
}

/**
 * Decodes row vectors back into columns: a numeric column from its scalar (clipped to [-1, 1]) and the arg-max mode
 * (the missing mode gives NaN); a categorical column from its arg-max slot. `rng` draws TVAE's noise, the "other"
 * levels and the missing-rate calibration.
 */
export function decodeRows(state: TransformerState, data: Float32Array, n: number, rng: NeuralRng, opts: DecodeOptions = {}): DecodedColumn[] {
  const { layout } = state;
  const dim = layout.dim;
  return state.encodings.map((enc): DecodedColumn => {
    if (enc.kind === 'empty') {
      return state.kinds[enc.column] === 'categorical' ? { kind: 'categorical', codes: new Int32Array(n).fill(-1), levels: [] } : { kind: 'numeric', values: new Float64Array(n).fill(NaN) };
    }
    const span = layout.spans[enc.span];
    const missingSlot = enc.kind === 'categorical' ? enc.slots.indexOf(-1) : enc.hasMissing ? enc.kept.length : -1;
    const chosen = chooseSlots(data, n, dim, span.offset, span.width, missingSlot, opts.missingRates?.[enc.column], rng);
    if (enc.kind === 'categorical') {
      const codes = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const s = enc.slots[chosen[i]];
        codes[i] = s === -2 && enc.other ? enc.other.levels[drawCumulative(enc.other.cum, rng.next())] : s;
      }
      return { kind: 'categorical', codes, levels: enc.levels };
    }
    const values = new Float64Array(n);
    const sigma = opts.sigmas ? opts.sigmas[enc.scalar] : 0;
    for (let i = 0; i < n; i++) {
      const k = chosen[i];
      if (k === missingSlot) {
        values[i] = NaN;
        continue;
      }
      let z = data[i * dim + enc.scalar];
      if (sigma > 0) z += sigma * rng.normal();
      z = Math.max(-1, Math.min(1, z));
      values[i] = z * STD_MULTIPLIER * enc.stds[k] + enc.means[k];
    }
    return { kind: 'numeric', values };
  });
}

/** Per row, the span's arg-max slot, with the missing slot's share calibrated to `rate` when given. */
function chooseSlots(data: Float32Array, n: number, dim: number, offset: number, width: number, missingSlot: number, rate: number | undefined, rng: NeuralRng): Int32Array {
  const chosen = new Int32Array(n);
  let generatedMissing = 0;
  for (let i = 0; i < n; i++) {
    chosen[i] = argmax(data, i * dim + offset, width);
    if (chosen[i] === missingSlot) generatedMissing++;
  }
  if (missingSlot < 0 || rate === undefined || n === 0) return chosen;
  const share = generatedMissing / n;
  const keep = share > rate ? rate / share : 1;
  const add = share < rate && share < 1 ? (rate - share) / (1 - share) : 0;
  for (let i = 0; i < n; i++) {
    const u = rng.next();
    const missing = chosen[i] === missingSlot ? u < keep : u < add;
    if (missing) chosen[i] = missingSlot;
    else if (chosen[i] === missingSlot) chosen[i] = argmaxExcept(data, i * dim + offset, width, missingSlot);
  }
  return chosen;
}

function argmaxExcept(data: Float32Array, start: number, width: number, skip: number): number {
  let best = -1;
  let bestV = -Infinity;
  for (let k = 0; k < width; k++) {
    if (k !== skip && (best < 0 || data[start + k] > bestV)) {
      bestV = data[start + k];
      best = k;
    }
  }
  return best;
}

function argmax(data: Float32Array, start: number, width: number): number {
  let best = 0;
  let bestV = data[start];
  for (let k = 1; k < width; k++) {
    if (data[start + k] > bestV) {
      bestV = data[start + k];
      best = k;
    }
  }
  return best;
}

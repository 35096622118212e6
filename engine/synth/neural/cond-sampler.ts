/**
 * CTGAN's training-by-sampling (Xu et al. 2019, section 4.3; the ctgan package's DataSampler): each training row of
 * the generator is conditioned on one discrete column, picked uniformly, and one of its categories, picked with
 * probability proportional to log(1 + frequency), so rare categories are seen often enough; the real rows shown to
 * the discriminator are drawn among the rows holding that category. Generation without conditions uses the
 * original frequencies instead (a random column, then the category of a random training row).
 */
import type { Layout } from './transformer';
import { drawCumulative, NeuralRng } from './rng';

interface DiscreteColumn {
  span: number;
  offset: number;
  width: number;
  condOffset: number;
  /** Training rows holding each category. */
  rows: Int32Array[];
  logCum: Float64Array;
  freqCum: Float64Array;
}

/** One batch of conditions: the dense conditional vector, and the same one-hots placed in the row layout. */
export interface CondBatch {
  /** [rows, condDim]: the generator's and discriminator's extra input. */
  cond: Float32Array;
  /** [rows, dim - nScalar]: the chosen category's one-hot at its place in the softmax part of the row vector. */
  target: Float32Array;
  /** [rows, spans]: 1 at the chosen column's span (for the generator's cross-entropy on that column). */
  mask: Float32Array;
  /** Chosen discrete column (index into the sampler's columns) and category, per row. */
  column: Int32Array;
  category: Int32Array;
}

export class CondSampler {
  readonly columns: DiscreteColumn[];

  /**
   * `counts[d][k]`: training rows of discrete column d (conditional-vector order) holding category k. `rows` (the
   * rows themselves, same shape) is needed for training only; generation uses the counts.
   */
  constructor(
    private readonly layout: Layout,
    counts: ArrayLike<number>[],
    rows: Int32Array[][] | null,
    readonly nrows: number,
  ) {
    this.columns = layout.discrete.map((s, d) => {
      const span = layout.spans[s];
      const logCum = new Float64Array(span.width);
      const freqCum = new Float64Array(span.width);
      let a = 0;
      let b = 0;
      for (let k = 0; k < span.width; k++) {
        logCum[k] = a += Math.log(counts[d][k] + 1);
        freqCum[k] = b += counts[d][k];
      }
      return { span: s, offset: span.offset, width: span.width, condOffset: span.condOffset, rows: rows ? rows[d] : [], logCum, freqCum };
    });
  }

  /** The sampler of an encoded training table (rows per category included). */
  static fromEncoded(layout: Layout, data: Float32Array, nrows: number): CondSampler {
    const dim = layout.dim;
    const counts: Int32Array[] = [];
    const rows: Int32Array[][] = [];
    for (const s of layout.discrete) {
      const span = layout.spans[s];
      const c = new Int32Array(span.width);
      for (let i = 0; i < nrows; i++) c[hotIndex(data, i * dim + span.offset, span.width)]++;
      const r = Array.from(c, (n) => new Int32Array(n));
      const fill = new Int32Array(span.width);
      for (let i = 0; i < nrows; i++) {
        const k = hotIndex(data, i * dim + span.offset, span.width);
        r[k][fill[k]++] = i;
      }
      counts.push(c);
      rows.push(r);
    }
    return new CondSampler(layout, counts, rows, nrows);
  }

  /** Category counts per discrete column (what generation needs, stored with the model). */
  counts(): number[][] {
    return this.columns.map((c) => Array.from(c.freqCum, (v, k) => v - (k ? c.freqCum[k - 1] : 0)));
  }

  get condDim(): number {
    return this.layout.condDim;
  }

  /** A fresh, zeroed batch holder for `rows` rows (reuse it across batches with `sampleTrain`). */
  allocate(rows: number): CondBatch {
    const soft = this.layout.dim - this.layout.nScalar;
    return {
      cond: new Float32Array(rows * this.layout.condDim),
      target: new Float32Array(rows * soft),
      mask: new Float32Array(rows * this.layout.spans.length),
      column: new Int32Array(rows),
      category: new Int32Array(rows),
    };
  }

  /** Training conditions (log-frequency categories), written into `b`. */
  sampleTrain(b: CondBatch, rng: NeuralRng): CondBatch {
    return this.fill(b, rng, (c) => drawCumulative(c.logCum, rng.next()));
  }

  /** Generation conditions with the original frequencies, written into `b`. */
  sampleOriginal(b: CondBatch, rng: NeuralRng): CondBatch {
    return this.fill(b, rng, (c) => drawCumulative(c.freqCum, rng.next()));
  }

  /** Every row conditioned on one column's category (conditional generation), written into `b`. */
  fixed(b: CondBatch, column: number, category: number): CondBatch {
    return this.fill(b, null, () => category, column);
  }

  private fill(b: CondBatch, rng: NeuralRng | null, pick: (c: DiscreteColumn) => number, fixedColumn = -1): CondBatch {
    const rows = b.column.length;
    const { condDim, nScalar, dim, spans } = this.layout;
    const soft = dim - nScalar;
    b.cond.fill(0);
    b.target.fill(0);
    b.mask.fill(0);
    for (let i = 0; i < rows; i++) {
      const j = fixedColumn >= 0 ? fixedColumn : (rng as NeuralRng).int(this.columns.length);
      const c = this.columns[j];
      const k = pick(c);
      b.column[i] = j;
      b.category[i] = k;
      b.cond[i * condDim + c.condOffset + k] = 1;
      b.target[i * soft + c.offset - nScalar + k] = 1;
      b.mask[i * spans.length + c.span] = 1;
    }
    return b;
  }

  /** Training rows holding each row's condition (a random one among them), for the discriminator's real batch. */
  realRows(column: Int32Array, category: Int32Array, rng: NeuralRng, out: Int32Array): Int32Array {
    for (let i = 0; i < out.length; i++) {
      const rows = this.columns[column[i]].rows[category[i]];
      out[i] = rows[rng.int(rows.length)];
    }
    return out;
  }

  /** Uniform training rows (a table without discrete columns). */
  uniformRows(rng: NeuralRng, out: Int32Array): Int32Array {
    for (let i = 0; i < out.length; i++) out[i] = rng.int(this.nrows);
    return out;
  }
}

function hotIndex(data: Float32Array, start: number, width: number): number {
  for (let k = 0; k < width; k++) if (data[start + k] > 0.5) return k;
  return 0;
}

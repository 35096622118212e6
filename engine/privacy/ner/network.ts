/**
 * The forward pass of spaCy's NER model (TransitionBasedParser.v2 with its own Tok2Vec.v2), as thinc computes it:
 *
 * - embed: four HashEmbed tables (NORM, PREFIX, SUFFIX, SHAPE; each id hashed into 4 rows, summed), concatenated,
 *   Maxout(96, 384, pieces 3) then LayerNorm;
 * - encode: 4 × residual(window of 3 tokens → Maxout(96, 288, pieces 3) → LayerNorm), on the document padded with
 *   4 zero rows each side (thinc's `with_array(pad=4)`: the padding rows are transformed like tokens, so the tokens
 *   near the ends see them);
 * - a Linear(64, 96) projection, then the parser's "lower" layer precomputed per token and state feature
 *   (PrecomputableAffine: 3 features × 64 hidden × 2 pieces); the "upper" Linear(74, 64) scores the moves, here
 *   for the states with no entity open and in ./decoder.ts for the others.
 *
 * The products, maxouts and norms run in the arena's kernels (WebAssembly SIMD, ./simd.ts). thinc stores a Maxout's W
 * as [out][piece][in]; the arena holds it piece-major ([piece][out][in]) so a maxout reads three contiguous vectors.
 */
import { Arena, type NormRef, type QuantRef } from './arena';
import type { NerManifest } from './model-files';

const WIDTH = 96;
const PIECES = 3;
const DEPTH = 4;
const PAD = DEPTH; // receptive field: window 1 × depth 4
const CONCAT = WIDTH * 4;
const WINDOW = WIDTH * 3;
const MIXED = WIDTH * PIECES;
/** The lower layer's outputs per token: 3 features × 64 hidden × 2 pieces. */
export const FEATURES = 3;

const up4 = (n: number): number => (n + 3) & ~3;

export interface EmbedTable {
  E: Float32Array;
  rows: number;
  seed: number;
}

/** thinc's Maxout rows (and biases) are output-major (o·pieces + p); the piece-major order makes maxout contiguous. */
function pieceMajor(rows: Float32Array, width: number): Float32Array {
  const out = new Float32Array(rows.length);
  for (let o = 0; o < WIDTH; o++) for (let p = 0; p < PIECES; p++) out.set(rows.subarray((o * PIECES + p) * width, (o * PIECES + p + 1) * width), (p * WIDTH + o) * width);
  return out;
}

export class NerNetwork {
  readonly embed: EmbedTable[];
  readonly hidden: number;
  readonly nClasses: number;
  readonly lowerBias: Float32Array;
  /** lower.pad as [feature][hidden][piece]: the vector of a missing feature token. */
  readonly lowerPad: Float32Array;
  /** upper.W (classes × hidden) in the arena, and as an array for the decoder's one-state scores. */
  private readonly upperW: number;
  readonly upperWeights: Float32Array;
  readonly upperB: Float32Array;
  private readonly closedBase: Float32Array;
  readonly arena: Arena;
  private readonly embedW: QuantRef;
  private readonly embedNorm: NormRef;
  private readonly encodeW: QuantRef[];
  private readonly encodeNorm: NormRef[];
  private readonly projW: number;
  private readonly projB: Float32Array;
  private readonly lowerW: number;
  /** The first encoder layer's output on a row of padding between padding. */
  private readonly padRow: Float32Array;

  constructor(manifest: NerManifest, floats: Float32Array, opts: { simd?: boolean } = {}) {
    const t = (name: string): Float32Array => {
      const ref = manifest.tensors[name];
      if (!ref) throw new Error(`NER model: tensor ${name} missing`);
      return floats.subarray(ref.offset, ref.offset + ref.shape.reduce((a, b) => a * b, 1));
    };
    this.embed = manifest.embed.map((e) => ({ E: t(e.tensor), rows: manifest.tensors[e.tensor].shape[0], seed: e.seed }));
    const norm = (p: string): NormRef => ({ b: this.arena.put(pieceMajor(t(`${p}.b`), 1)), g: this.arena.put(t(`${p}.G`)), beta: this.arena.put(t(`${p}.beta`)) });
    // What the kernels read: the maxout layers with their norms, the projection and the lower layer.
    const inArena = [...['embed', 'encode0', 'encode1', 'encode2', 'encode3'].flatMap((p) => [`${p}.W`, `${p}.b`, `${p}.G`, `${p}.beta`]), 'proj.W', 'lower.W', 'upper.W'];
    this.arena = new Arena(
      inArena.reduce((n, name) => n + up4(t(name).length), 0),
      opts.simd ?? true,
    );
    this.embedW = this.arena.putQuantized(pieceMajor(t('embed.W'), CONCAT), MIXED, CONCAT);
    this.embedNorm = norm('embed');
    this.encodeW = [0, 1, 2, 3].map((k) => this.arena.putQuantized(pieceMajor(t(`encode${k}.W`), WINDOW), MIXED, WINDOW));
    this.encodeNorm = [0, 1, 2, 3].map((k) => norm(`encode${k}`));
    // A first-layer row whose window is all padding (zeros) outputs its bias's maxout, normalized, whatever the text.
    const zeros = this.arena.scratch(MIXED + WIDTH);
    this.arena.f32.fill(0, zeros, zeros + MIXED);
    this.arena.maxnorm(zeros, this.encodeNorm[0], zeros + MIXED, 1, false);
    this.padRow = this.arena.f32.slice(zeros + MIXED, zeros + MIXED + WIDTH);
    this.projW = this.arena.put(t('proj.W'));
    this.projB = t('proj.b');
    this.hidden = manifest.tensors['proj.W'].shape[0];
    this.lowerW = this.arena.put(t('lower.W'));
    this.lowerBias = t('lower.b');
    this.lowerPad = t('lower.pad');
    this.upperW = this.arena.put(t('upper.W'));
    this.upperWeights = t('upper.W');
    this.upperB = t('upper.b');
    this.nClasses = manifest.tensors['upper.W'].shape[0];
    // The bias plus the padding of features 1 and 2: what a state with no open entity adds to its token's feature 0.
    const h2 = this.hidden * 2;
    this.closedBase = new Float32Array(h2);
    for (let k = 0; k < h2; k++) this.closedBase[k] = this.lowerBias[k] + this.lowerPad[h2 + k] + this.lowerPad[2 * h2 + k];
  }

  /**
   * Context-free token vectors (m × 96, into `out`) from their concatenated embedding sums (m × 384): the embedding
   * layer's Maxout and LayerNorm.
   */
  mix(concat: Float32Array, m: number, out: Float32Array): void {
    const a = this.arena;
    const x = a.scratch(up4(m) * CONCAT + up4(m) * MIXED + up4(m) * WIDTH + Arena.quantScratch(MIXED, CONCAT, m, CONCAT));
    const y = x + up4(m) * CONCAT;
    const z = y + up4(m) * MIXED;
    a.f32.set(concat.subarray(0, m * CONCAT), x);
    a.gemmQ(this.embedW, x, y, MIXED, CONCAT, m, CONCAT, z + up4(m) * WIDTH);
    a.maxnorm(y, this.embedNorm, z, m, false);
    out.set(a.f32.subarray(z, z + m * WIDTH));
  }

  /**
   * From the n embedded tokens (n × 96): the lower layer's pre-activations, n × [feature][hidden][piece] (each
   * token's contribution as every state feature; the decoder sums the three its state points at), and the move
   * scores (n × classes, bias not added) of the states with no entity open, whose other two features are padding:
   * those, the most frequent states, are scored here in one product rather than one by one.
   */
  encode(embedded: Float32Array, n: number): { lower: Float32Array; closedScores: Float32Array } {
    const a = this.arena;
    const rows = n + 2 * PAD;
    // Room for the 4-token blocks to read past the last row.
    const bufRows = rows + 8;
    const H = this.hidden;
    const lowerWidth = FEATURES * H * 2;
    const C = this.nClasses;
    const quantAt = 2 * bufRows * WIDTH + up4(rows) * MIXED + up4(n) * (H + lowerWidth + H + C);
    const x0 = a.scratch(quantAt + Arena.quantScratch(MIXED, WINDOW, rows, WIDTH));
    const quant = x0 + quantAt;
    const y0 = x0 + bufRows * WIDTH;
    const mixed = y0 + bufRows * WIDTH;
    const proj = mixed + up4(rows) * MIXED;
    const lower = proj + up4(n) * H;
    const closedHidden = lower + up4(n) * lowerWidth;
    const closed = closedHidden + up4(n) * H;
    const f = a.f32;
    f.fill(0, x0, mixed);
    f.set(embedded.subarray(0, n * WIDTH), x0 + PAD * WIDTH);
    let x = x0;
    let y = y0;
    for (let k = 1; k <= DEPTH; k++) {
      // Only the rows the document's tokens still depend on: layer k reaches 4 - k rows past each end. Row r's
      // window is rows r-1..r+1, contiguous, so the windows overlap in place (stride one row). In the first layer the
      // two outer rows each side see only padding: they are the constant padRow.
      let first = k;
      let count = rows - 2 * k;
      if (k === 1) {
        for (const r of [1, 2, rows - 3, rows - 2]) f.set(this.padRow, y + r * WIDTH);
        first = 3;
        count = rows - 6;
      }
      a.gemmQ(this.encodeW[k - 1], x + (first - 1) * WIDTH, mixed, MIXED, WINDOW, count, WIDTH, quant);
      f.copyWithin(y + first * WIDTH, x + first * WIDTH, x + (first + count) * WIDTH);
      a.maxnorm(mixed, this.encodeNorm[k - 1], y + first * WIDTH, count, true);
      const swap = x;
      x = y;
      y = swap;
    }
    a.gemm(this.projW, x + PAD * WIDTH, proj, H, WIDTH, n, WIDTH);
    for (let i = 0; i < n; i++) for (let h = 0; h < H; h++) f[proj + i * H + h] += this.projB[h];
    a.gemm(this.lowerW, proj, lower, lowerWidth, H, n, H);
    // The hidden layer of "no entity open at token i": token i as feature 0, padding as features 1 and 2.
    const base = this.closedBase;
    for (let i = 0; i < n; i++) {
      const at = lower + i * lowerWidth;
      const out = closedHidden + i * H;
      for (let h = 0; h < H; h++) {
        const p0 = f[at + 2 * h] + base[2 * h];
        const p1 = f[at + 2 * h + 1] + base[2 * h + 1];
        f[out + h] = p0 >= p1 ? p0 : p1;
      }
    }
    a.gemm(this.upperW, closedHidden, closed, C, H, n, H);
    return { lower: f.slice(lower, lower + n * lowerWidth), closedScores: f.slice(closed, closed + n * C) };
  }
}

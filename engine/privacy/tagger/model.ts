/**
 * The entity tagger's model: an averaged structured perceptron over hashed features with first-order tag
 * transitions, decoded by Viterbi. Small and fast (a table of BUCKETS × tags weights, a few dozen lookups per token
 * and tag), trained offline by bench/pii/train-tagger.ts and shipped as ./weights.json.
 */
import { gunzipSync, gzipSync } from 'node:zlib';

export const TAGS = ['O', 'B-PER', 'I-PER', 'B-ORG', 'I-ORG', 'B-LOC', 'I-LOC'] as const;
export type Tag = (typeof TAGS)[number];
const T = TAGS.length;
// sumRows below is unrolled for these seven tags.
if (T !== 7) throw new Error("the entity tagger's sumRows is written for 7 tags");
export const BUCKETS = 1 << 17;
const MASK = BUCKETS - 1;

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a over UTF-16 code units, continuing from `h` (hashing "ab" from "a"'s state is hashing "ab"). */
function fnv(s: string, h = FNV_OFFSET): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
const rowOf = (h: number): number => (h & MASK) * T;

/** A feature's row in the table. */
export const featureRow = (feature: string): number => rowOf(fnv(feature));

const prefixes = new Map<string, number>();
/**
 * The row of the feature `prefix + parts.join('')`, hashing only the parts (the prefix's hash is kept): the same row
 * as featureRow of the whole string, without building it.
 */
export function featureRowOf(prefix: string, ...parts: string[]): number {
  let h = prefixes.get(prefix);
  if (h === undefined) {
    h = fnv(prefix);
    prefixes.set(prefix, h);
  }
  for (const part of parts) h = fnv(part, h);
  return rowOf(h);
}

// The features pairing the previous tag with a token: `pt=<tag>`, `pt=<tag>|sh=<shape>`, `pt=<tag>|det=<kind>`. Their
// prefixes are hashed once; a token only continues them with its shape and kind.
const PT_ROWS = TAGS.map((p) => featureRow(`pt=${p}`));
const PT_SHAPE = TAGS.map((p) => fnv(`pt=${p}|sh=`));
const PT_DET = TAGS.map((p) => fnv(`pt=${p}|det=`));

/** A token's transition rows per previous tag, from its shape and the kind of detection over it. */
export function transitionRows(tokenShape: string, detKind: string): number[][] {
  return PT_ROWS.map((row, p) => [row, rowOf(fnv(tokenShape, PT_SHAPE[p])), rowOf(fnv(detKind, PT_DET[p]))]);
}

/** I-X may only follow B-X or I-X. */
function allowed(prev: number, cur: number): boolean {
  const tag = TAGS[cur];
  if (!tag.startsWith('I-')) return true;
  const p = TAGS[prev];
  return p === `B-${tag.slice(2)}` || p === tag;
}
const ALLOWED: boolean[][] = TAGS.map((_, p) => TAGS.map((__, c) => allowed(p, c)));
/** The tag before the first token: O. */
const START = 0;

/** out[t] = Σ over the rows of w[row + t], for the T tags (unrolled: this is the tagger's inner loop). */
function sumRows(w: Float32Array | Float64Array, rows: number[], out: Float64Array): void {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let s5 = 0;
  let s6 = 0;
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k];
    s0 += w[r];
    s1 += w[r + 1];
    s2 += w[r + 2];
    s3 += w[r + 3];
    s4 += w[r + 4];
    s5 += w[r + 5];
    s6 += w[r + 6];
  }
  out[0] = s0;
  out[1] = s1;
  out[2] = s2;
  out[3] = s3;
  out[4] = s4;
  out[5] = s5;
  out[6] = s6;
}

/** One token's inputs: its static feature rows and its transition features per previous tag. */
export interface TokenInput {
  rows: number[];
  /** transitions[p]: the rows of the features that pair the previous tag p with this token. */
  transitions: number[][];
}

/** The weights as stored in ./weights.json. */
export interface StoredWeights {
  format: number;
  buckets: number;
  tags: readonly string[];
  scale: number;
  data: string;
}

export interface Decoded {
  tags: number[];
  /** Per token, the best tag's score less the best other tag's (the path's confidence in it). */
  margins: number[];
}

export class TaggerModel {
  constructor(readonly weights: Float32Array | Float64Array) {}

  decode(tokens: TokenInput[]): Decoded {
    const n = tokens.length;
    if (n === 0) return { tags: [], margins: [] };
    const w = this.weights;
    // scores[i * T + c]: the best path's score ending in tag c at token i; back: the tag before it on that path.
    const scores = new Float64Array(n * T).fill(-Infinity);
    const back = new Int8Array(n * T);
    const stat = new Float64Array(T);
    const trans = new Float64Array(T);
    for (let i = 0; i < n; i++) {
      sumRows(w, tokens[i].rows, stat);
      const at = i * T;
      for (let p = 0; p < T; p++) {
        const before = i === 0 ? (p === START ? 0 : -Infinity) : scores[at - T + p];
        if (before === -Infinity) continue;
        sumRows(w, tokens[i].transitions[p], trans);
        const allowed = ALLOWED[p];
        for (let c = 0; c < T; c++) {
          if (!allowed[c]) continue;
          const s = before + stat[c] + trans[c];
          if (s > scores[at + c]) {
            scores[at + c] = s;
            back[at + c] = p;
          }
        }
      }
    }
    const tags = new Array<number>(n);
    const margins = new Array<number>(n);
    let best = 0;
    const last = (n - 1) * T;
    for (let c = 1; c < T; c++) if (scores[last + c] > scores[last + best]) best = c;
    for (let i = n - 1; i >= 0; i--) {
      tags[i] = best;
      // A token's margin: how far its tag's best path runs ahead of the best path through another tag there.
      let other = -Infinity;
      for (let c = 0; c < T; c++) if (c !== best && scores[i * T + c] > other) other = scores[i * T + c];
      margins[i] = scores[i * T + best] - other;
      best = back[i * T + best];
    }
    return { tags, margins };
  }

  /** The weights as stored: int16 with one scale, gzipped, base64. */
  serialize(): StoredWeights {
    let max = 0;
    for (const v of this.weights) if (Math.abs(v) > max) max = Math.abs(v);
    const scale = max / 32767 || 1;
    const q = new Int16Array(this.weights.length);
    for (let i = 0; i < q.length; i++) q[i] = Math.round(this.weights[i] / scale);
    return { format: 1, buckets: BUCKETS, tags: TAGS, scale, data: gzipSync(Buffer.from(q.buffer), { level: 9 }).toString('base64') };
  }

  static deserialize(stored: StoredWeights): TaggerModel {
    if (stored.format !== 1 || stored.buckets !== BUCKETS || stored.tags.join() !== TAGS.join()) throw new Error('entity tagger weights of another format');
    const raw = gunzipSync(Buffer.from(stored.data, 'base64'));
    const q = new Int16Array(raw.buffer, raw.byteOffset, raw.byteLength / 2);
    const w = new Float32Array(q.length);
    for (let i = 0; i < q.length; i++) w[i] = q[i] * stored.scale;
    return new TaggerModel(w);
  }
}

/** Averaged perceptron training (the averaging by the usual timestamp trick). */
export class TaggerTrainer {
  readonly w = new Float64Array(BUCKETS * T);
  private readonly u = new Float64Array(BUCKETS * T);
  private c = 1;
  private readonly model = new TaggerModel(this.w);

  private update(rows: number[], tag: number, by: number): void {
    for (const r of rows) {
      this.w[r + tag] += by;
      this.u[r + tag] += this.c * by;
    }
  }

  /** Learns from one sentence; answers whether it was already right. */
  learn(tokens: TokenInput[], gold: number[]): boolean {
    const { tags } = this.model.decode(tokens);
    let right = true;
    for (let i = 0; i < tokens.length; i++) {
      const gp = i === 0 ? START : gold[i - 1];
      const pp = i === 0 ? START : tags[i - 1];
      if (tags[i] === gold[i] && gp === pp) continue;
      right = false;
      this.update(tokens[i].rows, gold[i], 1);
      this.update(tokens[i].transitions[gp], gold[i], 1);
      this.update(tokens[i].rows, tags[i], -1);
      this.update(tokens[i].transitions[pp], tags[i], -1);
    }
    this.c++;
    return right;
  }

  averaged(): TaggerModel {
    const avg = new Float32Array(this.w.length);
    for (let i = 0; i < avg.length; i++) avg[i] = this.w[i] - this.u[i] / this.c;
    return new TaggerModel(avg);
  }
}

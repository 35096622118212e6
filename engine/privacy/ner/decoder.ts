/**
 * Greedy BILUO decoding as spaCy's `BiluoPushDown` does it (spacy/pipeline/_parser_internals/ner.pyx): one move per
 * token, the best-scoring among the moves valid in the state. The state's features are the next token, the open
 * entity's first token and the token before the next one (the last of the open entity); a missing one uses the
 * lower layer's learned padding. Documents here carry no preset entities and no sentence boundaries (the NER
 * component alone), so the validity rules reduce to: Begin needs no open entity, a next token and a non-space
 * token; In and Last continue the open entity's label (In needs a next token); Unit needs no open entity and a
 * non-space token; Out needs no open entity.
 */
import type { MoveSpec } from './model-files';
import { FEATURES, type NerNetwork } from './network';

const BEGIN = 1;
const IN = 2;
const LAST = 3;
const UNIT = 4;
const OUT = 5;

export interface RawEntity {
  label: string;
  /** Token range, end exclusive. */
  start: number;
  end: number;
  /** The least confident of its moves: softmax probability among the moves valid at that step. */
  score: number;
}

export class Decoder {
  private readonly move: Int32Array;
  private readonly labelIds: Int32Array;
  private readonly labels: string[];

  constructor(
    moves: MoveSpec[],
    private readonly net: NerNetwork,
  ) {
    this.labels = [''];
    const ids = new Map<string, number>([['', 0]]);
    this.move = new Int32Array(moves.length);
    this.labelIds = new Int32Array(moves.length);
    moves.forEach((m, i) => {
      let id = ids.get(m.label);
      if (id === undefined) {
        id = this.labels.length;
        ids.set(m.label, id);
        this.labels.push(m.label);
      }
      this.move[i] = m.move;
      this.labelIds[i] = id;
    });
    if (moves.length !== net.nClasses) throw new Error(`NER model: ${moves.length} moves but ${net.nClasses} classes`);
  }

  /** The valid moves of a state kind, in class order (spaCy's argmax keeps the first of equal scores). */
  private readonly validByKind = new Map<number, Int32Array>();

  /**
   * The moves valid in a state: with no open entity they depend on whether the next token is the last one and
   * whitespace; with one open, on its label and whether the token is the last.
   */
  private validMoves(open: boolean, entLabel: number, last: boolean, space: boolean): Int32Array {
    const kind = open ? 4 + entLabel * 2 + (last ? 1 : 0) : (last ? 1 : 0) + (space ? 2 : 0);
    let list = this.validByKind.get(kind);
    if (!list) {
      const out: number[] = [];
      for (let c = 0; c < this.move.length; c++) {
        const m = this.move[c];
        const label = this.labelIds[c];
        let ok: boolean;
        if (m === BEGIN) ok = !open && !last && label !== 0 && !space;
        else if (m === IN) ok = open && !last && label !== 0 && label === entLabel;
        else if (m === LAST) ok = open && label !== 0 && label === entLabel;
        else if (m === UNIT) ok = !open && label !== 0 && !space;
        else ok = m === OUT && !open;
        if (ok) out.push(c);
      }
      list = Int32Array.from(out);
      this.validByKind.set(kind, list);
    }
    return list;
  }

  /**
   * The entities of a document from its tokens' lower-layer outputs and the scores of the states with no entity open
   * (./network.ts `encode`), and which tokens are whitespace.
   */
  decode(lower: Float32Array, closedScores: Float32Array, isSpace: Uint8Array, n: number): RawEntity[] {
    const net = this.net;
    const H = net.hidden;
    const width = H * 2;
    const tokenWidth = FEATURES * width;
    const unmaxed = new Float32Array(width);
    const hidden = new Float32Array(H);
    const nC = this.move.length;
    const scores = new Float64Array(nC);
    const ents: RawEntity[] = [];
    let open = false;
    let entStart = -1;
    let entLabel = 0;
    let entScore = 1;
    const ids = [0, -1, -1];
    for (let i = 0; i < n; i++) {
      const valid = this.validMoves(open, entLabel, i === n - 1, isSpace[i] === 1);
      const nValid = valid.length;
      if (nValid === 0) break; // spaCy forces the state final
      let best = valid[0];
      let p = 1;
      // One valid move (whitespace outside an entity, an entity's last token) needs no scores.
      if (nValid > 1 && !open) {
        const at = i * nC;
        let bestScore = -Infinity;
        for (let v = 0; v < nValid; v++) {
          const c = valid[v];
          const s = closedScores[at + c] + net.upperB[c];
          scores[v] = s;
          if (s > bestScore) {
            bestScore = s;
            best = c;
          }
        }
        if (this.move[best] !== OUT) {
          let z = 0;
          for (let v = 0; v < nValid; v++) z += Math.exp(scores[v] - bestScore);
          p = 1 / z;
        }
      } else if (nValid > 1) {
        ids[0] = i;
        ids[1] = open ? entStart : -1;
        ids[2] = open ? i - 1 : -1;
        unmaxed.set(net.lowerBias);
        for (let f = 0; f < FEATURES; f++) {
          const t = ids[f];
          const src = t < 0 ? net.lowerPad : lower;
          const at = t < 0 ? f * width : t * tokenWidth + f * width;
          for (let k = 0; k < width; k++) unmaxed[k] += src[at + k];
        }
        for (let h = 0; h < H; h++) hidden[h] = unmaxed[2 * h] >= unmaxed[2 * h + 1] ? unmaxed[2 * h] : unmaxed[2 * h + 1];
        let bestScore = -Infinity;
        for (let v = 0; v < nValid; v++) {
          const c = valid[v];
          let s = net.upperB[c];
          const w = c * H;
          for (let k = 0; k < H; k++) s += net.upperWeights[w + k] * hidden[k];
          scores[v] = s;
          if (s > bestScore) {
            bestScore = s;
            best = c;
          }
        }
        // The move's probability among the valid ones, for the entity's score (Out needs none).
        if (this.move[best] !== OUT) {
          let z = 0;
          for (let v = 0; v < nValid; v++) z += Math.exp(scores[v] - bestScore);
          p = 1 / z;
        }
      }
      const m = this.move[best];
      if (m === BEGIN) {
        open = true;
        entStart = i;
        entLabel = this.labelIds[best];
        entScore = p;
      } else if (m === IN) {
        if (p < entScore) entScore = p;
      } else if (m === LAST) {
        open = false;
        ents.push({ label: this.labels[entLabel], start: entStart, end: i + 1, score: Math.min(entScore, p) });
      } else if (m === UNIT) {
        ents.push({ label: this.labels[this.labelIds[best]], start: i, end: i + 1, score: p });
      }
    }
    return ents;
  }
}

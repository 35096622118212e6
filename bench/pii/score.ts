/**
 * Scoring of the independent PII benchmark: span F1 per type, type-agnostic span F1 and per-character redaction
 * recall and precision, for one detector's predictions over a set of labelled texts.
 *
 * Rules (stated in bench/pii/README.md):
 * - A prediction matches a gold span when they overlap by at least half of the gold span's characters; typed scoring
 *   also needs the prediction to count as the gold span's type. Matching is one to one: each gold span takes the
 *   unused prediction that overlaps it most.
 * - Only predictions of the types a text's corpus labels are judged (an unjudged type, such as a phone number in a
 *   corpus that labels only names, organizations and places, is neither right nor wrong there). An unmatched judged
 *   prediction that touches a span the corpus labels as a non-PII entity (a product) is not counted either.
 * - Characters: the non-space characters inside gold spans against those inside judged predictions (outside non-PII
 *   entities). `recallAnyType` counts gold characters covered by a prediction of any type at all, which is what a
 *   redaction of everything detected removes.
 */
import type { CorpusText, GoldSpan } from './corpora';

export interface Pred {
  /** The gold types this prediction may count as, preferred first (its false positive is charged to the first). */
  types: string[];
  /** The detector's own label (engine type id or Presidio entity). */
  label: string;
  start: number;
  end: number;
}
export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}
export interface Prf extends Counts {
  p: number;
  r: number;
  f: number;
}
export interface Metrics {
  perType: Record<string, Prf>;
  agnostic: Prf;
  chars: { gold: number; recall: number; precision: number; recallAnyType: number };
}
/** Why a gold span was missed. */
export type MissReason = 'no_prediction' | 'unjudged_type' | 'other_type' | 'under_half' | 'merged';
export interface Outcome {
  /** Per text, per gold span: index of the matching prediction (typed) or -1. */
  typedMatch: number[][];
  /** Per text, per prediction: judged and unmatched (a false positive in typed scoring). */
  falsePositive: boolean[][];
}

const overlap = (a: { start: number; end: number }, b: { start: number; end: number }): number => Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));

export const prf = (c: Counts): Prf => {
  const p = c.tp + c.fp ? c.tp / (c.tp + c.fp) : 0;
  const r = c.tp + c.fn ? c.tp / (c.tp + c.fn) : 0;
  return { ...c, p, r, f: p + r ? (2 * p * r) / (p + r) : 0 };
};

/** Predictions restricted to what the text's corpus judges (types narrowed to the judged ones). */
function judged(preds: Pred[], types: Set<string>): (Pred | null)[] {
  return preds.map((p) => {
    const ts = p.types.filter((t) => types.has(t));
    return ts.length ? { ...p, types: ts } : null;
  });
}

/** One-to-one matching of gold spans to predictions; `typed` also needs the prediction to count as the gold type. */
function match(gold: GoldSpan[], preds: (Pred | null)[], typed: boolean): number[] {
  const used = new Set<number>();
  return gold.map((g) => {
    let best = -1;
    let bestOverlap = 0;
    preds.forEach((p, k) => {
      if (!p || used.has(k) || (typed && !p.types.includes(g.type))) return;
      const o = overlap(p, g);
      if (o >= 0.5 * (g.end - g.start) && o > bestOverlap) {
        best = k;
        bestOverlap = o;
      }
    });
    if (best >= 0) used.add(best);
    return best;
  });
}

function nonSpace(text: string, mask: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] && !/\s/.test(text[i])) n++;
  return n;
}

function paint(mask: Uint8Array, s: { start: number; end: number }, v = 1): void {
  for (let i = s.start; i < s.end && i < mask.length; i++) mask[i] = v;
}

export function score(texts: CorpusText[], preds: Pred[][], judgedBy: Set<string>[]): { metrics: Metrics; outcome: Outcome } {
  const perType = new Map<string, Counts>();
  const at = (t: string): Counts => perType.get(t) ?? (perType.set(t, { tp: 0, fp: 0, fn: 0 }), perType.get(t)!);
  const agn: Counts = { tp: 0, fp: 0, fn: 0 };
  let goldChars = 0;
  let hitChars = 0;
  let predChars = 0;
  let anyChars = 0;
  const outcome: Outcome = { typedMatch: [], falsePositive: [] };

  texts.forEach((t, i) => {
    const ps = judged(preds[i], judgedBy[i]);
    const touchesIgnored = (p: Pred): boolean => t.ignored.some((s) => overlap(s, p) > 0);

    const typed = match(t.spans, ps, true);
    const usedTyped = new Set(typed.filter((k) => k >= 0));
    t.spans.forEach((g, j) => (typed[j] >= 0 ? at(g.type).tp++ : at(g.type).fn++));
    const fp = ps.map((p, k) => !!p && !usedTyped.has(k) && !touchesIgnored(p));
    fp.forEach((isFp, k) => isFp && at(ps[k]!.types[0]).fp++);
    outcome.typedMatch.push(typed);
    outcome.falsePositive.push(fp);

    const loose = match(t.spans, ps, false);
    const usedLoose = new Set(loose.filter((k) => k >= 0));
    agn.tp += usedLoose.size;
    agn.fn += loose.length - usedLoose.size;
    agn.fp += ps.filter((p, k) => p && !usedLoose.has(k) && !touchesIgnored(p)).length;

    const n = t.text.length;
    const gold = new Uint8Array(n);
    const pred = new Uint8Array(n);
    const any = new Uint8Array(n);
    t.spans.forEach((s) => paint(gold, s));
    ps.forEach((p) => p && paint(pred, p));
    t.ignored.forEach((s) => paint(pred, s, 0));
    preds[i].forEach((p) => paint(any, p));
    const both = pred.map((v, k) => v & gold[k]);
    goldChars += nonSpace(t.text, gold);
    predChars += nonSpace(t.text, pred);
    hitChars += nonSpace(t.text, both);
    anyChars += nonSpace(
      t.text,
      any.map((v, k) => v & gold[k]),
    );
  });

  return {
    metrics: {
      perType: Object.fromEntries([...perType.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, c]) => [k, prf(c)])),
      agnostic: prf(agn),
      chars: { gold: goldChars, recall: goldChars ? hitChars / goldChars : 0, precision: predChars ? hitChars / predChars : 0, recallAnyType: goldChars ? anyChars / goldChars : 0 },
    },
    outcome,
  };
}

/** Why a gold span was missed by typed matching (for the error analysis). */
export function missReason(g: GoldSpan, preds: Pred[], judgedTypes: Set<string>): { reason: MissReason; by?: string } {
  const touching = preds.filter((p) => overlap(p, g) > 0);
  if (touching.length === 0) return { reason: 'no_prediction' };
  const half = touching.filter((p) => overlap(p, g) >= 0.5 * (g.end - g.start));
  const judgedHalf = half.filter((p) => p.types.some((t) => judgedTypes.has(t)));
  // The right type over half of it, but matched to a neighbouring gold span: one prediction spanning two entities.
  if (judgedHalf.some((p) => p.types.includes(g.type))) return { reason: 'merged', by: judgedHalf[0].label };
  if (judgedHalf.length) return { reason: 'other_type', by: judgedHalf[0].label };
  if (half.length) return { reason: 'unjudged_type', by: half[0].label };
  return { reason: 'under_half', by: touching[0].label };
}

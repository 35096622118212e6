/**
 * PII in free text: every recognizer whose character needs the text meets runs once over it, each candidate is
 * validated (check digits, dates) and scored (context words near it raise a weak pattern, words like "order" lower
 * a card-like number), then overlapping spans are resolved: the best-supported span wins, a longer one on a tie.
 */
import { compact, textFlags, type Recognizer } from './recognizers/define';
import { recognizersFor } from './recognizers';
import type { Detection } from './types';

export interface DetectTextOptions {
  /** Only these PII type ids (default: all). */
  types?: readonly string[];
  /** Drop detections below this confidence (default 0.5). */
  minConfidence?: number;
  /** Keep overlapping detections instead of resolving them (for callers that resolve themselves). */
  keepOverlaps?: boolean;
}

/** Characters read before and after a match for context words. */
const BEFORE = 40;
const AFTER = 25;

/** A sentence ends at . ! ? before a capital (not after "no." or "Dr." mid-sentence) or at a semicolon. */
const SENTENCE_END = /[.!?]\s+(?=[A-Z])|;\s/g;

/** The part of a window before the match that belongs to the match's sentence. */
function sentenceTail(s: string): string {
  let cut = 0;
  SENTENCE_END.lastIndex = 0;
  while (SENTENCE_END.exec(s) !== null) cut = SENTENCE_END.lastIndex;
  return s.slice(cut);
}

/** The part of a window after the match that belongs to the match's sentence. */
function sentenceHead(s: string): string {
  const m = /[.!?](?=\s+[A-Z]|$)|;/.exec(s);
  return m ? s.slice(0, m.index) : s;
}

/** Confidence of a match from its base score and the words around it (in its own sentence). */
export function scoreInContext(r: Recognizer, text: string, start: number, end: number, base: number, evidence: string[]): number {
  let confidence = base;
  if (r.context) {
    const before = sentenceTail(text.slice(Math.max(0, start - BEFORE), start)).toLowerCase();
    const after = sentenceHead(text.slice(end, end + AFTER)).toLowerCase();
    if (r.context.test(before) || r.context.test(after)) {
      if (r.contextScore > confidence) confidence = r.contextScore;
      evidence.push('context');
    }
  }
  if (r.negativeContext && r.negativeContext.test(text.slice(Math.max(0, start - 25), start).toLowerCase())) {
    // Enough to take a checksum-valid card-like number under the default threshold after "order number".
    confidence -= 0.45;
    evidence.push('negative_context');
  }
  return confidence < 0 ? 0 : confidence;
}

/** The candidates of one recognizer, scored. */
function candidates(r: Recognizer, text: string, minConfidence: number, out: Detection[]): void {
  if (r.find) {
    for (const m of r.find(text)) {
      const evidence = [...(m.evidence ?? [])];
      const confidence = scoreInContext(r, text, m.start, m.end, m.score ?? r.score, evidence);
      if (confidence >= minConfidence) out.push({ type: r.id, start: m.start, end: m.end, text: text.slice(m.start, m.end), confidence, evidence });
    }
    return;
  }
  const re = r.pattern as RegExp;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const raw = m[0];
    if (raw.length === 0) {
      re.lastIndex++;
      continue;
    }
    const evidence = ['pattern'];
    let base = r.score;
    if (r.validate) {
      const c = compact(raw);
      const v = r.validate(c, raw);
      if (v === false) continue;
      if (typeof v === 'number') base = v;
      evidence.push(r.evidence === 'checksum' ? 'checksum' : 'validated');
      const extra = r.describe?.(c);
      if (extra) evidence.push(extra);
    }
    // A weak pattern is far below the threshold without context, and context can add at most contextScore.
    if (base < minConfidence && (!r.context || r.contextScore < minConfidence)) continue;
    const start = m.index;
    const end = start + raw.length;
    const confidence = scoreInContext(r, text, start, end, base, evidence);
    if (confidence >= minConfidence) out.push({ type: r.id, start, end, text: raw, confidence, evidence });
  }
}

const named = (d: Detection): boolean => d.evidence.includes('context');

/**
 * Keep the best-supported of overlapping spans. On the very same span, a type named by the words around it beats one
 * that is not, whatever the confidences: "CPR: 231281-8937" is a Danish CPR number even though its digits also pass
 * the Finnish HETU check (a 1-in-31 coincidence); the writer's label is direct evidence of which identifier it is.
 * Then higher confidence, then longer, then earlier recognizer.
 */
export function resolveOverlaps(found: Detection[]): Detection[] {
  const namedSpans = new Set<string>();
  for (const d of found) if (named(d)) namedSpans.add(`${d.start}:${d.end}`);
  const order = found.filter((d) => named(d) || !namedSpans.has(`${d.start}:${d.end}`)).map((d, i) => ({ d, i }));
  order.sort((a, b) => b.d.confidence - a.d.confidence || b.d.end - b.d.start - (a.d.end - a.d.start) || a.i - b.i);
  const kept: Detection[] = [];
  for (const { d } of order) {
    let clash = false;
    for (const k of kept) {
      if (d.start < k.end && k.start < d.end) {
        clash = true;
        break;
      }
    }
    if (!clash) kept.push(d);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** All PII spans of a text, best first on overlaps, sorted by position. */
export function detectText(text: string, opts: DetectTextOptions = {}): Detection[] {
  if (!text) return [];
  const minConfidence = opts.minConfidence ?? 0.5;
  const flags = textFlags(text);
  const found: Detection[] = [];
  for (const r of recognizersFor(opts.types)) {
    if ((r.needs & flags) !== r.needs) continue;
    candidates(r, text, minConfidence, found);
  }
  return opts.keepOverlaps ? found.sort((a, b) => a.start - b.start) : resolveOverlaps(found);
}

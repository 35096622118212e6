/**
 * PII in free text: every recognizer whose character needs the text meets runs once over it (the rules and, where one
 * is registered, a statistical model whose detections carry the evidence `model`), each candidate is validated (check
 * digits, dates) and scored (context words near it raise a weak pattern, words like "order" lower a card-like
 * number), then overlapping spans are resolved: model and rule proposals of one entity become one span, an address
 * takes in its parts, and the best-supported span wins, a longer one on a tie. Where the model and a gazetteer rule
 * give the same words different entity types, the model's reading in context wins when it is sure (`ner_sure`) and
 * the rule knew the words only as a lone name or by their shape; a list's full answer (a known first name and
 * surname, a known organization or place) wins otherwise. A model span is lost only on evidence against it: a
 * validator's other type, a field label, a doubtful shape.
 */
import { compact, textFlags, type Recognizer } from './recognizers/define';
import { finishSpans } from './finish-spans';
import { fold, lexicon, surnameShaped } from './lexicon';
import { isCueWord, notAnOrganization } from './recognizers/named-entities';
import { recognizer, recognizersFor } from './recognizers';
import { TAGGER_TYPES, taggedEntities } from './tagger';
import { mergeTagged, type TaggerMode } from './tagger/merge';
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

/**
 * A sentence ends at . ! ? before a capital or at a semicolon, not at the full stop of a title, an abbreviation or an
 * initial ("call Prof. Elise Paffrath on ...", "J. Smith") that goes on with a name.
 */
const SENTENCE_END =
  /(?<!(?:^|[^\p{L}])(?:Mr|Mrs|Ms|Mx|Dr|Dra|Prof|Profa|Sr|Sra|Srta|Jr|St|Mt|Rev|Hon|Gen|Col|Capt|Cpt|Lt|Sgt|Maj|Sen|Rep|Gov|Ing|Dipl\.-Ing|Lic|Arq|Me|Mme|Mlle|Hr|Fr|Dott|Avv|Sig|No|Nr|Nos|vs|etc|\p{Lu}))[.!?]\s+(?=\p{Lu})|;\s/gu;

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

/** Whether a context word of the recognizer is near the match, in the match's own sentence. */
function saidNear(r: Recognizer, text: string, start: number, end: number): boolean {
  if (!r.context) return false;
  const before = sentenceTail(text.slice(Math.max(0, start - BEFORE), start)).toLowerCase();
  if (r.context.test(before)) return true;
  return r.context.test(sentenceHead(text.slice(end, end + AFTER)).toLowerCase());
}

/** Words before or right after the match that argue against the type. */
function saidAgainst(r: Recognizer, text: string, start: number, end: number): boolean {
  return (r.negativeContext?.test(text.slice(Math.max(0, start - 25), start).toLowerCase()) ?? false) || (r.negativeAfter?.test(text.slice(end, end + 25)) ?? false);
}

/** Confidence of a match from its base score and the words around it (in its own sentence). */
export function scoreInContext(r: Recognizer, text: string, start: number, end: number, base: number, evidence: string[]): number {
  let confidence = base;
  if (saidNear(r, text, start, end)) {
    if (r.contextScore > confidence) confidence = r.contextScore;
    evidence.push('context');
  }
  if (saidAgainst(r, text, start, end)) {
    // Enough to take a checksum-valid card-like number under the default threshold after "order number".
    confidence -= 0.45;
    evidence.push('negative_context');
  }
  return confidence < 0 ? 0 : confidence;
}

/** Confidence of a match its check rejected: only where the text names its type, and never above labelledScore. */
function scoreUnchecked(r: Recognizer, text: string, start: number, end: number, evidence: string[]): number {
  if (r.labelledScore === undefined || !saidNear(r, text, start, end) || saidAgainst(r, text, start, end)) return 0;
  evidence.push('unchecked', 'context');
  return r.labelledScore;
}

/** The candidates of one recognizer, scored. */
function candidates(r: Recognizer, text: string, minConfidence: number, out: Detection[]): void {
  if (r.find) {
    for (const m of r.find(text)) {
      const evidence = [...(m.evidence ?? [])];
      const confidence = m.unchecked ? scoreUnchecked(r, text, m.start, m.end, evidence) : scoreInContext(r, text, m.start, m.end, m.score ?? r.score, evidence);
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
      if (v === false) {
        if (r.labelledScore === undefined) continue;
        const confidence = scoreUnchecked(r, text, m.index, m.index + raw.length, evidence);
        if (confidence >= minConfidence && confidence > 0) out.push({ type: r.id, start: m.index, end: m.index + raw.length, text: raw, confidence, evidence });
        continue;
      }
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
/** A proposal of a statistical model (its recognizer tags its detections `model`), not of a rule. */
const fromModel = (d: Detection): boolean => d.evidence.includes('model');
/** A rule whose format validator vouches for the characters (a check digit, a valid calendar date, libphonenumber). */
const validated = (d: Detection): boolean => !fromModel(d) && d.evidence.some((e) => e === 'checksum' || e === 'validated' || e === 'libphonenumber');
/** A rule whose check digit holds (Luhn, mod 97, …): stronger evidence of its type than a word nearby. */
const checkDigit = (d: Detection): boolean => !fromModel(d) && d.evidence.includes('checksum');
const overlap = (a: Detection, b: Detection): boolean => a.start < b.end && b.start < a.end;
const inside = (d: Detection, outer: Detection): boolean => d.start >= outer.start && d.end <= outer.end;
/** How much a model and a rule that agree on an entity add to the surer of the two. */
const AGREEMENT = 0.05;
/** What a model's span in a doubtful shape loses (doubtfulShape): alone it falls below the default threshold. */
const SHAPE_DOUBT = 0.35;

/**
 * Model proposals meet the rules: a model span of the type of an overlapping rule span is the same entity, so the
 * two become one detection with the fuller span ("Zoë" by the gazetteer, "Zoë Müller" by the model) and the surer
 * confidence raised; a model span over characters a format validator vouches for as another type (a card, an IBAN,
 * an SSN) is dropped, whatever its confidence.
 */
function combineWithModel(found: Detection[], text: string | undefined): Detection[] {
  if (!found.some(fromModel)) return found;
  const rules = found.filter((d) => !fromModel(d));
  const out: Detection[] = [];
  for (const m of found.filter(fromModel)) {
    if (rules.some((r) => validated(r) && r.type !== m.type && overlap(r, m))) continue;
    if (text !== undefined && isFieldLabel(m, text, rules)) continue;
    // The model and a list rule found the same words but call them different things ("Kathleen," an organization
    // to the model, a given name to the lists): the entity is confirmed, and an unsure model's type is the weaker.
    const retype =
      text === undefined || m.evidence.includes('ner_sure')
        ? -1
        : rules.findIndex((r) => r.type !== m.type && ENTITY_TYPES.has(r.type) && listOnly(r) && r.evidence.includes('gazetteer') && sameWords(text, r, m));
    if (retype >= 0) {
      const r = rules[retype];
      rules[retype] = { ...r, confidence: Math.min(0.99, Math.max(r.confidence, m.confidence) + AGREEMENT), evidence: [...new Set([...r.evidence, ...m.evidence, 'agreement'])] };
      continue;
    }
    let merged = m;
    // The model stopped inside a place's name the rules read whole but could not name ("Nowa" of "Nowa Sól", a name
    // by shape alone): the run on the same line is the place. (A firm's product after it stays out: "Enron On-Line".)
    const run =
      text === undefined || m.type !== 'location'
        ? undefined
        : rules.find((r) => r.start === m.start && r.end > m.end && r.evidence.includes('shape') && !r.evidence.includes('context') && !text.slice(m.end, r.end).includes('\n'));
    if (run && text !== undefined) merged = { ...m, end: run.end, text: text.slice(m.start, run.end) };
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i];
      if (r.type !== merged.type || !overlap(r, merged)) continue;
      let start = Math.min(r.start, merged.start);
      let end = Math.max(r.end, merged.end);
      // Words the rules left out on purpose stay out ("Applicant Chinedu Eze" is Chinedu Eze): cue words and words
      // written as common words; a capitalized word inside the model's span is part of the name ("the Gaza Strip").
      if (text !== undefined && start < r.start && onlyCommonWords(text.slice(start, r.start), atSentenceStart(text, start))) start = r.start;
      if (text !== undefined && end > r.end && onlyCommonWords(text.slice(r.end, end), false)) end = r.end;
      merged = {
        type: r.type,
        start,
        end,
        text: text !== undefined ? text.slice(start, end) : start === merged.start && end === merged.end ? merged.text : '',
        confidence: Math.min(0.99, Math.max(r.confidence, merged.confidence) + AGREEMENT),
        evidence: [...new Set([...r.evidence, ...merged.evidence, 'agreement'])],
      };
      rules.splice(i--, 1);
    }
    // The honorific before a name is a title span of its own, even when the model's PERSON span takes it in.
    if (merged.type === 'name') {
      const title = rules.find((r) => r.type === 'title' && r.start <= merged.start && r.end > merged.start && r.end < merged.end);
      if (title) {
        const cut = title.end + (/^\s*/.exec(merged.text.slice(title.end - merged.start))?.[0].length ?? 0);
        merged = { ...merged, start: cut, text: merged.text ? merged.text.slice(cut - merged.start) : '' };
      }
    }
    if (!merged.evidence.includes('agreement') && text !== undefined && doubtfulShape(merged, text)) merged = { ...merged, confidence: merged.confidence - SHAPE_DOUBT };
    // The model read the words in their sentence; a rule of another entity type that read them only against a list
    // or by their shape ("Houston" a surname, "West Bank" a bank, "Del Frisco" an unknown name) gives way to it.
    if (merged.confidence >= MODEL_PREVAILS) {
      for (let i = 0; i < rules.length; i++) if (yieldsToModel(rules[i], merged)) rules.splice(i--, 1);
    }
    out.push(merged);
  }
  return [...rules, ...out];
}

/** Entity types the model and the gazetteer rules both propose. */
const ENTITY_TYPES: ReadonlySet<string> = new Set(['name', 'organization', 'location', 'nrp']);
/** Evidence of rules that know a span from lists or its shape, not from the words around it. */
const LIST_EVIDENCE: ReadonlySet<string> = new Set(['gazetteer', 'org_suffix', 'shape']);
/** A model span this confident (the default threshold) settles the type of the words it covers against list rules. */
const MODEL_PREVAILS = 0.5;

/**
 * Whether rule span `r` gives way to model span `m` of another entity type over the same words. A shape-only guess
 * gives way wherever the two overlap ("Enron On-Line" an unknown name against the model's "Enron"); a one-word name
 * or an organization-suffix reading that the rules found by their lists alone (no cue word, title or context) gives
 * way to a span the model is sure of (`ner_sure`) that takes it in. A less sure model is often wrong about names in
 * informal text ("My name is Nathan" an organization), where a known first name says more.
 */
function yieldsToModel(r: Detection, m: Detection): boolean {
  if (r.type === m.type || !ENTITY_TYPES.has(r.type) || !overlap(r, m)) return false;
  if (!listOnly(r)) return false;
  if (r.evidence.every((e) => e === 'shape')) return true;
  if (!m.evidence.includes('ner_sure') || r.start < m.start || r.end > m.end) return false;
  // A known organization or place, or a known first name with a known surname ("Giulia Bianchi"), is a list's
  // answer for these very words; a lone name word ("Houston") is a guess, and so is an organization suffix that
  // also names places ("West Bank", "Oval Office"; "Wayne Enterprises" stays a company against a PERSON).
  return (r.evidence.includes('org_suffix') && m.type === 'location') || (r.type === 'name' && !/\s/.test(r.text));
}

/** A rule span found by lists or shape alone, without a cue word, title or context. */
const listOnly = (r: Detection): boolean => r.evidence.every((e) => LIST_EVIDENCE.has(e));

/** The words of a span without punctuation around them or a possessive ("Jason '" and "Jason’s" are "jason"). */
function words(text: string, d: Detection): string {
  return fold(text.slice(d.start, d.end))
    .replace(/\s*['’]\s*s?$/u, '')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

/** Whether two spans hold the same words. */
const sameWords = (text: string, a: Detection, b: Detection): boolean => overlap(a, b) && words(text, a) === words(text, b);

/** Whether `at` begins a sentence (or the text): a capital there says nothing about a name. */
function atSentenceStart(text: string, at: number): boolean {
  return /(?:^|[.!?:\n]\s*|^\s*)["“(\-•*]?\s*$/.test(text.slice(Math.max(0, at - 4), at)) || /^\s*$/.test(text.slice(0, at));
}

/**
 * Whether a stretch of text holds only cue words that name nothing ("Applicant ") or common words written as such:
 * in lower case, or capitalized only because a sentence starts there ("The ").
 */
function onlyCommonWords(stretch: string, sentenceStart: boolean): boolean {
  const lex = lexicon();
  const words = stretch.split(/[^\p{L}\p{M}'’-]+/u).filter((w) => w.length > 0);
  return (
    words.length > 0 &&
    words.every((w, i) => {
      const k = fold(w);
      if (lex.firstNames.has(k) || lex.lastNames.has(k) || lex.places.has(k) || lex.organizations.has(k)) return false;
      if (isCueWord(k)) return true;
      return lex.common.has(k) && (w === w.toLowerCase() || (i === 0 && sentenceStart));
    })
  );
}

/**
 * A model span that names the field of the value after it ("Medicare number is 2123 45670 1", "DOB 1985-03-14",
 * "Password Winter4021$", "Nowy adres: ul. Długa 5") is a label, not an entity: the context words or the column
 * hint of the recognizer that found the value are in it (or in the words up to a colon after it).
 */
function isFieldLabel(m: Detection, text: string, rules: Detection[]): boolean {
  const own = text.slice(m.start, m.end).toLowerCase();
  return rules.some((r) => {
    if (r.start < m.end || r.start - m.end > 30) return false;
    const gap = text.slice(m.end, r.start);
    const rec = recognizer(r.type);
    if (!rec || /[.;!?\n]/.test(gap)) return false;
    const said = (words: string): boolean => (rec.context?.test(` ${words} `) ?? false) || (rec.columnHint?.test(words.replace(/[^\p{L}\p{N}]+/gu, '_')) ?? false);
    if (said(own)) return true;
    // The words between the span and the value: up to a colon, or identifier words ("number", "ID", "INSEE").
    const rest = gap.replace(/\s*(?::|=|\bis\b|\bwas\b)?\s*$/i, '');
    return (/:\s*$/.test(gap) || LABEL_WORDS.test(rest)) && said(`${own}${rest}`.toLowerCase().trim());
  });
}

/** What may stand between a field's name and its value: "number", "no.", "ID", "-Nummer", "INSEE", "MBI". */
const LABEL_WORDS = /^(?:[\s\-#.]*(?:number|no|nr|num|id|code|card|mbi|nummer|numero|numéro|insee|nino|pin|#))*[\s.#]*$/i;

const PLACE_CODE = /^\p{Lu}{2,3}$/u;
const SHORT_CAPS = /^\p{Lu}{2,4}$/u;

/**
 * A span the model proposes alone, in a shape the gazetteers argue against: one common word ("Meeting", "Copied",
 * "FREE"), a handle or a code, a short all-capitals "organization" neither they know nor the model is sure of ("DUI",
 * "API"), a tool or card network named in passing, a guess in a re-cased line.
 */
function doubtfulShape(d: Detection, text: string): boolean {
  const span = text.slice(d.start, d.end);
  const lex = lexicon();
  const key = fold(span);
  // Names and places are words: a span with digits, an underscore or an @ is a handle or a code.
  if (/[_@]/.test(span) || (d.type !== 'organization' && /\d/.test(span))) return true;
  if (d.type === 'organization' && notAnOrganization(key)) return true;
  // Most 2-4 capitals the model is unsure of are abbreviations of things ("DUI", "VHS"); one it is sure of is more
  // often a body ("the UN", "HANO") than not.
  if (d.type === 'organization' && SHORT_CAPS.test(span) && !lex.organizations.has(key) && !d.evidence.includes('ner_sure')) return true;
  // A place written as a code in capitals mid-text ("the US", "Baltimore, MD") is no shouted word ("us", "md").
  if (d.type === 'location' && PLACE_CODE.test(span) && !d.evidence.includes('recased')) return false;
  // In a line the model saw re-cased (all capitals or all lower case), case no longer told it a name from a word:
  // alone, a span none of whose words the gazetteers know is a guess.
  if (d.evidence.includes('recased')) {
    const words = key.split(/[^\p{L}\p{M}'’-]+/u).filter((w) => w.length > 0);
    const known = words.some((w) => ((lex.firstNames.has(w) || lex.lastNames.has(w)) && !lex.common.has(w)) || lex.places.has(w) || lex.organizations.has(w) || lex.groups.has(w) || surnameShaped(w));
    if (!known && !lex.places.has(key) && !lex.organizations.has(key)) return true;
  }
  // One common word: a given name that is also a word ("Bill", "Ray") is spared, a surname that is one ("White") not.
  return !span.includes(' ') && lex.common.has(key) && !lex.firstNames.has(key) && !lex.places.has(key) && !lex.organizations.has(key) && !lex.groups.has(key);
}

/**
 * A street address is one block: what lies inside it (its postcode, its city, a building number a ZIP pattern or a
 * model reads as something else) is part of the address, not a finding of its own.
 */
function absorbIntoAddresses(found: Detection[]): Detection[] {
  const addresses = found.filter((d) => d.type === 'address');
  if (addresses.length === 0) return found;
  return found.filter((d) => d.type === 'address' || !addresses.some((a) => inside(d, a) && a.confidence >= 0.5));
}

/**
 * Keep the best-supported of overlapping spans. First the model's proposals meet the rules (combineWithModel) and an
 * address takes in what lies inside it. On the very same span, a type named by the words around it beats one that is
 * not, whatever the confidences: "CPR: 231281-8937" is a Danish CPR number even though its digits also pass the
 * Finnish HETU check (a 1-in-31 coincidence); the writer's label is direct evidence of which identifier it is. A
 * label does not beat a check digit with a bare pattern, though: a card number whose Luhn digit and issuer range hold
 * stays a card after "account". Then higher confidence, then longer, then earlier recognizer.
 */
export function resolveOverlaps(found: Detection[], text?: string): Detection[] {
  const combined = absorbIntoAddresses(combineWithModel(found, text));
  for (const d of combined) if (d.text === '' && text !== undefined) d.text = text.slice(d.start, d.end);
  // Span → whether a type named there also has a check digit that holds.
  const namedSpans = new Map<string, boolean>();
  for (const d of combined) if (named(d)) namedSpans.set(`${d.start}:${d.end}`, (namedSpans.get(`${d.start}:${d.end}`) ?? false) || checkDigit(d));
  // A word nearby names a type, but it does not overrule a check digit with a mere pattern: "The account of Cody
  // Moody (345927985970464)" is an Amex number whose Luhn digit and range say so, not a bank account.
  const order = combined
    .filter((d) => {
      const namedThere = namedSpans.get(`${d.start}:${d.end}`);
      return named(d) || namedThere === undefined || (checkDigit(d) && !namedThere);
    })
    .map((d, i) => ({ d, i }));
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
  return joinGroupWords(
    kept.sort((a, b) => a.start - b.start),
    text,
  );
}

/**
 * Two group words in a row are one group ("Orthodox Christian", "Sunni Muslim", "Evangelical Christian"): the lists
 * and the model each know a word of it.
 */
function joinGroupWords(sorted: Detection[], text?: string): Detection[] {
  if (text === undefined) return sorted;
  const out: Detection[] = [];
  for (const d of sorted) {
    const last = out[out.length - 1];
    if (last && last.type === 'nrp' && d.type === 'nrp' && text.slice(last.end, d.start) === ' ') {
      out[out.length - 1] = {
        ...last,
        end: d.end,
        text: text.slice(last.start, d.end),
        confidence: Math.max(last.confidence, d.confidence),
        evidence: [...new Set([...last.evidence, ...d.evidence])],
      };
    } else out.push(d);
  }
  return out;
}

/** The least confidence of a candidate the entity tagger reads (it may raise what the threshold would drop). */
const TAGGER_FLOOR = 0.3;
/** The threshold the tagger was trained with: it reads the detections resolved at this one, whatever the caller's. */
const TAGGER_THRESHOLD = 0.5;
let taggerMode: TaggerMode = 'union';

/** How the entity tagger joins the engine's detections (the bench compares the modes; the service uses the default). */
export function configureEntityTagger(mode: TaggerMode): void {
  taggerMode = mode;
}

const copy = (ds: readonly Detection[], min: number): Detection[] => ds.filter((d) => d.confidence >= min).map((d) => ({ ...d, evidence: [...d.evidence] }));

/**
 * The engine's readings of a text before the entity tagger: every candidate at or above `floor`, and what overlap
 * resolution keeps of those at or above `threshold` (bench/pii/train-tagger.ts reads the same).
 */
export function detectionsBeforeTagger(text: string, floor: number, threshold: number, types?: readonly string[]): { found: Detection[]; resolved: Detection[] } {
  const flags = textFlags(text);
  const found: Detection[] = [];
  for (const r of recognizersFor(types)) {
    if ((r.needs & flags) !== r.needs) continue;
    candidates(r, text, floor, found);
  }
  // Combining may lower a model span below the threshold (a label, a doubtful shape): the threshold applies again.
  const resolved = resolveOverlaps(copy(found, threshold), text).filter((d) => d.confidence >= threshold);
  return { found, resolved };
}

/** All PII spans of a text, best first on overlaps, sorted by position. */
export function detectText(text: string, opts: DetectTextOptions = {}): Detection[] {
  if (!text) return [];
  const minConfidence = opts.minConfidence ?? 0.5;
  const tagger = !opts.keepOverlaps && taggerMode !== 'off' && (!opts.types || opts.types.some((t) => TAGGER_TYPES.has(t)));
  if (!tagger) {
    const { found, resolved } = detectionsBeforeTagger(text, minConfidence, minConfidence, opts.types);
    return opts.keepOverlaps ? found.sort((a, b) => a.start - b.start) : finishSpans(resolved, text);
  }
  const { found, resolved } = detectionsBeforeTagger(text, Math.min(TAGGER_FLOOR, minConfidence), TAGGER_THRESHOLD, opts.types);
  const engine = minConfidence === TAGGER_THRESHOLD ? resolved : resolveOverlaps(copy(found, minConfidence), text).filter((d) => d.confidence >= minConfidence);
  const tagged = taggedEntities(text, found, resolved).filter((d) => !opts.types || opts.types.includes(d.type));
  return finishSpans(
    mergeTagged(engine, tagged, taggerMode).filter((d) => d.confidence >= minConfidence),
    text,
  );
}

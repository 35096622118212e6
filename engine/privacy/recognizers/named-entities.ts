/**
 * Person names, organizations and places in free text and in cells. Capitalized word runs are the candidates; the
 * gazetteers of `compromise` (../lexicon.ts) classify them (a known first name, a surname, a title, an organization
 * word, a known city or country), and a run none of them knows is a name only when nothing argues against it (a cue
 * word such as "patient" or "Dr" before it raises it, a sentence start or a common word inside it rules it out).
 * compromise's own tagger was tried as a fallback for the unknown runs: it costs ~1 ms per text and, in our trials,
 * found no name its lexicon did not already know, so only its lexicon is used.
 */
import { lexicon } from '../lexicon';
import { define, NEEDS_UPPER, wordsRegex, type RawMatch, type Recognizer } from './define';

const TITLES = new Set(['dr', 'mr', 'mrs', 'ms', 'miss', 'prof', 'sir', 'mx', 'dame', 'rev']);
const PARTICLES = 'van|von|de|da|del|della|di|du|le|la|bin|al|der|den|ter|dos|das|of|and|&';
const WORD = "[A-Z][a-zA-Z'’\\-]*[a-z][a-zA-Z'’\\-]*";
/** A run of capitalized words, with an optional leading title and lower-case particles inside. */
const CAP_RUN = new RegExp(`(?<![\\w@])(?:(?:Dr|Mr|Mrs|Ms|Miss|Prof|Sir|Mx|Rev)\\.?\\s+)?${WORD}(?:\\s+(?:(?:${PARTICLES})\\s+)?(?:(?:Dr|Mr|Mrs|Ms|Prof)\\.|${WORD}|[A-Z]{2,5}\\b|[A-Z]\\.))*`, 'g');
const SPLIT = /\s+/;
/** Context words that announce a person just before a capitalized run. */
const PERSON_CUE = wordsRegex(['name', 'patient', 'dear', 'contact', 'by', 'with', 'employee', 'customer', 'client', 'signed', 'attn', 'from', 'to', 'cc', 'nurse', 'doctor', 'physician']);
const PLACE_CUE = wordsRegex(['in', 'from', 'near', 'at', 'to', 'city', 'country', 'lives', 'located', 'based']);

type Kind = 'name' | 'organization' | 'location';
interface Classified {
  kind: Kind;
  score: number;
  /** Tokens dropped from the front (sentence-initial common words). */
  skip: number;
  evidence: string;
}

const CUE_WORDS = new Set([
  'the',
  'a',
  'an',
  'patient',
  'contact',
  'dear',
  'customer',
  'client',
  'employee',
  'attn',
  'hi',
  'hello',
  'thanks',
  'name',
  'user',
  'member',
  'mother',
  'father',
  'son',
  'daughter',
  'wife',
  'husband',
  'nurse',
  'doctor',
  'physician',
  'attending',
  'and',
  'or',
  'with',
]);

const LABEL_NEXT = /^\s+(?:number|no\.?|id|card|code|mbi|#)\b/i;

const lower = (s: string): string => s.toLowerCase().replace(/[’']s$/, '');

/** Classify a capitalized run by the gazetteers alone; undefined when they cannot tell. */
function classify(tokens: string[], atSentenceStart: boolean): Classified | undefined {
  const lex = lexicon();
  let skip = 0;
  // Cue words ("Patient", "Contact") and, at a sentence start, common words ("The", "Yesterday") are not part of
  // the name that follows them; mid-sentence a capitalized common word belongs to the name ("Mount Sinai").
  // An organization keeps at least one word before its suffix ("Copied Stark Industries" is "Stark Industries").
  const orgLast = lex.orgWords.has(lower(tokens[tokens.length - 1]).replace(/\.$/, ''));
  while (skip < tokens.length - (orgLast ? 2 : 1)) {
    const w = lower(tokens[skip]);
    if (TITLES.has(w.replace(/\.$/, ''))) break;
    if (CUE_WORDS.has(w) || ((atSentenceStart || skip > 0) && lex.common.has(w) && !lex.firstNames.has(w) && !lex.lastNames.has(w))) skip++;
    else break;
  }
  const t = tokens.slice(skip).map(lower);
  if (t.length === 0) return undefined;
  const whole = t.join(' ');
  const last = t[t.length - 1];
  if (lex.orgWords.has(last.replace(/\.$/, '')) && t.length >= 2) return { kind: 'organization', score: 0.85, skip, evidence: 'org_suffix' };
  if (t[0] === 'university' || t[0] === 'bank') return t.length >= 3 ? { kind: 'organization', score: 0.85, skip, evidence: 'org_suffix' } : undefined;
  if (lex.organizations.has(whole)) return { kind: 'organization', score: 0.85, skip, evidence: 'gazetteer' };
  if (lex.places.has(whole)) return { kind: 'location', score: 0.85, skip, evidence: 'gazetteer' };
  if (lex.people.has(whole)) return { kind: 'name', score: 0.9, skip, evidence: 'gazetteer' };
  const titled = TITLES.has(t[0].replace(/\.$/, ''));
  const first = titled ? 1 : 0;
  const n = t.length - first;
  if (titled && n >= 1) return { kind: 'name', score: 0.92, skip, evidence: 'title' };
  if (n >= 2 && n <= 4) {
    const knownFirst = lex.firstNames.has(t[first]);
    const knownLast = lex.lastNames.has(last);
    if (knownFirst && knownLast) return { kind: 'name', score: 0.95, skip, evidence: 'gazetteer' };
    if (knownFirst && !lex.common.has(last)) return { kind: 'name', score: 0.88, skip, evidence: 'gazetteer' };
    if (knownLast && !lex.common.has(t[first])) return { kind: 'name', score: 0.82, skip, evidence: 'gazetteer' };
  }
  if (n === 1 && lex.firstNames.has(t[first]) && !lex.common.has(t[first])) return { kind: 'name', score: atSentenceStart ? 0.55 : 0.65, skip, evidence: 'gazetteer' };
  // Two or three capitalized words none of the gazetteers or the common-word list knows: a name, weakly.
  if (
    n >= 2 &&
    n <= 3 &&
    (skip > 0 || !atSentenceStart) &&
    !t.some((w) => lex.common.has(w) || lex.places.has(w) || lex.organizations.has(w)) &&
    !tokens.slice(skip).some((w) => /^[A-Z]{2,}$/.test(w))
  )
    return { kind: 'name', score: 0.55, skip, evidence: 'shape' };
  return undefined;
}

interface EntityMatch extends RawMatch {
  kind: Kind;
}

/** The three entity recognizers run one after another on the same text: the runs are found once. */
let memoText: string | undefined;
let memo: EntityMatch[] = [];

/** All name/organization/location spans of a text (memoised for the three recognizers that share them). */
function entities(text: string): EntityMatch[] {
  if (text === memoText) return memo;
  const out: EntityMatch[] = [];
  CAP_RUN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CAP_RUN.exec(text)) !== null) {
    const raw = m[0];
    const before = text.slice(Math.max(0, m.index - 3), m.index);
    const atSentenceStart = m.index === 0 || /[.!?:\n]\s*$/.test(before) || /^\s*$/.test(text.slice(0, m.index));
    const tokens = raw.split(SPLIT);
    const c = classify(tokens, atSentenceStart);
    if (c) {
      let start = m.index;
      for (let i = 0; i < c.skip; i++) start = text.indexOf(tokens[i + 1], start + tokens[i].length);
      // "Medicare number", "National Insurance number": the run names an identifier, not an organization.
      if (c.kind === 'organization' && LABEL_NEXT.test(text.slice(m.index + raw.length, m.index + raw.length + 12))) continue;
      let score = c.score;
      const window = text.slice(Math.max(0, start - 30), start).toLowerCase();
      if (c.kind === 'name' && score < 0.85 && PERSON_CUE.test(window)) score = 0.85;
      if (c.kind === 'location' && PLACE_CUE.test(window)) score = Math.max(score, 0.88);
      out.push({ start, end: m.index + raw.length, score, evidence: [c.evidence], kind: c.kind });
    }
  }
  memoText = text;
  memo = out;
  return out;
}

function finder(kind: Kind): (text: string) => RawMatch[] {
  return (text) => entities(text).filter((e) => e.kind === kind);
}

const CELL_CAPS = /^(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?[A-Z][a-zA-Z'’\-.]*(?:\s+[A-Za-z][a-zA-Z'’\-.]*){0,4}$/;

/** A whole cell as a name/organization/place: the gazetteers decide, a capitalized shape alone is weak evidence. */
function cellMatcher(kind: Kind): (value: string) => RawMatch | null {
  return (value) => {
    const v = value.trim();
    if (v.length < 2 || v.length > 80 || !CELL_CAPS.test(v)) return null;
    const tokens = v.split(SPLIT);
    const c = classify(tokens, false);
    if (c && c.kind === kind) return { start: 0, end: value.length, score: c.score, evidence: [c.evidence] };
    if (kind === 'name' && tokens.length === 1 && lexicon().lastNames.has(lower(v))) return { start: 0, end: value.length, score: 0.6, evidence: ['gazetteer'] };
    return { start: 0, end: value.length, score: 0.25, evidence: ['shape'] };
  };
}

export const ENTITY_RECOGNIZERS: Recognizer[] = [
  define({
    id: 'name',
    name: 'Person name',
    category: 'personal',
    find: finder('name'),
    matchCell: cellMatcher('name'),
    evidence: 'ner',
    score: 0.85,
    contextScore: 0.9,
    columnHint: 'name|surname|first|last|patient|customer|client|employee|contact|person|owner|holder|author|recipient|sender|physician|doctor',
    needs: NEEDS_UPPER,
  }),
  define({
    id: 'organization',
    name: 'Organization',
    category: 'personal',
    find: finder('organization'),
    matchCell: cellMatcher('organization'),
    evidence: 'ner',
    score: 0.85,
    contextScore: 0.88,
    columnHint: 'company|organi[sz]ation|employer|(^|_)org($|_)|business|vendor|supplier|insurer|bank_?name|hospital|institution',
    needs: NEEDS_UPPER,
  }),
  define({
    id: 'location',
    name: 'Location (city, region, country)',
    category: 'geography',
    find: finder('location'),
    matchCell: cellMatcher('location'),
    evidence: 'ner',
    score: 0.85,
    contextScore: 0.9,
    columnHint: 'city|country|state|region|location|town|province|county|birthplace|place',
    needs: NEEDS_UPPER,
  }),
];

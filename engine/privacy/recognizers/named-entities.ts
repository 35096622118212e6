/**
 * Person names, organizations, places, nationality/religious/political groups and honorifics in free text and cells.
 *
 * The text is cut into words of any script (Unicode letter classes); every word gets a folded key (lower case, no
 * diacritics) for the gazetteers of ../lexicon.ts and a shape (Capitalized, UPPER, lower, initial). Three readers
 * share the words:
 * - capitalized runs ("Zoë Müller", "Van der Berg", "J Smith", "Müller & Söhne GmbH") are classified by the
 *   gazetteers (a known first name, a surname or a surname-shaped ending, an organization word, a known place or
 *   group), and a run none of them knows is a name only when nothing argues against it;
 * - runs of UPPER-case words ("MARÍA GONZÁLEZ", "NEW YORK") and lower-case words ("my name is john smith") cannot be
 *   told by their shape, so only what the gazetteers know is taken, and lower case needs a cue word before it;
 * - cue words name what follows: "works at X" and "joined X" an organization, "born in X" a place, "Mr"/"Dr" a name
 *   (the honorific itself is a `title` span of its own).
 * compromise's own tagger was tried as a fallback for the unknown runs: it costs ~1 ms per text and, in our trials,
 * found no name its lexicon did not already know, so only its lexicon is used.
 */
import { fold, lexicon, surnameShaped } from '../lexicon';
import { define, NEEDS_LETTER, wordsRegex, type RawMatch, type Recognizer } from './define';
import { CENSUS_SURNAMES, GIVEN_NAMES_THAT_ARE_WORDS } from './census-names';
import { COUNTRY_NAMES } from './countries';
import { headWord } from './job-words';
import { CHAT_WORDS, STOP_WORDS, recaseForModel } from './recase';

export type EntityKind = 'name' | 'organization' | 'location' | 'nrp' | 'title';

type Shape = 'cap' | 'upper' | 'lower' | 'initial' | 'other';

interface Tok {
  start: number;
  end: number;
  raw: string;
  /** Folded, possessive "'s" kept ("jehovah's"). */
  key: string;
  /** Folded without a possessive "'s" ("mary" of "Mary’s"). */
  base: string;
  shape: Shape;
  /** A full stop right after the word ("Dr.", "J."). */
  dot: boolean;
}

/** A word; Italian honorifics are one word with their inner full stop ("Sig.ra"), and so are forms' "Sr(a)." and "Dr(a).". */
const TOKEN = /[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*/gu;
const TOKEN_OR_DOTTED_HONORIFIC = /Sig\.(?:ra|na)(?![\p{L}\p{M}])|[SD]r\(a\)(?=\.)|[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*/gu;
const POSSESSIVE_END = /(?<=\p{L}\p{M}?)['’][sS]$/u;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;

/** Honorifics (folded, without their full stop). "lady" and "lord" only before a capitalized name. */
const HONORIFICS = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'sir',
  'dame',
  'lord',
  'lady',
  'rev',
  'fr',
  'sr',
  'sra',
  'srta',
  'herr',
  'frau',
  'mme',
  'mlle',
  'dott',
  'sigra',
  'signa',
  'sr(a)',
  'dr(a)',
  'mevrouw',
  'meneer',
  'pani',
  'pan',
  ...['captain', 'colonel', 'lieutenant', 'sergeant', 'admiral', 'senator', 'governor', 'ambassador', 'inspector', 'detective', 'professor'],
]);
/** Ranks and offices written out: honorifics before a name, not before common words ("Governor Street"). */
const OFFICE_WORDS = new Set(['captain', 'colonel', 'lieutenant', 'sergeant', 'admiral', 'senator', 'governor', 'ambassador', 'inspector', 'detective', 'professor']);
/**
 * Honorifics of other languages that are words or names without their full stop ("Ing", "Lic", "Sig"): titles only
 * with it ("Ing. Eric Huhn", "Lic. Amelia Aranda", "Dra. Olivia Siqueira", "Mgr. Jana Nováková").
 */
const DOTTED_HONORIFICS = new Set([
  // ranks and offices ("Lt. Col. James Hart", "Sen. Ana Ruiz", "Insp. Ng")
  'lt',
  'col',
  'gen',
  'maj',
  'capt',
  'cpt',
  'sgt',
  'cpl',
  'pvt',
  'adm',
  'cmdr',
  'brig',
  'sen',
  'rep',
  'gov',
  'supt',
  'insp',
  'det',
  'hon',
  'amb',
  'cllr',
  'ing',
  'lic',
  'dra',
  'srita',
  'dna',
  'sig',
  'dssa',
  'avv',
  'mgr',
  'mudr',
  'judr',
  'phdr',
  'rndr',
  'mvdr',
  'drs',
  'ir',
  'mtro',
  'mtra',
  'arq',
  'univ',
  'mag',
  'dipl',
]);
/** Whether a word is an honorific, by itself or with its full stop. */
const honorificWord = (t: Tok): boolean => HONORIFICS.has(t.key) || (t.dot && DOTTED_HONORIFICS.has(t.key));
/** Honorifics a lower-case text may carry ("mr smith"), where "pan", "fr" or "sir" would mostly be other words. */
const LOWER_HONORIFICS = new Set(['mr', 'mrs', 'ms', 'dr', 'prof', 'mme', 'mlle', 'herr', 'frau']);
const PARTICLES = new Set([
  'van',
  'von',
  'de',
  'da',
  'del',
  'della',
  'di',
  'du',
  'le',
  'la',
  'bin',
  'binti',
  'al',
  'el',
  'der',
  'den',
  'ter',
  'dos',
  'das',
  'do',
  'des',
  'of',
  'y',
  'e',
  'ibn',
  'ben',
  'zu',
  'af',
  'av',
  'chi',
  'van der',
  'van den',
]);
/** Connectors inside organization names ("Johnson and Johnson") that otherwise separate two names. */
const CONNECTORS = new Set(['and', 'und', 'et', 'y', 'e', '&']);

/** Context words that announce a person just before a capitalized run. */
const PERSON_CUE = wordsRegex([
  'name',
  'patient',
  'dear',
  'contact',
  'by',
  'with',
  'employee',
  'customer',
  'client',
  'signed',
  'attn',
  'from',
  'to',
  'cc',
  'nurse',
  'doctor',
  'physician',
  "i'm",
  'i’m',
  'im',
  'i am',
  'this is',
  'hi',
  'hello',
  'hey',
  'thanks',
  'regards',
  'tenant',
  'landlord',
  'applicant',
  'guest',
]);
const PLACE_CUE = wordsRegex(['in', 'from', 'near', 'at', 'to', 'city', 'country', 'lives', 'located', 'based', 'visiting', 'trip']);
/** Words before a run that make an unknown capitalized word a place. */
const PLACE_STRONG_CUE =
  /(?:born|lives?|living|resides?|residing|grew up|raised|based|located|settled|stationed|headquartered|moved|moving|relocat(?:ed|ing)|emigrated|flew|flying|travel+ing|trip|holiday|vacation|land|landed|landing|arrive|arrived|arriving|office|offices|branch|stationed)\s+(?:in|to|from|near)\s+$|(?:city|town|village|province|state|region) of\s+$|\b(?:moved|moving|relocated|emigrated|flew|travell?ed|drove) from [^.;!?\n]{1,60} to\s+$|\b(?:works?|worked|working) in\s+$/i;
/** Words before a run that make it an organization ("works at Zalando", "joined Novartis"). */
const ORG_CUE =
  /(?:\b(?:works?|working|worked|employed|intern(?:ing|ship)?|job|position|role|career|contract(?:ed|or)?|consultant|engineer|manager|analyst|director)\s+(?:at|for|with|by)|\bjoined|\bjoining|\bhired by|\b(?:employer|supplier|vendor|sponsor|distributor|manufacturer|insurer|lender)(?:\s*[:,]|\s+(?:is|was))?|\bpreviously at|\bformerly (?:at|of|with)|\brepresentative of|\b(?:customer|client|member|subscriber) of|\bbanks? with|\binsured (?:by|with)|\bfounder of|\bco-?founded|\bfounded|\bceo of|\bcfo of|\bcto of|\bpartner at|\bacquired by|\bsupplied by|\bshipped by|\binvoice from|\bpaid to)\s+(?:the\s+)?$/i;
/** Label cues before an UPPER-case or otherwise unknown run ("CUSTOMER: MARÍA GONZÁLEZ"). */
const NAME_LABEL =
  /(?:name|record|customer|client|patient|employee|applicant|tenant|guest|passenger|holder|cardholder|assigned to|owner|contact|attn|from|to|cc|signed|dear|sender|recipient|reported by|requested by|approved by)\s*[:\-–]?\s*$/i;
/** Words that give a name right before it ("my name is", "her name was", "named", "name:"). */
const NAMING_CUE =
  /(?:\b(?:my|his|her|their|your|our|whose|first|last|full|maiden|real|given|family|sur|middle|nick)\s*names? (?:is|was|are|were)|\bname's|\b(?:man|woman|guy|girl|boy|lady|gentleman|person|someone|somebody|friend|patient|customer|client|doctor|nurse|teacher|colleague|child|son|daughter|baby) named|^\s*name\s*:|\n\s*name\s*:)\s*$/i;

/** A lower-case word that may be a name: no English word (unless a known name), no place, organization or group. */
function nameNotWord(t: Tok): boolean {
  const lex = lexicon();
  const k = t.base;
  if (k.length < 2 || STOP_WORDS.has(k) || lex.places.has(k) || lex.organizations.has(k) || lex.groups.has(k)) return false;
  return (lex.firstNames.has(k) || lex.lastNames.has(k)) && !WORD_NAMES.has(k) ? true : !lex.common.has(k);
}

/** Cue words before a lower-case name ("my name is john", "hi its priya", "contact sarah o'connor"). */
const LOWER_NAME_CUE =
  /(?:\bname is|\bname's|\bnamed|\bcalled|\bi'm|\bi’m|\bim|\bi am|\bthis is|\bit's|\bit’s|\bits|\bcontact|\bcall|\bask for|\bdear|\bhi|\bhello|\bhey|\bthanks|\bthank you|\bregards|\bcheers|\bspoke (?:to|with)|\btalk(?:ed)? to|\bmet with|\bmet|\bran into|\bbumped into|\bsaw|\bvisited|\btexted|\bmessaged|\be-?mailed|\btold|\bsigned|\bfrom|\bwith|\bby|\bcc|\battn|\bname:?|\bcustomer:?|\bpatient:?|\bmr\.?|\bmrs\.?|\bms\.?|\bdr\.?)\s*[,:]?\s*$/i;
/**
 * A speaker naming themselves after a greeting: "hey its makayla", "hi, this is isa seifert", "hello i am oswin".
 * Without the greeting these words mostly describe ("It is, surprisingly, near", "This is crap"), and informal text is
 * full of words no dictionary holds; there only a known given name is taken, as before.
 */
const SELF_INTRO = /\b(?:hey|hi|hello|hiya|yo|heya|hallo)\b[\s,!.-]*(?:it's|it’s|its|it is|this is|i'm|i’m|im|i am|my name's|me)\s*[,:]?\s*$|\b(?:call me|my name's)\s*$/i;
/** What closes a self-introduction after the name: the end of a clause, or words that go on about the speaker. */
const INTRO_AFTER = /^(?:\s*(?:[,.!?;:)\n]|-\s|$)|\s+(?:again|here|from|and|calling|speaking|writing|btw|of|at|with|in|by)\b)/i;
/** Verbs of meeting or reaching someone right before a lower-case name ("ran into", "met", "texted"). */
const MEETING_CUE = /(?:\bran into|\bbumped into|\bmet(?: up)?(?: with)?|\bsaw|\bvisited|\btexted|\bmessaged|\be-?mailed|\btold)\s*$/i;
/** Verbs after which one unknown lower-case word is someone: "ran into telemaco at the station". */
const MET_SOMEONE = /(?:\bran into|\bbumped into|\bmet up with|\bmet with)\s+$/i;
const STRONG_LOWER_CUE = /(?:\bname is|\bname's|\bi'm|\bi’m|\bi am|\bthis is|\bit's|\bit’s|\bits|\bdear|\bmr\.?|\bmrs\.?|\bms\.?|\bdr\.?)\s*[,:]?\s*$/i;
const LOWER_GROUP_CUE = /\b(?:is|are|am|was|were|i'm|i’m|im|an?|as|devout|practicing|practising|nationality|religion|ethnicity|faith|citizen|citizenship)\s*:?\s*$/i;
export const GROUP_NEGATIVE_BEFORE = /\b(?:speaks?|spoke|speaking|fluent in|learn(?:s|ing|ed|t)?|translat(?:e|ed|ion|ing) (?:in)?to|written in|in|taught)\s+$/i;
export const GROUP_NEGATIVE_AFTER =
  /^\s+(?:food|cuisine|restaurant|takeaway|take-away|dish(?:es)?|meal|dinner|lunch|breakfast|cooking|language|translation|text|version|subtitles|wine|beer|cheese|bread|coffee|tea|style|fries|toast|dressing|press|horn|shepherd|poodle|bulldog|flu|measles|ocean|sea|alps|riviera|grand prix|open|league|cup|embassy|consulate|border|government|ministry|army|navy|police|parliament|national team|airlines?|railways?|express|quarter)\b/i;
const LABEL_NEXT = /^\s+(?:number|no\.?|id|card|code|mbi|#)\b/i;

/** Cue words and sentence-initial words that are not part of the name after them. */
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
  'hey',
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
  "i'm",
  'im',
  'regards',
  'cheers',
  'our',
  'my',
  'your',
  'his',
  'her',
  'their',
  'welcome',
  'congratulations',
  'ask',
  'tell',
  'ping',
  'cc',
  'from',
  'to',
  'per',
  'via',
  'applicant',
  'tenant',
  'landlord',
  'guest',
  'passenger',
  'resident',
  'student',
  'candidate',
  'caller',
  'reporter',
  'author',
  'owner',
  'holder',
  'cardholder',
  'recipient',
  'sender',
  'colleague',
  'manager',
  'boss',
  'friend',
  'neighbour',
  'neighbor',
  'brother',
  'sister',
]);

/** Words whose capitalized run is a job title or a heading, never a name ("Chief Financial Officer"). */
const TITLE_STARTS = new Set([
  'chief',
  'head',
  'senior',
  'junior',
  'vice',
  'deputy',
  'executive',
  'managing',
  'general',
  'assistant',
  'associate',
  'lead',
  'principal',
  'regional',
  'global',
  'acting',
  'interim',
]);

const ALL_CAPS_RUN_MIN = 2;

/** Card networks and tools named in passing are no organizations of a person ("Diners Club 3056...", "WhatsApp me"). */
const NOT_ORGANIZATIONS = new Set([
  'visa',
  'mastercard',
  'amex',
  'american express',
  'diners club',
  'discover',
  'jcb',
  'maestro',
  'unionpay',
  'mir',
  'troy',
  'rupay',
  'elo',
  'whatsapp',
  'zoom',
  'slack',
  'skype',
  'teams',
  'paypal',
]);

interface Classified {
  kind: EntityKind;
  score: number;
  /** Tokens dropped from the front (cue words, sentence-initial common words, an honorific). */
  skip: number;
  evidence: string;
  /** The honorific right before the name, reported as its own `title` span. */
  honorific?: number;
  /** How many honorifics in a row it has ("Prof. Dr."): one title span. */
  honorifics?: number;
}

export interface EntityMatch extends RawMatch {
  kind: EntityKind;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** The words of a text with their keys and shapes. */
function tokenize(text: string): Tok[] {
  const out: Tok[] = [];
  // The honorifics with inner punctuation are rare: the plain word pattern scans faster.
  const words = text.includes('Sig.') || text.includes('r(a)') ? TOKEN_OR_DOTTED_HONORIFIC : TOKEN;
  words.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = words.exec(text)) !== null) {
    const raw = m[0];
    // Letters glued to digits ("221B", "3rd", "NW1") are parts of a number or a code, not words.
    if (isDigit(text.charCodeAt(m.index - 1)) || isDigit(text.charCodeAt(m.index + raw.length))) continue;
    const key = fold(raw).replace('.', '');
    const base = key.endsWith("'s") ? key.slice(0, -2) : key;
    const first = raw[0];
    let shape: Shape;
    if (UPPER.test(first)) {
      if (raw.length === 1 || (raw.length === 2 && raw[1] === '.')) shape = 'initial';
      else shape = LOWER.test(raw) ? 'cap' : 'upper';
    } else shape = LOWER.test(first) ? 'lower' : 'other';
    out.push({ start: m.index, end: m.index + raw.length, raw, key, base, shape, dot: text.charCodeAt(m.index + raw.length) === 46 });
  }
  return out;
}

/** How two neighbouring words are joined: a space (or an abbreviation's full stop and a space), "&", or not at all. */
function joined(text: string, a: Tok, b: Tok): 'space' | 'amp' | false {
  const gap = text.slice(a.end, b.start);
  if (gap === ' ' || gap === '  ' || gap === '\t') return 'space';
  if ((gap === '. ' || gap === '.' || gap === '.-') && (a.shape === 'initial' || honorificWord(a) || a.key === 'st')) return 'space';
  if (gap === ' & ') return 'amp';
  return false;
}

function atSentenceStart(text: string, tok: Tok): boolean {
  if (tok.start === 0) return true;
  const before = text.slice(Math.max(0, tok.start - 4), tok.start);
  return /(?:^|[.!?:\n]|^\s*[-•*"“(]?)\s*["“(]?$/.test(before) || /^[\s"“(]*$/.test(text.slice(0, tok.start));
}

const isHonorific = (t: Tok): boolean => honorificWord(t) && (t.shape === 'cap' || t.shape === 'upper' || t.shape === 'initial');

/** Whether a capitalized run may go on with this word. */
function runWord(t: Tok): boolean {
  if (t.shape === 'cap') return true;
  if (t.shape === 'initial') return t.dot || (t.raw !== 'I' && t.raw !== 'A');
  return t.shape === 'upper' && t.raw.length <= 5;
}

/** Whether a folded word is a cue the rules keep out of the name after it ("Patient", "Applicant", "Dear"). */
export function isCueWord(key: string): boolean {
  return CUE_WORDS.has(key);
}

/** Whether a folded phrase names a card network or a tool rather than an organization of a person. */
export function notAnOrganization(key: string): boolean {
  return NOT_ORGANIZATIONS.has(key);
}

/** Words of geography before a place's name, and after it. */
const GEO_FIRST = new Set([
  'county',
  'lake',
  'mount',
  'mt',
  'cape',
  'isle',
  'province',
  'canton',
  'oblast',
  'prefecture',
  'gulf',
  'lago',
  'monte',
  'isla',
  'ilha',
  'ile',
  'rio',
  'sierra',
  'cerro',
  'laguna',
  // saints' places of the Romance languages ("San Fernando", "Santa Rosa de Cabal", "São Roque")
  'san',
  'santa',
  'santo',
  'sao',
]);
const GEO_LAST = new Set([
  'county',
  'province',
  'oblast',
  'krai',
  'prefecture',
  'canton',
  'region',
  'valley',
  'river',
  'mountains',
  'islands',
  'island',
  'peninsula',
  'desert',
  'highlands',
  'lowlands',
  'shire',
  'governorate',
  'voivodeship',
  'municipality',
  'parish',
  'ville',
]);

/** Legal forms that are also words ("As", "Se", "Sa"): an organization word only in capitals ("Nordic Freight AB"). */
const SHORT_LEGAL_FORMS = new Set(['ab', 'as', 'asa', 'oy', 'oyj', 'bv', 'nv', 'kg', 'ohg', 'se', 'sa', 'ag', 'sl', 'spa', 'srl', 'sas', 'sarl', 'kk', 'aps', 'plc', 'llc', 'ltda', 'pty']);

function orgWord(t: Tok): boolean {
  if (!lexicon().orgWords.has(t.base)) return false;
  return !SHORT_LEGAL_FORMS.has(t.base) || t.shape === 'upper' || t.raw.includes('.') || t.raw === 'GmbH' || t.raw === 'Ltda' || t.raw === 'Pty';
}

/** Classify a capitalized run by the gazetteers alone; undefined when they cannot tell. */
function classify(toks: Tok[], sentenceStart: boolean): Classified | undefined {
  const lex = lexicon();
  const keys = toks.map((t) => t.base);
  let skip = 0;
  // Cue words ("Patient", "Contact") and, at a sentence start, common words ("The", "Yesterday") are not part of
  // the name that follows them; mid-sentence a capitalized common word belongs to the name ("Mount Sinai").
  // An organization keeps at least one word before its suffix ("Copied Stark Industries" is "Stark Industries").
  const orgLast = orgWord(toks[toks.length - 1]);
  while (skip < keys.length - (orgLast ? 2 : 1)) {
    const w = keys[skip];
    if (HONORIFICS.has(w) || honorificWord(toks[skip])) break;
    const whole = keys.slice(skip).join(' ');
    if (
      lex.organizations.has(whole) ||
      lex.places.has(whole) ||
      lex.groups.has(whole) ||
      lex.groups.has(
        toks
          .slice(skip)
          .map((x) => x.key)
          .join(' '),
      )
    )
      break;
    if (CUE_WORDS.has(w) || ((sentenceStart || skip > 0) && lex.common.has(w) && !lex.firstNames.has(w) && !lex.lastNames.has(w)) || lex.groups.has(w)) skip++;
    else break;
  }
  const t = keys.slice(skip);
  const shown = toks.slice(skip);
  if (t.length === 0) return undefined;
  const whole = t.join(' ');
  const last = t[t.length - 1];
  if (NOT_ORGANIZATIONS.has(whole)) return undefined;
  if (lex.organizations.has(whole)) return { kind: 'organization', score: 0.85, skip, evidence: 'gazetteer' };
  // A place that is also a common word, alone at a sentence's start, is mostly the word ("Nice people", "Split the
  // bill"): below the threshold unless the model or context words read a place there.
  if (lex.places.has(whole)) return { kind: 'location', score: t.length === 1 && sentenceStart && skip === 0 && lex.common.has(whole) ? 0.45 : 0.85, skip, evidence: 'gazetteer' };
  if (lex.people.has(whole)) return { kind: 'name', score: 0.9, skip, evidence: 'gazetteer' };
  const wholeKey = shown.map((x) => x.key).join(' ');
  if (lex.groups.has(wholeKey) || lex.groups.has(whole)) return { kind: 'nrp', score: 0.6, skip, evidence: 'gazetteer' };
  // A job title ("Chief Financial Officer", "Head of Marketing") is read by the title recognizer.
  if ((lex.jobHeads.has(last) && !lex.firstNames.has(t[0])) || TITLE_STARTS.has(t[0])) return undefined;
  const suffixed = orgWord(toks[toks.length - 1]);
  // A headline's capitalized words before an organization word ("Great News", "Breaking News") are no company.
  if (suffixed && t.length >= 2 && sentenceStart && skip === 0 && t.slice(0, -1).every((w) => lex.common.has(w))) return undefined;
  if (suffixed && t.length >= 2) return { kind: 'organization', score: 0.85, skip, evidence: 'org_suffix' };
  // Words of geography around a name: "County Kerry", "Lake Titicaca", "Tver Oblast", "Rift Valley".
  if (t.length >= 2 && t.length <= 4 && (GEO_FIRST.has(t[0]) || GEO_LAST.has(last)) && !shown.some((w) => w.shape === 'lower')) return { kind: 'location', score: 0.85, skip, evidence: 'gazetteer' };
  if ((t[0] === 'university' || t[0] === 'bank' || t[0] === 'banco' || t[0] === 'universidad' || t[0] === 'universite' || t[0] === 'universita') && t.length >= 3)
    return { kind: 'organization', score: 0.85, skip, evidence: 'org_suffix' };
  // An office written out names a person only before two words or a known name ("Senator Warren", not "Governor Street").
  const officeBeforeWords = OFFICE_WORDS.has(t[0]) && t.length === 2 && !lex.firstNames.has(t[1]) && !lex.lastNames.has(t[1]) && !surnameShaped(t[1]);
  const titled = (HONORIFICS.has(t[0]) || honorificWord(shown[0])) && !officeBeforeWords && t.length >= 2 && (t[0] !== 'lady' && t[0] !== 'lord' ? true : shown[1].shape === 'cap');
  const first = titled ? 1 : 0;
  const n = t.length - first;
  const honorific = titled ? skip : undefined;
  if (titled) {
    let count = 1;
    while (count < t.length - 1 && (HONORIFICS.has(t[count]) || honorificWord(shown[count])) && shown[count].shape !== 'lower') count++;
    return { kind: 'name', score: 0.92, skip: skip + count, evidence: 'title', honorific, honorifics: count };
  }
  if (n === 0) return undefined;
  const f = t[first];
  const initial = shown[first].shape === 'initial';
  // A double given name is known when both halves are ("Anne-Rose", "Jean-Luc").
  const knownFirst = lex.firstNames.has(f) || (f.includes('-') && f.split('-').every((p) => p.length > 1 && lex.firstNames.has(p)));
  const knownLast = lex.lastNames.has(last) || surnameShaped(last) || ((knownFirst || initial) && WORD_SURNAMES.has(last));
  // A surname after a particle is one whatever else the word is ("Charlotte van den Pol").
  if (n >= 3 && knownFirst && PARTICLES.has(t[t.length - 2]) && shown[shown.length - 1].shape === 'cap') return { kind: 'name', score: 0.88, skip, evidence: 'gazetteer' };
  // Two given names and two surnames ("María Belén Sofía Cervantes Clemente"): five words the lists all know.
  if (n === 5 && t.slice(first).every((w) => (lex.firstNames.has(w) || lex.lastNames.has(w)) && !lex.common.has(w))) return { kind: 'name', score: 0.9, skip, evidence: 'gazetteer' };
  if (n >= 2 && n <= 4) {
    const commonFirst = lex.common.has(f);
    const commonLast = lex.common.has(last);
    if (knownFirst && knownLast && !(commonFirst && commonLast)) return { kind: 'name', score: 0.95, skip, evidence: 'gazetteer' };
    if (initial && n <= 3 && (knownLast || !commonLast)) return { kind: 'name', score: knownLast ? 0.88 : 0.8, skip, evidence: 'gazetteer' };
    if (knownFirst && !commonLast && !commonFirst) return { kind: 'name', score: 0.88, skip, evidence: 'gazetteer' };
    if (knownFirst && !commonLast) return { kind: 'name', score: 0.8, skip, evidence: 'gazetteer' };
    if (knownLast && !commonFirst) return { kind: 'name', score: 0.82, skip, evidence: 'gazetteer' };
    // Surname first ("Nguyễn Văn An", "Kim Min-jun").
    if (lex.lastNames.has(f) && lex.firstNames.has(last) && !commonFirst) return { kind: 'name', score: 0.85, skip, evidence: 'gazetteer' };
  }
  if (n === 1 && knownFirst && !lex.common.has(f)) return { kind: 'name', score: sentenceStart && skip === 0 ? 0.55 : 0.65, skip, evidence: 'gazetteer' };
  // Two or three capitalized words none of the gazetteers or the common-word list knows: a name, weakly.
  if (
    n >= 2 &&
    n <= 3 &&
    (skip > 0 || !sentenceStart) &&
    !t.some((w) => lex.common.has(w) || lex.places.has(w) || lex.organizations.has(w) || lex.groups.has(w)) &&
    !shown.some((w) => w.shape === 'upper')
  )
    return { kind: 'name', score: surnameShaped(last) ? 0.75 : 0.55, skip, evidence: 'shape' };
  return undefined;
}

/** A phrase the gazetteers know at tokens[i..], longest first: [kind, token count]. */
function knownPhrase(toks: Tok[], i: number, text: string, kinds: { place: boolean; org: boolean; group: boolean }): [EntityKind, number] | undefined {
  const lex = lexicon();
  let key = '';
  let best: [EntityKind, number] | undefined;
  for (let j = i; j < toks.length && j - i < lex.longestPhrase; j++) {
    if (j > i && !joined(text, toks[j - 1], toks[j])) break;
    key = j === i ? toks[j].key : `${key} ${toks[j].key}`;
    if (kinds.place && lex.places.has(key)) best = ['location', j - i + 1];
    else if (kinds.org && lex.organizations.has(key)) best = ['organization', j - i + 1];
    else if (kinds.group && lex.groups.has(key)) best = ['nrp', j - i + 1];
  }
  return best;
}

/**
 * A person at tokens[i..] of an UPPER or lower-case stretch: a known first name, then known surnames (or surname
 * shapes, or more first names) of the same case. Returns the token count, 0 when there is none.
 */
function uncasedPerson(toks: Tok[], i: number, text: string, shape: Shape, cued: boolean, strong = false): number {
  const lex = lexicon();
  const t = toks[i];
  // A double given name is known when both halves are ("karl-august", "JEAN-LUC").
  const double = t.base.includes('-') && t.base.split('-').every((p) => p.length > 1 && lex.firstNames.has(p));
  const firstKnown = double || (lex.firstNames.has(t.base) && (strong || shape === 'upper' || !lex.common.has(t.base)));
  const lastKnown = lex.lastNames.has(t.base) && !lex.common.has(t.base);
  // In capitals after a cue ("Declared by ELWIRA GEISLER", "SIGNED: OSWIN KRAUTH") two words no list knows are a
  // name: the cue says a person follows, and capitals hide the case that would say so.
  const unknownStart = cued && shape === 'upper' && !firstKnown && !lastKnown && unlistedWord(t.base);
  if (!firstKnown && !(cued && lastKnown) && !unknownStart) return 0;
  let n = 1;
  // A surname no list holds, after a known given name in lower case ("tara roberson", "isa seifert").
  let unlistedSurname = false;
  for (let j = i + 1; j < toks.length && n < 4; j++) {
    const u = toks[j];
    if (u.shape !== shape || !joined(text, toks[j - 1], u)) break;
    const k = u.base;
    const surname = (lex.lastNames.has(k) || surnameShaped(k)) && !lex.common.has(k);
    const another = lex.firstNames.has(k) && !lex.common.has(k);
    // In capitals, a place's name after a known given name is a surname ("JULIANA MONTENEGRO", "MARIA ESPAÑA").
    const placeSurname = shape === 'upper' && n === 1 && firstKnown && lex.places.has(k) && !lex.common.has(k) && k.length >= 4;
    const unlisted = shape === 'lower' && n === 1 && firstKnown && !surname && !another && unlistedWord(k);
    if (surname || another || placeSurname || unlisted || (cued && shape === 'upper' && k.length >= 3 && !lex.common.has(k) && !lex.places.has(k))) n++;
    else break;
    unlistedSurname ||= unlisted;
    if (placeSurname) return n;
  }
  if (unknownStart && n < 2) return 0;
  // Without a cue, a lone first name or a first name before an English word is too weak in lower case.
  if (!cued && !unlistedSurname && (n < 2 || !toks.slice(i + 1, i + n).some((u) => lex.lastNames.has(u.base) || surnameShaped(u.base)))) return 0;
  return n;
}

/**
 * A word of three letters or more that no list knows as anything: no English word, place, organization, group or chat
 * word, and not stretched as chat spells ("awesomeee").
 */
export function unlistedWord(k: string): boolean {
  const lex = lexicon();
  return (
    k.length >= 3 &&
    !/(\p{L})\1\1/u.test(k) &&
    !STOP_WORDS.has(k) &&
    !CHAT_WORDS.has(k) &&
    !lex.common.has(k) &&
    !lex.places.has(k) &&
    !lex.organizations.has(k) &&
    !lex.orgWords.has(k) &&
    !lex.groups.has(k) &&
    !CUE_WORDS.has(k)
  );
}

/** Frequent surnames that are also English words ("Brown", "Young"): surnames only after a given name or an initial. */
const WORD_SURNAMES: ReadonlySet<string> = new Set(CENSUS_SURNAMES.split(/\s+/).filter((w) => w.length > 0));
const WORD_NAMES: ReadonlySet<string> = new Set(GIVEN_NAMES_THAT_ARE_WORDS.split(/\s+/).filter((w) => w.length > 0));

/** A word glued to an underscore, an @, a digit or a dot before letters is part of a handle, an address or a file. */
const HANDLE_EDGE = /^[_@\p{N}.]|^.? (?:[_@\p{N}]|\.\p{L})/u;

/** A line of fields: a name in capitals, a spaced dash or bar, a phone, and what else the line holds. */
const CONTACT_LINE = /^(\p{Lu}[\p{Lu}\p{M}'’-]*(?:[^\S\n]+\p{Lu}[\p{Lu}\p{M}'’-]*){1,3})[^\S\n]+[-–|][^\S\n]+[+(]?\d[^\n]*/u;
/** A line of two to five words in capitals, alone, with a line holding a digit among the four after it. */
const ADDRESSEE_BLOCK = /^(\p{Lu}[\p{Lu}\p{M}'’-]*(?:[^\S\n]+\p{Lu}[\p{Lu}\p{M}'’-]*){1,4})[^\S\n]*\n(?:[^\n]*\n){0,3}[^\n]*\d/u;
/** The last field of such a line after a field with a digit: one to five words, capitalized or particles. */
const CONTACT_PLACE = /\d[^\S\n]+[-–|][^\S\n]+(\p{Lu}[\p{L}\p{M}'’.-]*(?:[^\S\n]+(?:\p{Lu}[\p{L}\p{M}'’.-]*|d[aeiou]s?|del|la|le|los|las|y|e|sur|am|an|der|im)){0,4})[^\S\n]*$/u;

/** Confidence of a lone lower-case given name without a cue word. */
const LONE_LOWER_NAME = 0.6;

/** A lower-case word that is a given name and nothing else the lexicon knows (no common word, place or group). */
function loneGivenName(t: Tok): boolean {
  const lex = lexicon();
  const k = t.base;
  return k.length >= 3 && lex.firstNames.has(k) && !lex.common.has(k) && !WORD_NAMES.has(k) && !STOP_WORDS.has(k) && !lex.places.has(k) && !lex.organizations.has(k) && !lex.groups.has(k);
}

/** A group word is no nationality when it names a language, a cuisine or a thing ("speaks French", "Chinese food"). */
function groupReading(text: string, start: number, end: number): boolean {
  return !GROUP_NEGATIVE_BEFORE.test(text.slice(Math.max(0, start - 20), start)) && !GROUP_NEGATIVE_AFTER.test(text.slice(end, end + 20));
}

/** Legal forms that end a firm's name in lower case, where the short ones ("sa", "ag", "as") would be words. */
const LOWER_LEGAL_FORMS = new Set(['inc', 'ltd', 'llc', 'plc', 'corp', 'gmbh', 'bv', 'nv', 'spa', 'srl', 'sarl', 'pty', 'kgaa', 'llp', 'lda', 'ltda', 'gbr']);
/** The legal forms no sentence writes for anything but a firm: before them, English words name the firm too ("parks inc"). */
const SURE_LOWER_LEGAL_FORMS = new Set(['inc', 'ltd', 'llc', 'plc', 'gmbh', 'kgaa', 'llp', 'gbr']);

/**
 * A lower-case firm at tokens[i..]: one to three words that are no common words (surnames, "and"/"y"/"e" between
 * them, a comma allowed) and a legal form; returns its token count, 0 when there is none.
 */
function lowerFirm(text: string, toks: Tok[], i: number): number {
  const lex = lexicon();
  let names = 0;
  let commonWords = false;
  for (let j = i; j < toks.length && j - i < 6; j++) {
    const u = toks[j];
    if (u.shape !== 'lower') return 0;
    if (j > i) {
      const gap = text.slice(toks[j - 1].end, u.start);
      if (gap !== ' ' && gap !== ', ' && gap !== '. ') return 0;
    }
    if (LOWER_LEGAL_FORMS.has(u.key)) {
      // English words before a sure form make a firm where a firm is introduced ("from parks inc"), not in prose
      // ("the best ltd edition").
      const introduced = !commonWords || (SURE_LOWER_LEGAL_FORMS.has(u.key) && FIRM_CUE.test(text.slice(Math.max(0, toks[i].start - 12), toks[i].start)));
      return names > 0 && introduced ? j - i + 1 : 0;
    }
    if (j > i && CONNECTORS.has(u.key)) continue;
    if (STOP_WORDS.has(u.key) || names === 3) return 0;
    commonWords ||= lex.common.has(u.base) && !lex.lastNames.has(u.base);
    names++;
  }
  return 0;
}

/** The entity spans of UPPER-case and lower-case stretches (the gazetteers decide). */
function uncased(text: string, toks: Tok[], used: boolean[], out: EntityMatch[]): void {
  const lex = lexicon();
  // Most texts hold no legal form in lower case: then no word need be read as the start of a firm.
  const legalForms = toks.some((t) => t.shape === 'lower' && LOWER_LEGAL_FORMS.has(t.key));
  const meetings = /(?:into|with)\s/i.test(text);
  for (let i = 0; i < toks.length; i++) {
    if (used[i]) continue;
    const t = toks[i];
    if (t.shape !== 'upper' && t.shape !== 'lower') continue;
    const before = text.slice(Math.max(0, t.start - 30), t.start);
    if (LOWER_HONORIFICS.has(t.key) && i + 1 < toks.length && toks[i + 1].shape === t.shape && joined(text, t, toks[i + 1])) {
      const k = toks[i + 1].base;
      if ((lex.lastNames.has(k) || lex.firstNames.has(k) || surnameShaped(k) || t.shape === 'upper') && !lex.common.has(k)) {
        out.push({ start: t.start, end: t.end + (t.dot ? 1 : 0), score: 0.85, evidence: ['honorific'], kind: 'title' });
        const n = Math.max(1, uncasedPerson(toks, i + 1, text, t.shape, true));
        out.push({ start: toks[i + 1].start, end: toks[i + n].end, score: 0.85, evidence: ['title'], kind: 'name' });
        for (let j = i; j <= i + n; j++) used[j] = true;
        i += n;
        continue;
      }
    }
    if (t.shape === 'upper') {
      // An acronym inside mixed-case text ("IBAN", "NHS") is no place or name; only stretches of two or more
      // UPPER words, or one after a label ("CUSTOMER: DOE"), are read.
      const next = toks[i + 1];
      const prev = toks[i - 1];
      const stretch = (next && next.shape === 'upper' && joined(text, t, next)) || (prev && prev.shape === 'upper' && joined(text, prev, t));
      const labelled = NAME_LABEL.test(before);
      const found = knownPhrase(toks, i, text, { place: true, org: true, group: true });
      // A one-word place that begins a known given name and surname is the person ("JORDAN PETERSON", "JULIANA
      // MONTENEGRO").
      const phrase = found && found[1] === 1 && stretch && uncasedPerson(toks, i, text, 'upper', false) >= 2 ? undefined : found;
      if (phrase && (stretch || phrase[0] !== 'organization' || t.raw.length >= 4)) {
        const [kind, n] = phrase;
        const end = toks[i + n - 1].end;
        if (kind !== 'nrp' || groupReading(text, t.start, end)) out.push({ start: t.start, end, score: kind === 'nrp' ? 0.6 : 0.8, evidence: ['gazetteer'], kind });
        for (let j = i; j < i + n; j++) used[j] = true;
        i += n - 1;
        continue;
      }
      // A contact line's first field, in capitals before a phone ("FRANCIS WADE - +61-3-5918-5160 - Lake Colebury"):
      // a person when it opens with a given name or none of its words is known as another thing; the line's last
      // field is the place.
      const contact = stretch && /(?:^|\n)[^\S\n]*$/.test(before) ? CONTACT_LINE.exec(text.slice(t.start, t.start + 160)) : null;
      const unknownWords = (field: string): boolean =>
        field.split(/\s+/).every((w) => {
          const k = fold(w);
          return PARTICLES.has(k) || (!lex.common.has(k) && !lex.places.has(k) && !lex.organizations.has(k) && !lex.orgWords.has(k) && !lex.groups.has(k));
        });
      // A line of its own in capitals above a job, a firm or an address ("SYBILLA KADE\nOperational researcher\n…"):
      // the addressee, when it opens with a given name or no word of it is known as another thing.
      const block = !contact && stretch && /(?:^|\n)[^\S\n]*$/.test(before) ? ADDRESSEE_BLOCK.exec(text.slice(t.start, t.start + 240)) : null;
      if (block && (lex.firstNames.has(t.base) || unknownWords(block[1]))) {
        const end = t.start + block[1].length;
        out.push({ start: t.start, end, score: 0.75, evidence: ['shape', 'context'], kind: 'name' });
        while (i + 1 < toks.length && toks[i + 1].end <= end) used[++i] = true;
        continue;
      }
      if (contact && (lex.firstNames.has(t.base) || unknownWords(contact[1]))) {
        const end = t.start + contact[1].length;
        out.push({ start: t.start, end, score: 0.8, evidence: ['shape', 'context'], kind: 'name' });
        const place = CONTACT_PLACE.exec(contact[0]);
        if (place) out.push({ start: t.start + place.index + place[0].length - place[1].length, end: t.start + place.index + place[0].length, score: 0.6, evidence: ['context'], kind: 'location' });
        while (i + 1 < toks.length && toks[i + 1].end <= end) used[++i] = true;
        continue;
      }
      if (!stretch && !labelled) continue;
      const n = uncasedPerson(toks, i, text, 'upper', labelled || LOWER_NAME_CUE.test(before));
      if (n >= (labelled ? 1 : ALL_CAPS_RUN_MIN)) {
        out.push({ start: t.start, end: toks[i + n - 1].end, score: labelled ? 0.85 : 0.8, evidence: ['gazetteer'], kind: 'name' });
        for (let j = i; j < i + n; j++) used[j] = true;
        i += n - 1;
      }
      continue;
    }
    // Lower case: cue words decide.
    // "her name was aiyana begay": after words that give a name, the lower-case words that are no English ones are
    // the name, known to the lists or not.
    const naming = NAMING_CUE.test(before);
    if (t.shape === 'lower' && (naming || SELF_INTRO.test(before))) {
      let n = 0;
      while (n < 3 && i + n < toks.length && toks[i + n].shape === 'lower' && (n === 0 || joined(text, toks[i + n - 1], toks[i + n])) && nameNotWord(toks[i + n])) n++;
      // "hey its makayla again": a speaker naming themselves, when the words after close the introduction ("its lit
      // af" does not); a word of the language is never taken ("i am tired").
      const introduced = naming || (n > 0 && (n > 1 || unlistedWord(t.base) || lex.firstNames.has(t.base)) && INTRO_AFTER.test(text.slice(toks[i + n - 1].end, toks[i + n - 1].end + 16)));
      if (n > 0 && introduced) {
        out.push({ start: t.start, end: toks[i + n - 1].end, score: 0.8, evidence: ['context'], kind: 'name' });
        for (let j = i; j < i + n; j++) used[j] = true;
        i += n - 1;
        continue;
      }
    }
    // A firm in lower case by its legal form: "thomas inc", "hendriks bv", "davis, elliott and sheppard ltd".
    const firm = legalForms ? lowerFirm(text, toks, i) : 0;
    if (firm > 0) {
      out.push({ start: t.start, end: toks[i + firm - 1].end + (toks[i + firm - 1].dot ? 1 : 0), score: 0.8, evidence: ['org_suffix'], kind: 'organization' });
      for (let j = i; j < i + firm; j++) used[j] = true;
      i += firm - 1;
      continue;
    }
    // Someone run into or met: one lower-case word no list knows and no English word ("ran into telemaco at").
    if (
      meetings &&
      !lex.firstNames.has(t.base) &&
      nameNotWord(t) &&
      MET_SOMEONE.test(before) &&
      /^(?:\s+(?:at|in|on|yesterday|today|last|this|and|outside|near)\b|\s*[,.!?]|\s*$)/.test(text.slice(t.end, t.end + 12))
    ) {
      out.push({ start: t.start, end: t.end, score: 0.7, evidence: ['context'], kind: 'name' });
      used[i] = true;
      continue;
    }
    const lex0 = lex.firstNames.has(t.base) || lex.lastNames.has(t.base) || (t.base.includes('-') && t.base.split('-').every((p) => p.length > 1 && lex.firstNames.has(p)));
    const cuedName = lex0 && LOWER_NAME_CUE.test(before);
    const n = lex0 ? uncasedPerson(toks, i, text, 'lower', cuedName, cuedName && STRONG_LOWER_CUE.test(before)) : 0;
    if (n > 0) {
      // Met, seen or told, a known name is a person whatever the model makes of the word ("ran into natalia").
      const evidence = cuedName && (MEETING_CUE.test(before) || STRONG_LOWER_CUE.test(before)) ? ['gazetteer', 'context'] : ['gazetteer'];
      out.push({ start: t.start, end: toks[i + n - 1].end, score: cuedName ? 0.8 : 0.65, evidence, kind: 'name' });
      for (let j = i; j < i + n; j++) used[j] = true;
      i += n - 1;
      continue;
    }
    // People who write in lower case write names so too ("tell brad", "poor emily"): a given name that is no word
    // of the language (not "will", "mark", "june") is one, weakly, without a cue.
    if (loneGivenName(t) && !HANDLE_EDGE.test(text.slice(Math.max(0, t.start - 1), t.start) + ' ' + text.slice(t.end, t.end + 2))) {
      out.push({ start: t.start, end: t.end, score: LONE_LOWER_NAME, evidence: ['gazetteer'], kind: 'name' });
      used[i] = true;
      continue;
    }
    if (!lex.phraseStarts.has(t.key)) continue;
    const placeCue = PLACE_STRONG_CUE.test(before) || /\b(?:in|to|from|near|visiting)\s+$/i.test(before);
    const orgCue = ORG_CUE.test(before);
    // A nationality or religion in lower case after "is a", "devout", "nationality:" ("she is brazilian").
    const groupCue = LOWER_GROUP_CUE.test(before) && lex.groups.has(t.base) && lex.groups.get(t.base) !== 'political';
    if (!placeCue && !orgCue && !groupCue) continue;
    const phrase = knownPhrase(toks, i, text, { place: placeCue, org: orgCue, group: groupCue });
    if (phrase && phrase[0] === 'nrp') {
      const end = toks[i + phrase[1] - 1].end;
      if (groupReading(text, t.start, end)) out.push({ start: t.start, end, score: 0.6, evidence: ['gazetteer'], kind: 'nrp' });
      for (let j = i; j < i + phrase[1]; j++) used[j] = true;
      i += phrase[1] - 1;
      continue;
    }
    if (phrase && !(phrase[1] === 1 && lex.common.has(t.key))) {
      const [kind, m] = phrase;
      out.push({ start: t.start, end: toks[i + m - 1].end, score: 0.7, evidence: ['gazetteer', 'context'], kind });
      for (let j = i; j < i + m; j++) used[j] = true;
      i += m - 1;
    }
  }
}

/** Split a capitalized run at "and"/"&" when its parts are separate entities ("Giulia Bianchi and Marco Esposito"). */
function parts(toks: Tok[], text: string): Tok[][] {
  const out: Tok[][] = [];
  let cur: Tok[] = [];
  for (let i = 0; i < toks.length; i++) {
    const gapAmp = i > 0 && joined(text, toks[i - 1], toks[i]) === 'amp';
    if (gapAmp || (CONNECTORS.has(toks[i].key) && toks[i].shape === 'lower')) {
      if (cur.length) out.push(cur);
      cur = gapAmp ? [toks[i]] : [];
      continue;
    }
    cur.push(toks[i]);
  }
  if (cur.length) out.push(cur);
  return out;
}

function emit(text: string, toks: Tok[], c: Classified, sentenceStart: boolean, out: EntityMatch[]): void {
  const lex = lexicon();
  const head = toks[c.skip];
  const tail = toks[toks.length - 1];
  if (!head) return;
  const start = head.start;
  // "Acme Inc." keeps its full stop, unless the text ends there: then it is the sentence's ("write to Thomas Inc.").
  const dotted = c.kind === 'organization' && tail.dot && /^(?:inc|corp|co|ltd|bros|plc)$/.test(tail.key) && !/^\.\s*(?:$|\n)/.test(text.slice(tail.end));
  const end = tail.end + (dotted ? 1 : 0);
  // "Medicare number", "National Insurance number": the run names an identifier, not an organization.
  if (c.kind === 'organization' && LABEL_NEXT.test(text.slice(tail.end, tail.end + 12))) return;
  let score = c.score;
  const window = text.slice(Math.max(0, start - 30), start).toLowerCase();
  if (c.honorific !== undefined) {
    const h = toks[c.honorific];
    const last = toks[c.honorific + (c.honorifics ?? 1) - 1];
    out.push({ start: h.start, end: last.end + (last.dot ? 1 : 0), score: 0.9, evidence: ['honorific'], kind: 'title' });
  }
  if (c.kind === 'name' && score < 0.85 && (PERSON_CUE.test(window) || NAME_LABEL.test(text.slice(Math.max(0, start - 30), start)))) score = 0.85;
  // Someone spoken to is a person, whatever else the word may be ("…your card, Claudia?").
  const evidence = c.kind === 'name' && vocative(text, start, end) ? [c.evidence, 'context'] : [c.evidence];
  if (evidence.length > 1) score = Math.max(score, 0.85);
  if (c.kind === 'location' && PLACE_CUE.test(window)) score = Math.max(score, 0.88);
  if (c.kind === 'nrp' && !groupReading(text, start, end)) return;
  // A single first name at a sentence start with nothing else for it ("Mark the box") stays weak.
  if (c.kind === 'name' && sentenceStart && c.skip === 0 && toks.length === 1 && lex.common.has(head.key)) return;
  out.push({ start, end, score, evidence, kind: c.kind });
}

/** The entity readings of one capitalized run, with the cue words before it. */
/** A verb right after a sentence's first words that makes them its subject ("Teodors Podniece moved to ..."). */
const SUBJECT_VERB =
  /^\s+(?:from\s+\p{Lu}\p{L}+(?:\s+\p{Lu}\p{L}+){0,3}\s+)?(?:\p{Ll}+ed|is|was|has|had|will|would|can|could|says|said|lives|works|wrote|asks|told|left|signed|joined|moved|called|paid|sent|met|took|gave|came|went|got|made|won|lost|became|spoke)\b/u;
/** What only a person is or does, right after the subject: "… is 27 years old", "…, aged 45,", "… was born in". */
const PERSON_ONLY_VERB =
  /^(?:,\s+aged\s+\d|\s+(?:is|was|turned|turns)\s+\d{1,3}(?:\s+years?\s+old|\s+today|\s+this year|\s+last)|\s+(?:was born|lives|lived|grew up|married|studied|graduated|retired|works as|worked as)\b)/u;
/** Words before a run that name a person: "attention of", "attn", "spoke with", "signed by", "c/o". */
const PERSON_BEFORE = /(?:\battention of|\battn\.?:?|\bc\/o|\bcare of|\bon behalf of|\bspoke (?:to|with)|\bmet with|\bsigned by|\bdear|\bcall|\bcontact|\bask for)\s*[,:]?\s*$/i;

/**
 * Two or three capitalized words no list knows, where the gazetteers could not read them: a person when they are a
 * sentence's subject before its verb, or follow words that name a person (where the last may be a word too, "Aija Lāce").
 */
function unknownPerson(text: string, toks: Tok[], sentenceStart: boolean): EntityMatch | undefined {
  if (toks.length < 2 || toks.length > 3 || toks.some((t) => t.shape !== 'cap')) return undefined;
  const lex = lexicon();
  if (toks.some((t) => lex.places.has(t.base) || lex.organizations.has(t.base) || lex.groups.has(t.base) || lex.orgWords.has(t.base) || CUE_WORDS.has(t.base) || honorificWord(t))) return undefined;
  const start = toks[0].start;
  const end = toks[toks.length - 1].end;
  if (lex.common.has(toks[0].base)) return undefined;
  if (PERSON_BEFORE.test(text.slice(Math.max(0, start - 20), start))) return { start, end, score: 0.7, evidence: ['shape', 'context'], kind: 'name' };
  if (sentenceStart && !toks.some((t) => lex.common.has(t.base)) && PERSON_ONLY_VERB.test(text.slice(end, end + 40))) return { start, end, score: 0.75, evidence: ['shape', 'context'], kind: 'name' };
  // A line of its own above a line with a number, as an addressee above the address ("LIEVE GRONDEL\nLoisweg 190").
  if (/(?:^|\n)[ \t]*$/.test(text.slice(Math.max(0, start - 8), start)) && /^[ \t]*\n[^\n]*\d/.test(text.slice(end, end + 60)) && !toks.some((t) => lex.common.has(t.base)))
    return { start, end, score: 0.7, evidence: ['shape', 'context'], kind: 'name' };
  if (sentenceStart && !toks.some((t) => lex.common.has(t.base)) && SUBJECT_VERB.test(text.slice(end, end + 12))) return { start, end, score: 0.65, evidence: ['shape'], kind: 'name' };
  return undefined;
}

/** The endings of place names in the languages of Europe and South Asia: "-ville", "-burgh", "-hausen", "-abad". */
const PLACE_ENDING =
  /^\p{L}{2,}(?:ville|burg|burgh|borough|bury|town|land|view|haven|mouth|port|ford|field|furt|hausen|heim|stadt|dorf|hafen|ingen|stedt|polis|grad|abad|pur|pura|nagar|chester|caster|wick|shire|stead|bourg)$/u;
/** Words of direction or kind before a place's name ("West Nathantown", "Port Hedland", "New Smithberg"). */
const PLACE_LEAD = new Set(['west', 'east', 'north', 'south', 'new', 'port', 'lake', 'mount', 'saint', 'st', 'fort', 'upper', 'lower', 'great', 'little']);

/**
 * One or two capitalized words no list knows, shaped like a place's name and where a place goes: "from Davisview",
 * "in West Nathantown", "to Andersonburgh". Known surnames ("Goldberg", "Ashford") stay with the lists.
 */
function toponym(text: string, toks: Tok[]): EntityMatch | undefined {
  if (toks.length > 2 || toks.some((t) => t.shape !== 'cap')) return undefined;
  if (toks.length === 2 && !PLACE_LEAD.has(toks[0].base)) return undefined;
  const t = toks[toks.length - 1];
  const lex = lexicon();
  if (!PLACE_ENDING.test(t.base) || lex.firstNames.has(t.base) || lex.lastNames.has(t.base) || lex.organizations.has(t.base) || lex.common.has(t.base)) return undefined;
  const start = toks[0].start;
  if (!/\b(?:in|to|from|near|at|via|into|towards?|of|outside|around)\s+$/i.test(text.slice(Math.max(0, start - 12), start))) return undefined;
  return { start, end: t.end, score: 0.85, evidence: ['shape', 'context'], kind: 'location' };
}

/** A greeting or a request to reach someone right before one word, and a comma or "at/on" after it. */
const ADDRESSED_BEFORE = /(?:^|[^\p{L}])(?:dear|hi|hello|hey|contact|call|ring|phone|e-?mail|text|message|ask for|ask|tell|thank|thanks)\s+$/iu;
const ADDRESSED_AFTER = /^(?:\s*[,:!]|\s+(?:at|on|via)\s)/u;

/** A sentence speaking to someone before a comma: "Is this your card, Ehrhard?", "Thank you, Ana!". */
const VOCATIVE_BEFORE = /\b(?:you|your|yours|thanks|thank you|cheers|congrats|congratulations|welcome|sorry|please)\b[^.!?\n]*,\s*$/i;
/** The addressed name closes the sentence. */
const VOCATIVE_AFTER = /^\s*[?!.]*\s*(?:$|\n)|^\s*[?!]/;

/** Words by which people name themselves before one word: "I am Espartaco", "my name is Borde". */
const SELF_NAMED = /\b(?:i am|i'm|i’m|my name is|call me|name's)\s+$/i;

/** Whether the words at [start, end) are someone spoken to at the end of a sentence ("…your card, Ehrhard?"). */
function vocative(text: string, start: number, end: number): boolean {
  return VOCATIVE_AFTER.test(text.slice(end, end + 4)) && VOCATIVE_BEFORE.test(text.slice(Math.max(0, start - 60), start));
}

/** One capitalized word no list knows, addressed or to be reached: "Dear Borde,", "Contact Anni at +358 …". */
function addressedPerson(text: string, toks: Tok[]): EntityMatch | undefined {
  const lex = lexicon();
  // The greeting may be capitalized too, in the same run ("Dear Borde").
  let i = 0;
  while (i < toks.length - 1 && (CUE_WORDS.has(toks[i].base) || lex.common.has(toks[i].base))) i++;
  if (i !== toks.length - 1 || toks[i].shape !== 'cap') return undefined;
  const t = toks[i];
  if (lex.common.has(t.base) || lex.places.has(t.base) || lex.organizations.has(t.base) || lex.groups.has(t.base) || lex.orgWords.has(t.base) || CUE_WORDS.has(t.base)) return undefined;
  if (vocative(text, t.start, t.end)) return { start: t.start, end: t.end, score: 0.85, evidence: ['shape', 'context'], kind: 'name' };
  if (SELF_NAMED.test(text.slice(Math.max(0, t.start - 16), t.start))) return { start: t.start, end: t.end, score: 0.85, evidence: ['shape', 'context'], kind: 'name' };
  if (!ADDRESSED_BEFORE.test(text.slice(Math.max(0, t.start - 12), t.start)) || !ADDRESSED_AFTER.test(text.slice(t.end, t.end + 5))) return undefined;
  return { start: t.start, end: t.end, score: 0.7, evidence: ['shape', 'context'], kind: 'name' };
}

/** A verb after "<person> from <place>" that makes the first the sentence's subject: "Sjoerd from Almelo says hi!". */
const SUBJECT_FROM_VERB =
  /^\s+(?:says|said|writes|wrote|asks|asked|sends|sent|is|was|has|had|won|wins|joined|joins|called|calls|visited|visits|reports|reported|wants|wanted|loves|loved|thinks|thought|checks|checked|here|again)\b/;
const CAP_WORDS = "\\p{Lu}[\\p{L}\\p{M}'’-]*(?:\\s+(?:(?:de|da|do|das|dos|del|la|los|las|di|sur|am|an|upon)\\s+)?\\p{Lu}[\\p{L}\\p{M}'’-]*){0,3}";
const THEN_FROM_PLACE = new RegExp(`^\\s+from\\s+${CAP_WORDS}(?=\\s)`, 'u');
const PERSON_THEN_FROM = new RegExp(`(?:^|[.!?\\n]\\s*)\\p{Lu}[\\p{L}\\p{M}'’-]*(?:\\s+\\p{Lu}[\\p{L}\\p{M}'’-]*){0,2}\\s+from\\s+$`, 'u');

/**
 * "<Someone> from <somewhere> <verb>" at a sentence's start: the first words are a person and the words after "from"
 * a place, whatever the lists say of either ("Sjoerd from Almelo says hi!", "Ester from Cavalcanti das Pedras won").
 * A known organization or a firm by its suffix keeps its type ("Mark from Acme Ltd says").
 */
function subjectFromPlace(text: string, toks: Tok[], sentenceStart: boolean, whole: Classified | undefined): EntityMatch | undefined {
  if (toks.length > 4 || (whole && whole.kind === 'organization') || toks.some((t) => t.shape === 'upper' || CUE_WORDS.has(t.base))) return undefined;
  const start = toks[0].start;
  const end = toks[toks.length - 1].end;
  if (sentenceStart && toks.length <= 3 && !honorificWord(toks[0])) {
    const from = THEN_FROM_PLACE.exec(text.slice(end, end + 80));
    if (from && SUBJECT_FROM_VERB.test(text.slice(end + from[0].length, end + from[0].length + 12))) return { start, end, score: 0.9, evidence: ['shape', 'context'], kind: 'name' };
  }
  if (SUBJECT_FROM_VERB.test(text.slice(end, end + 12)) && PERSON_THEN_FROM.test(text.slice(Math.max(0, start - 60), start)))
    return { start, end, score: 0.9, evidence: ['shape', 'context'], kind: 'location' };
  return undefined;
}

const COUNTRY_KEYS: ReadonlySet<string> = new Set([...COUNTRY_NAMES.map(fold), 'usa', 'uk', 'us', 'uae']);
/** The capitalized words after a comma (and up to a bracket, a comma or the sentence's end): "…, Mongolia." */
const AFTER_COMMA = /^,\s+(\p{Lu}[\p{L}\p{M}'’.-]*(?:\s+(?:and\s+|of\s+(?:the\s+)?)?\p{Lu}[\p{L}\p{M}'’.-]*){0,4})(?=\s*(?:$|[.,;:!?)\n]))/u;

/**
 * One to three capitalized words before a comma and a country ("in Görlitz, Niger", "Reutum, San Marino"), or in
 * brackets after a firm ("Miller Ltd (Chelseaside)"): a city, unless the lists know the words as something else or
 * as a person's full name.
 */
/** A firm's legal form and an opening bracket right before a run: "Miller Ltd (Chelseaside)" names where it is. */
const FIRM_THEN_BRACKET = /\b(?:Ltd|Inc|LLC|PLC|plc|GmbH|AG|NV|BV|SA|SpA|Srl|S\.r\.l|Corp|Co|Group|SARL|SAS|Pty|KG|AB|Oy)\.?\s*\($/;

/** The preposition PLACE_STRONG_CUE ends in, a cheap test before it. */
const PLACE_PREPOSITION_BEFORE = /(?:in|to|from|near)\s+$/;

function cityBeforeCountry(text: string, toks: Tok[], whole: Classified | undefined): EntityMatch | undefined {
  // Where only a place goes ("lives in Ponte de Sor", "moved to Marco de Canaveses"), the lists' reading of the words as
  // a person's name gives way, unless an honorific or a possessive says person ("moved to Paris Hilton's place").
  if (
    whole &&
    whole.kind === 'name' &&
    whole.honorific === undefined &&
    !POSSESSIVE_END.test(toks[toks.length - 1].raw) &&
    PLACE_PREPOSITION_BEFORE.test(text.slice(Math.max(0, toks[0].start - 7), toks[0].start)) &&
    PLACE_STRONG_CUE.test(text.slice(Math.max(0, toks[0].start - 40), toks[0].start))
  )
    return { start: toks[whole.skip].start, end: toks[toks.length - 1].end, score: 0.85, evidence: ['context'], kind: 'location' };
  if (
    toks.length > 3 ||
    toks.some((t) => t.shape !== 'cap') ||
    (whole && (whole.kind === 'organization' || whole.kind === 'nrp' || (whole.kind === 'name' && whole.evidence !== 'shape' && toks.length >= 2)))
  )
    return undefined;
  const end = toks[toks.length - 1].end;
  if (text[end] === ')' && FIRM_THEN_BRACKET.test(text.slice(Math.max(0, toks[0].start - 12), toks[0].start)) && (!whole || whole.evidence === 'shape' || whole.kind === 'location'))
    return { start: toks[0].start, end, score: 0.8, evidence: ['context'], kind: 'location' };
  const next = AFTER_COMMA.exec(text.slice(end, end + 60));
  if (!next || !COUNTRY_KEYS.has(fold(next[1]))) return undefined;
  const start = toks[0].start;
  return { start, end, score: 0.85, evidence: ['context'], kind: 'location' };
}

const GROUP_WORDS = /^(\p{L}[\p{L}\p{M}'’-]*)(?:[^\S\n]+(\p{L}[\p{L}\p{M}'’-]*))?/u;
const JOB_WORDS = /^[^\S\n]+(\p{L}[\p{L}\p{M}'’/-]*)(?:[^\S\n]+(\p{L}[\p{L}\p{M}'’/-]*))?(?:[^\S\n]+(\p{L}[\p{L}\p{M}'’/-]*))?(?:[^\S\n]+(\p{L}[\p{L}\p{M}'’/-]*))?/u;
/** Jobs a language names rather than a people ("English Teacher", "Spanish Translator"). */
const LANGUAGE_JOB_HEAD = /^(?:teacher|tutor|lecturer|professor|instructor|translator|interpreter|editor|coach)s?$/;

/**
 * Where a people's name (one or two words) at `start` ends when a job follows it, its head among the next four words
 * ("Danish Printmaker", "Puerto Rican Newspaper journalist"): the person's group, the job the title recognizer's.
 * -1 when there is none.
 */
export function groupBeforeJob(text: string, start: number): number {
  const w = GROUP_WORDS.exec(text.slice(start, start + 60));
  if (!w) return -1;
  const groups = lexicon().groups;
  const two = w[2] !== undefined && groups.has(fold(`${w[1]} ${w[2]}`));
  if (!two && !groups.has(fold(w[1]))) return -1;
  const end = start + (two ? w[0].length : w[1].length);
  const job = JOB_WORDS.exec(text.slice(end, end + 100));
  if (!job || LANGUAGE_JOB_HEAD.test(job[1].toLowerCase())) return -1;
  return job.slice(1).some((x) => x !== undefined && headWord(x.toLowerCase())) ? end : -1;
}

function readRun(text: string, toks: Tok[], out: EntityMatch[]): void {
  const lex = lexicon();
  const groupEnd = groupBeforeJob(text, toks[0].start);
  if (groupEnd > 0) {
    out.push({ start: toks[0].start, end: groupEnd, score: 0.6, evidence: ['gazetteer'], kind: 'nrp' });
    return;
  }
  const sentenceStart = atSentenceStart(text, toks[0]);
  const before = text.slice(Math.max(0, toks[0].start - 40), toks[0].start);
  const orgCued = ORG_CUE.test(before);
  const whole = classify(toks, sentenceStart);
  const subjectOrPlace = subjectFromPlace(text, toks, sentenceStart, whole) ?? cityBeforeCountry(text, toks, whole);
  if (subjectOrPlace) {
    out.push(subjectOrPlace);
    return;
  }
  const connected = toks.some((t, k) => (CONNECTORS.has(t.key) && t.shape === 'lower') || (k > 0 && joined(text, toks[k - 1], t) === 'amp'));
  // A place's shape where a place goes says more than two unknown words' shape ("in West Nathantown").
  const place = !whole || whole.evidence === 'shape' ? toponym(text, toks) : undefined;
  if (place) {
    out.push(place);
    return;
  }
  if (whole && !(whole.kind === 'name' && connected) && !(whole.kind === 'name' && whole.evidence === 'shape' && orgCued)) return emit(text, toks, whole, sentenceStart, out);
  if (connected) {
    const pieces = parts(toks, text);
    for (const p of pieces) {
      const c = classify(p, p === pieces[0] && sentenceStart);
      if (c) emit(text, p, c, p === pieces[0] && sentenceStart, out);
    }
    return;
  }
  const person = unknownPerson(text, toks, sentenceStart) ?? addressedPerson(text, toks);
  if (person) {
    out.push(person);
    return;
  }
  const lead = toks.findIndex((t) => !CUE_WORDS.has(t.base) && !(sentenceStart && lex.common.has(t.base)));
  if (lead < 0) return;
  // A known place or organization followed by the next sentence's first words ("lives in: London Please update").
  const known = knownPhrase(toks, lead, text, { place: true, org: true, group: true });
  if (known && lead + known[1] < toks.length && lex.common.has(toks[lead + known[1]].base)) {
    const [kind, n] = known;
    const end = toks[lead + n - 1].end;
    if (kind !== 'nrp' || groupReading(text, toks[lead].start, end)) out.push({ start: toks[lead].start, end, score: kind === 'nrp' ? 0.6 : 0.8, evidence: ['gazetteer'], kind });
    return;
  }
  // Mid-sentence, a capitalized common word starts a name of several ("joined Total Yard Maintenance").
  if (orgCued && lead === 0 && toks.length <= 4 && (!lex.common.has(toks[0].base) || (toks.length >= 2 && !sentenceStart))) {
    out.push({ start: toks[0].start, end: toks[toks.length - 1].end, score: toks.length >= 2 ? 0.85 : 0.8, evidence: ['context'], kind: 'organization' });
    return;
  }
  if (toks.length - lead === 1 && PLACE_STRONG_CUE.test(text.slice(Math.max(0, toks[lead].start - 40), toks[lead].start)) && !lex.common.has(toks[lead].base) && !lex.firstNames.has(toks[lead].base)) {
    out.push({ start: toks[lead].start, end: toks[lead].end, score: 0.7, evidence: ['context'], kind: 'location' });
  }
}

const OTHER_SCRIPT = /(?![\p{Script=Latin}])\p{L}/u;
/** A run of up to four words in a script other than Latin: "王小明", "ხვიჩა მახარაშვილი", "محمد علي". */
const OTHER_SCRIPT_RUN = /(?<![\p{L}\p{M}])(?![\p{Script=Latin}])\p{L}[\p{L}\p{M}]*(?:[ \t]+(?![\p{Script=Latin}])\p{L}[\p{L}\p{M}]*){0,3}/gu;
const LATIN_WORD = /\p{Script=Latin}[\p{L}\p{M}]*/gu;

/**
 * Words in another script inside text written mostly in Latin letters are names the lists cannot know, in scripts
 * without capitals (Chinese, Arabic, Georgian, Korean...): a person, or a place or a company where the words before
 * say so. Cyrillic and Greek, which have capitals, are read like Latin too; the model decides there first.
 */
function inOtherScripts(text: string, out: EntityMatch[]): void {
  const runs = [...text.matchAll(OTHER_SCRIPT_RUN)];
  const latinWords = text.match(LATIN_WORD)?.length ?? 0;
  if (latinWords < 3 || latinWords < runs.length * 3) return;
  for (const m of runs) {
    const start = m.index;
    const end = start + m[0].length;
    if (out.some((o) => o.start < end && start < o.end)) continue;
    const before = text.slice(Math.max(0, start - 40), start);
    const kind: EntityKind = PLACE_STRONG_CUE.test(before) ? 'location' : ORG_CUE.test(before) ? 'organization' : 'name';
    out.push({ start, end, score: 0.7, evidence: ['script'], kind });
  }
}

/** The entity recognizers run one after another on the same text: the words are read once. */
let memoText: string | undefined;
let memo: EntityMatch[] = [];

/** All name/organization/location/group/honorific spans of a text (memoised for the recognizers that share them). */
export function entities(text: string): EntityMatch[] {
  if (text === memoText) return memo;
  const toks = tokenize(text);
  const used = new Array<boolean>(toks.length).fill(false);
  const out: EntityMatch[] = [];
  readRuns(text, toks, used, out);
  uncased(text, toks, used, out);
  if (TWO_CAPITALS.test(text)) fromRecasedCapitals(text, out);
  if (OTHER_SCRIPT.test(text)) inOtherScripts(text, out);
  if (text.includes('/')) travelNames(text, out);
  // A person's or a place's possessive is not part of the name ("Ravi Kumar's fax", "Seattle’s music"); a
  // company's may be ("McDonald's").
  for (const e of out) if ((e.kind === 'name' || e.kind === 'location') && POSSESSIVE_END.test(text.slice(e.start, e.end))) e.end -= 2;
  // A word joined to others by an underscore is part of an identifier or file name ("Lisa_coverletter.doc").
  for (let k = out.length - 1; k >= 0; k--) if (text[out[k].start - 1] === '_' || text[out[k].end] === '_') out.splice(k, 1);
  out.sort((a, b) => a.start - b.start);
  memoText = text;
  memo = out;
  return out;
}

const NAME_PART = "\\p{Lu}[\\p{L}\\p{M}'’-]*";
/**
 * A name as tickets, boarding passes and manifests write it: surname, slash, given names, and often an honorific after
 * them ("GUILLOU/VICTOR DR", "Acuña/Julio César Mr.", "van Beek/Zoey Mrs"). Each part is its own span.
 */
const TRAVEL_NAME = new RegExp(
  `(?<![\\p{L}\\p{M}/])((?:(?:de|da|do|dos|das|del|della|di|du|le|la|van|von|der|den|ter|ten)[ ])*${NAME_PART})/(${NAME_PART}(?:[ ]${NAME_PART})?)(?:[ ]+(\\p{L}{1,5}(?:\\(a\\))?\\.?))?(?![\\p{L}\\p{M}/])`,
  'gu',
);
/** What follows a ticket's name besides the usual honorifics: a child ("MSTR"), Faker's neutral "Ind." and "Misc.". */
const TRAVEL_HONORIFICS = new Set(['mstr', 'ind.', 'misc.']);

/**
 * Ticket-style names (TRAVEL_NAME): with an honorific after them, or in capitals with neither part a common word
 * ("SMITH/JOHN"; not "AND/OR", "Yes/No"). They replace what the run reader made of the same characters.
 */
function travelNames(text: string, out: EntityMatch[]): void {
  const lex = lexicon();
  const honorificAfter = (word: string, dotted: boolean): boolean => {
    const key = fold(word.replace(/\.$/, ''));
    return HONORIFICS.has(key) || TRAVEL_HONORIFICS.has(key) || (dotted && (DOTTED_HONORIFICS.has(key) || TRAVEL_HONORIFICS.has(`${key}.`)));
  };
  for (const m of text.matchAll(TRAVEL_NAME)) {
    const start = m.index;
    const last = m[1];
    let [, , given, title] = m;
    let end = start + m[0].length;
    let titled = title !== undefined && honorificAfter(title, title.endsWith('.'));
    // "Victor Dr." read as two given names (and what follows as the honorific): the second is the honorific.
    const lastGiven = /^(.+) (\p{L}+)$/u.exec(given);
    if (!titled && lastGiven) {
      const at = start + last.length + 1 + given.length;
      // "Sr(a).": the bracket and the full stop belong to the honorific.
      const dot = /^(?:\(a\))?\.?/.exec(text.slice(at))?.[0] ?? '';
      if (honorificAfter(lastGiven[2] + dot, dot.endsWith('.'))) {
        given = lastGiven[1];
        title = lastGiven[2] + dot;
        end = at + dot.length;
        titled = true;
      }
    }
    // Without an honorific, only in capitals and of words that are names or no common word ("SMITH/JOHN", not "YES/NO").
    const nameLike = (w: string): boolean =>
      w === w.toUpperCase() &&
      fold(w)
        .split(' ')
        .every((k) => !lex.common.has(k) || lex.lastNames.has(k) || lex.firstNames.has(k) || WORD_SURNAMES.has(k) || WORD_NAMES.has(k));
    if (!titled && !(nameLike(last) && nameLike(given))) continue;
    if (!titled) end = start + last.length + 1 + given.length;
    for (let k = out.length - 1; k >= 0; k--) if (out[k].start < end && start < out[k].end) out.splice(k, 1);
    const givenAt = start + last.length + 1;
    out.push({ kind: 'name', start, end: start + last.length, score: 0.93, evidence: ['travel_name'] });
    out.push({ kind: 'name', start: givenAt, end: givenAt + given.length, score: 0.93, evidence: ['travel_name'] });
    if (titled && title) out.push({ kind: 'title', start: end - title.length, end, score: 0.9, evidence: ['honorific'] });
  }
}

/** What a recased line costs a reading of its capitalized runs: case was guessed, not written. */
const RECASED_COST = 0.1;
const TWO_CAPITALS = /\p{Lu}\p{Lu}/u;

/**
 * Lines written in capitals ("OLUMIDE BAKARE IS NIGERIAN", "PASSENGER: SEO-YEON PARK") are read a second time as an
 * editor would have written them (./recase.ts): common words in lower case, the rest capitalized. The runs found
 * there join the uncased gazetteer reading where it found nothing, a little less sure.
 */
function fromRecasedCapitals(text: string, out: EntityMatch[]): void {
  const recased = recaseForModel(text);
  if (recased.text === text || recased.text.length !== text.length) return;
  const rtoks = tokenize(recased.text);
  const found: EntityMatch[] = [];
  readRuns(recased.text, rtoks, new Array<boolean>(rtoks.length).fill(false), found);
  for (const e of found) {
    const written = text.slice(e.start, e.end);
    if (LOWER.test(written) || !recased.changed(e.start, e.end) || out.some((o) => o.start < e.end && e.start < o.end)) continue;
    out.push({ ...e, score: Math.round(((e.score ?? 0) - RECASED_COST) * 1000) / 1000, evidence: [...(e.evidence ?? []), 'recased'] });
  }
}

/** The capitalized runs of a text, read by the gazetteers and shapes (readRun). */
function readRuns(text: string, toks: Tok[], used: boolean[], out: EntityMatch[]): void {
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (!(runWord(t) || isHonorific(t))) continue;
    // Stretches of UPPER words are read by the gazetteers (uncased) unless a capitalized word joins them.
    if (t.shape === 'upper' && !(i + 1 < toks.length && toks[i + 1].shape === 'cap' && joined(text, t, toks[i + 1]))) continue;
    let j = i + 1;
    while (j < toks.length) {
      const g = joined(text, toks[j - 1], toks[j]);
      if (!g) break;
      const u = toks[j];
      if (runWord(u) || isHonorific(u) || (u.shape === 'upper' && isHonorific(toks[j - 1]))) {
        j++;
        continue;
      }
      // Particles and connectors stay inside a run only between two capitalized words ("Mehmet van der Laar").
      const small = (x: Tok): boolean => (PARTICLES.has(x.key) || CONNECTORS.has(x.key)) && x.shape === 'lower';
      let k = j;
      while (k < toks.length && k - j < 3 && small(toks[k]) && (k === j || joined(text, toks[k - 1], toks[k]))) k++;
      const inner = k > j && k < toks.length && runWord(toks[k]) && joined(text, toks[k - 1], toks[k]);
      // A titled person is not the first words of what follows "of" ("Mr. Jenkins of Norris Inc", "Dr Singh of …").
      if (!inner || (toks[j].key === 'of' && isHonorific(t))) break;
      j = k;
    }
    const run = toks.slice(i, j);
    for (let k = i; k < j; k++) used[k] = true;
    i = j - 1;
    readRun(text, run, out);
  }
}

function finder(kind: EntityKind): (text: string) => RawMatch[] {
  return (text) => entities(text).filter((e) => e.kind === kind);
}

const SURNAME = "(?:Mc|Mac|O['’]|D['’])?\\p{Lu}[\\p{Ll}\\p{M}'’]+";
/** A firm named after its partners: "Ross, Shaffer and Mueller", "Dixon, Bennett & Farley". */
const PARTNERS = new RegExp(`(?<![\\p{L}\\p{M}])${SURNAME}(?:,\\s+${SURNAME})+,?\\s+(?:and|&|y|e|und|et|en)\\s+${SURNAME}(?![\\p{L}\\p{M}])`, 'gu');
/**
 * Two surnames joined by a hyphen after a word that introduces a company ("works at Frey-Ramirez", "for Torres-Butler"),
 * or in the bracket after a person's name, where an affiliation stands ("Brandon Campbell (Hanson-Woods)").
 */
const HYPHENATED_FIRM = new RegExp(`(?<=\\b(?:at|for|from|joined|by|of)\\s|\\p{L}\\s\\()${SURNAME}-${SURNAME}(?![\\p{L}\\p{M}\\-])`, 'gu');

/** The family and partnership endings of firm names: "e Filhos", "y Asociados", "i syn", "et Fils", "& Sons". */
const FAMILY_ENDING =
  '(?:(?:y|e|E|&|i)\\s+(?:[Aa]sociados|[Aa]ssociados|[Ff]ilhos|[Ff]igli|[Hh]ijos|[Ss]öhne|[Ss]ons|[Cc]ía\\.?|Cie\\.?|[Ss]yn(?:owie)?|[Ww]spólnicy)|and\\s+Sons|et\\s+Fils(?=[\\s,.;]|$))';
/** Legal forms written with full stops, slashes or in several parts, which the word reader cannot see as one word. */
const DOTTED_FORM =
  '(?:S\\.\\s?A\\.(?:\\s?de\\s?C\\.\\s?V\\.|\\s?S\\.|\\s?R\\.\\s?L\\.|\\s?[DTU]\\.?(?![\\p{L}\\p{M}]))?|S\\.\\s?L\\.(?:\\s?N\\.\\s?E\\.?|\\s?[UL]\\.)?|S\\.\\s?L\\.\\s?N\\.\\s?E|S\\.\\s?Coop\\.?|S\\.\\s?Com\\.|S\\.\\s?C\\.\\s?P\\.?|S\\.\\s?R\\.\\s?L\\.\\s?de\\s?C\\.\\s?V\\.|S\\.\\s?C\\.|A\\.\\s?C\\.|[Ss]\\.\\s?[Rr]\\.\\s?[Ll]\\.?|[Ss]\\.\\s?[Pp]\\.\\s?[Aa]\\.?|[Ss]\\.\\s?[Nn]\\.\\s?[Cc]\\.|S\\.\\s?[Aa]\\.\\s?[Ss]\\.|S/A|' +
  'Sp\\.\\s?z\\s?o\\.\\s?o\\.(?:\\s?Sp\\.\\s?k\\.)?|Sp\\.\\s?[jkp]\\.(?:\\s?a\\.)?|S\\.\\s?K\\.\\s?A\\.|Lda\\.?|Ltda\\.?|EIRELI|-\\s(?:EI|ME|EPP|EIRELI)|' +
  'GmbH\\s?&\\s?Co\\.\\s?(?:KGaA|KG|OHG)|AG\\s?&\\s?Co\\.\\s?(?:KGaA|KG|OHG)|Stiftung\\s?&\\s?Co\\.\\s?(?:KGaA|KG)|OHG\\s?mbH|e\\.\\s?V\\.|e\\.\\s?K\\.|e\\.\\s?G\\.|UG\\s?\\(haftungsbeschränkt\\)|' +
  'B\\.\\s?V\\.|N\\.\\s?V\\.|V\\.\\s?O\\.\\s?F\\.|C\\.\\s?V\\.|A/S|L\\.\\s?L\\.\\s?C\\.|Pty\\.?\\s?Ltd\\.?|K\\.\\s?K\\.|[Ss]\\.\\s?c\\.|' +
  // Czech and Slovak, the former Yugoslavia's, Austria's, Turkey's and Hungary's ("Kadlecová s.r.o.", "Manço Tic.")
  '(?:spol\\.\\s?s\\s?)?r\\.\\s?o\\.|s\\.\\s?r\\.\\s?o\\.|v\\.\\s?o\\.\\s?s\\.|a\\.\\s?s\\.|k\\.\\s?s\\.|d\\.\\s?o\\.\\s?o\\.|d\\.\\s?d\\.|GesbR|GesmbH|' +
  'Ltd\\.\\s?Şti\\.|A\\.\\s?Ş\\.|Tic\\.(?:\\s?Ltd\\.\\s?Şti\\.)?|Kft\\.|Bt\\.|Zrt\\.|Nyrt\\.|Kkt\\.)';
/** A firm's last words: a family ending, a dotted legal form, or both ("y asociados S.Coop.", "i syn s.c."). */
const LEGAL_FORM = `(?:${FAMILY_ENDING}\\s+${DOTTED_FORM}|${FAMILY_ENDING}|${DOTTED_FORM})`;
const FIRM_WORD = "\\p{Lu}[\\p{L}\\p{M}'’]*(?:-\\p{Lu}[\\p{L}\\p{M}'’]*)?";
/** Words that join the names in a firm's name: particles and "and" in the languages of the legal forms. */
const FIRM_JOIN = '(?:,?\\s+(?:(?:y|e|and|&|und|et|en|de|da|do|dos|das|del|di|van|von|der|den|la|le)\\s+)*)';
const LEGAL_FORM_FIRM = new RegExp(`(?<![\\p{L}\\p{M}\\-])${FIRM_WORD}(?:${FIRM_JOIN}${FIRM_WORD}){0,4},?\\s*${LEGAL_FORM}(?![\\p{L}\\p{M}])`, 'gu');
/** Words that begin the names of foundations, associations and small firms ("Stichting van Kusen", "PPUH Szczesiak"). */
const FIRM_PREFIX = new RegExp(
  `(?<![\\p{L}\\p{M}])(?:Stichting|Vereniging|Fundacja|Stowarzyszenie|Spółdzielnia|Fundación|Fundação|Fondazione|Fondation|Associação|Asociación|Associazione|Verein|Gabinet[y]?|Grupa|Club|[PF]{1,2}\\.?(?:P\\.?)?(?:H\\.?U\\.?|U\\.?H\\.?))\\s+(?:(?:van|de|der|den|del|la|da|do|dos|di)\\s+)*${FIRM_WORD}(?:[ \\t]+${FIRM_WORD}){0,2}(?:,?\\s*${LEGAL_FORM})?(?![\\p{L}\\p{M}])`,
  'gu',
);
/** A firm named by what it has: "the Ruiz-Douglas office", "the Scheibe team" (not "the London office": a place). */
const FIRM_BY_ITS_THINGS = new RegExp(
  `(?<=\\bthe\\s)${FIRM_WORD}(?:${FIRM_JOIN}${FIRM_WORD}){0,3}(?=\\s+(?:office|offices|headquarters|HQ|branch|team|store|shop|factory|plant|warehouse|staff|board|website|helpdesk|help desk)\\b)`,
  'gu',
);
/** What FIRM_BY_ITS_THINGS and LOWER_PARTNERS need in a text, cheap to look for before their lookbehinds run. */
const FIRM_THINGS = /\s(?:office|offices|headquarters|HQ|branch|team|store|shop|factory|plant|warehouse|staff|board|website|helpdesk|help desk)\b/;
const LOWER_PARTNER_JOIN = /\p{Ll}(?:,\s+\p{Ll}|-\p{Ll})/u;
/** Lower-case partners after a word that introduces a firm: "from davis, elliott and sheppard", "at perez-ramirez". */
const LOWER_PARTNERS =
  /(?<=\b(?:at|for|with|from|joined|by)\s)\p{Ll}[\p{Ll}\p{M}'’]+(?:(?:,\s+\p{Ll}[\p{Ll}\p{M}'’]+)+,?\s+(?:and|&|y|e|und|et)\s+\p{Ll}[\p{Ll}\p{M}'’]+|-\p{Ll}[\p{Ll}\p{M}'’]+)(?![\p{L}\p{M}-])/gu;

/** A word before a firm that introduces it: a firm of partners there is a firm, whatever the surnames. */
const FIRM_CUE = /\b(?:at|for|with|from|joined|of|by|to)\s+$/;

/** Organizations: the entity reading, and firms named after people, which read as names word by word. */
function findOrganizations(text: string): RawMatch[] {
  const out: RawMatch[] = entities(text).filter((e) => e.kind === 'organization');
  const lex = lexicon();
  for (const m of text.matchAll(PARTNERS)) {
    // A known surname among them and no word of another kind: "Harry, Niall and Louis" are three people, "Jordanian,
    // Palestinian and Syrian" or "Buckling, Crumbling, and Toppling" lists. Surer than each word read as a name, since
    // the firm is one entity, not three people.
    // After "at", "for", "with" the list is a firm whatever the surnames are ("at McNelis, Maginn and MacNamara").
    const words = m[0].split(/,?\s+(?:(?:and|&|y|e|und|et|en)\s+)?/).map(fold);
    const cued = FIRM_CUE.test(text.slice(Math.max(0, m.index - 12), m.index));
    if ((!cued && !words.some((w) => lex.lastNames.has(w))) || words.some((w) => /(?:ing|ian|ese|ish|ware|ion)$/.test(w) && !lex.lastNames.has(w))) continue;
    // People listed by name are listed by given name ("Harry, Niall and Louis"); when no word is only a given name,
    // the firm outranks the names each word would be ("Brown, Beck and Carter": Beck a surname, Carter both).
    const surnamesOnly = !words.some((w) => lex.firstNames.has(w) && !lex.lastNames.has(w));
    out.push({ start: m.index, end: m.index + m[0].length, score: surnamesOnly ? 0.97 : 0.92, evidence: ['firm_name'] });
  }
  for (const re of [LEGAL_FORM_FIRM, FIRM_PREFIX]) {
    for (const m of text.matchAll(re)) {
      let start = m.index;
      // A sentence's first words before the firm's are not its name ("Thanks Acme S.A." is "Acme S.A."), and a word
      // that introduces the firm neither ("Invoice for ...").
      if (re === LEGAL_FORM_FIRM) {
        for (const w of m[0].matchAll(/\p{Lu}[\p{Ll}'’]*(?=\s+\p{Lu})/gu)) {
          if (m.index + (w.index as number) !== start) break;
          const k = fold(w[0]);
          if (!lex.common.has(k) || lex.lastNames.has(k)) break;
          start = m.index + (w.index as number) + w[0].length;
          while (/\s/.test(text[start])) start++;
        }
      }
      const value = text.slice(start, m.index + m[0].length);
      if (value.length < 4) continue;
      out.push({ start, end: start + value.length, score: 0.9, evidence: ['org_suffix'] });
    }
  }
  for (const m of FIRM_THINGS.test(text) ? text.matchAll(FIRM_BY_ITS_THINGS) : []) {
    const key = fold(m[0]);
    if (lex.places.has(key) || lex.groups.has(key) || key.split(/\s+/).every((w) => lex.common.has(w) && !lex.lastNames.has(w))) continue;
    out.push({ start: m.index, end: m.index + m[0].length, score: 0.8, evidence: ['context'] });
  }
  for (const m of LOWER_PARTNER_JOIN.test(text) ? text.matchAll(LOWER_PARTNERS) : []) {
    const words = m[0].split(/,?\s+(?:(?:and|&|y|e|und|et)\s+)?|-/).map(fold);
    // Two known surnames at least, and no word of another kind ("from paris, london and rome" are places).
    const surname = (w: string): boolean => lex.lastNames.has(w) || WORD_SURNAMES.has(w);
    if (words.filter(surname).length < 2 || words.some((w) => STOP_WORDS.has(w) || lex.places.has(w) || lex.groups.has(w) || (lex.common.has(w) && !surname(w)))) continue;
    out.push({ start: m.index, end: m.index + m[0].length, score: 0.92, evidence: ['firm_name'] });
  }
  for (const m of text.matchAll(HYPHENATED_FIRM)) {
    if (!m[0].split('-').some((w) => lex.lastNames.has(fold(w)))) continue;
    out.push({ start: m.index, end: m.index + m[0].length, score: 0.7, evidence: ['firm_name'] });
  }
  return out.sort((a, b) => a.start - b.start);
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * Country names the word reader cannot take whole: those with a part in brackets ("Falkland Islands (Malvinas)"), or
 * with "and", which people also write "&" ("Svalbard & Jan Mayen"), longest first.
 */
const COUNTRY_PHRASE = new RegExp(
  `(?<![\\p{L}\\p{M}])(?:${COUNTRY_NAMES.filter((n) => n.includes('(') || n.includes(' and '))
    .sort((a, b) => b.length - a.length)
    .map((n) => escapeRegex(n.replace(/^the /, '')).replace(/ and /g, ' (?:and|&) '))
    .join('|')})(?![\\p{L}\\p{M}])`,
  'gu',
);

/** Places: the entity reading, and the country names it cannot read whole. */
function findLocations(text: string): RawMatch[] {
  const out: RawMatch[] = entities(text).filter((e) => e.kind === 'location');
  for (const m of text.matchAll(COUNTRY_PHRASE)) out.push({ start: m.index, end: m.index + m[0].length, score: 0.9, evidence: ['gazetteer'] });
  return out.sort((a, b) => a.start - b.start);
}

/** A whole cell as a name/organization/place: the gazetteers decide, a capitalized shape alone is weak evidence. */
function cellMatcher(kind: EntityKind): (value: string) => RawMatch | null {
  return (value) => {
    const v = value.trim();
    if (v.length < 2 || v.length > 80) return null;
    const toks = tokenize(v);
    if (toks.length === 0 || toks.length > 5 || !(toks[0].shape === 'cap' || toks[0].shape === 'upper' || toks[0].shape === 'initial')) return null;
    if (toks.some((t) => t.shape === 'other') || /[^\p{L}\p{M}\s'’.\-&]/u.test(v)) return null;
    const c = classify(toks, false);
    if (c && c.kind === kind) return { start: 0, end: value.length, score: c.score, evidence: [c.evidence] };
    if (kind === 'name' && toks.length === 1 && lexicon().lastNames.has(toks[0].base)) return { start: 0, end: value.length, score: 0.6, evidence: ['gazetteer'] };
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
    needs: NEEDS_LETTER,
  }),
  define({
    id: 'organization',
    name: 'Organization',
    category: 'personal',
    find: findOrganizations,
    matchCell: cellMatcher('organization'),
    evidence: 'ner',
    score: 0.85,
    contextScore: 0.88,
    columnHint: 'company|organi[sz]ation|employer|(^|_)org($|_)|business|vendor|supplier|insurer|bank_?name|hospital|institution',
    needs: NEEDS_LETTER,
  }),
  define({
    id: 'location',
    name: 'Location (city, region, country)',
    category: 'geography',
    find: findLocations,
    matchCell: cellMatcher('location'),
    evidence: 'ner',
    score: 0.85,
    contextScore: 0.9,
    columnHint: 'city|country|state|region|location|town|province|county|birthplace|place',
    needs: NEEDS_LETTER,
  }),
];

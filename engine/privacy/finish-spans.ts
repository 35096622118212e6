/**
 * The last look at a text's resolved detections, where a span is judged beside its neighbours: what one recognizer
 * cannot see alone (a place's particle, a chat word the lower-case name reader took in, a firm after a job, a given
 * name listed with people) is settled here. Each step keeps the list sorted and never overlapping.
 */
import { fold, lexicon } from './lexicon';
import { AGE_BESIDE_NAME, AGE_OF_NAME, NOT_AGE_AFTER } from './recognizers/dates';
import { unlistedWord } from './recognizers/named-entities';
import { CHAT_WORDS, STOP_WORDS } from './recognizers/recase';
import type { Detection } from './types';

/** The steps, in order, over detections sorted by position. */
export function finishSpans(sorted: Detection[], text: string): Detection[] {
  let out = joinPlaceParticles(sorted, text);
  out = trimLeadingNoise(out, text);
  out = endAddressesAtLabels(out, text);
  out = firmsAfterJobs(out, text);
  out = lowerCaseFirms(out, text);
  out = namesBesideNames(out, text);
  out = lowerNamesWithAges(out, text);
  return agesOfNames(out, text);
}

const byStart = (a: Detection, b: Detection): number => a.start - b.start;
const ENTITY_TYPES: ReadonlySet<string> = new Set(['name', 'organization', 'location', 'nrp']);

/**
 * What continues a place's name after it: a particle and one or two capitalized words, once or twice ("Frankfurt am
 * Main", "Rio de Janeiro", "Moraes do Norte", "San Fernando del Valle de Catamarca"), or a Mexican town's "los altos"
 * ("San Luis los bajos"). Lower-case particles only, so "Paris and London" or "Lisbon In May" stay apart.
 */
const PLACE_PARTICLES =
  /^(?:[^\S\n]+(?:de la|de las|de los|de|da|do|das|dos|del|della|di|du|des|am|an der|an den|im|in der|ob der|sur|sous|lès|upon|en)[^\S\n]+\p{Lu}[\p{L}\p{M}'’-]*(?:[^\S\n]+\p{Lu}[\p{L}\p{M}'’-]*)?){1,2}|^[^\S\n]+(?:los altos|los bajos|de arriba|de abajo)(?![\p{L}\p{M}])/u;

/**
 * A place found without the particle and words that end its name takes them, and what was found inside them goes:
 * the models stop at the particle ("Moraes" a place, "Norte" an organization); the whole is one place.
 */
export function joinPlaceParticles(sorted: Detection[], text: string): Detection[] {
  if (!/ (?:d[aeiou]|de[ls]|della|di|am|an|im|in|ob|sur|sous|lès|upon|en) \p{Lu}| los (?:altos|bajos)| de (?:arriba|abajo)/u.test(text)) return sorted;
  let out = sorted;
  for (const d of sorted) {
    if (d.type !== 'location' || !out.includes(d)) continue;
    const m = PLACE_PARTICLES.exec(text.slice(d.end, d.end + 80));
    if (!m) continue;
    const end = d.end + m[0].length;
    // Only over what lies wholly inside the new end; a detection that runs past it keeps its own reading.
    if (out.some((o) => o !== d && o.start < end && o.end > end)) continue;
    const grown: Detection = { ...d, end, text: text.slice(d.start, end) };
    out = out
      .filter((o) => o !== d && !(o.start >= d.end && o.end <= end))
      .concat(grown)
      .sort(byStart);
  }
  return out;
}

/** An auxiliary verb that opens a question, and the given name after it. */
const QUESTION_AUX = /^(?:Can|Could|Will|Would|Should|Did|Does|Do|Has|Have|May|Might|Shall)[^\S\n]+(?=(\p{Lu}[\p{L}\p{M}'’-]*))/u;
/** Words written before a name that are never part of one: chat words and the abbreviations of mail and transfers. */
const LEADING_NOISE: ReadonlySet<string> = new Set([...CHAT_WORDS, 're', 'ref', 'fao', 'cc', 'bcc', 'fw', 'fwd', 'dm', 'pm', 'via', 'cheers', 'thanks']);

/**
 * An entity span that opens with a lower-case chat word or a mail abbreviation ("lol caoilfhionn o'neill", "ref
 * Putz") starts after it: the lower-case readers take in the word before a name when it is in no list.
 */
function trimLeadingNoise(sorted: Detection[], text: string): Detection[] {
  return sorted.map((d) => {
    if (!ENTITY_TYPES.has(d.type)) return d;
    // A question's auxiliary before a name that opens the sentence: "Can Katie swap shifts…?" is Katie.
    const aux = QUESTION_AUX.exec(text.slice(d.start, d.end));
    if (aux && /(?:^|[.!?\n:]\s*)$/.test(text.slice(Math.max(0, d.start - 3), d.start)) && lexicon().firstNames.has(fold(aux[1]))) {
      const start = d.start + aux[0].length;
      return { ...d, start, text: text.slice(start, d.end) };
    }
    const m = /^(\p{Ll}+)[^\S\n]+(?=\p{L})/u.exec(text.slice(d.start, d.end));
    if (!m || !LEADING_NOISE.has(m[1])) return d;
    const start = d.start + m[0].length;
    return { ...d, start, text: text.slice(start, d.end) };
  });
}

/**
 * A street address does not take in the label of the field after it: "R. de Neto, 47, 2947-489 Faro. Recipient:"
 * ends at "Faro". The label is a word the colon right after the address follows.
 */
function endAddressesAtLabels(sorted: Detection[], text: string): Detection[] {
  return sorted.map((d) => {
    if (d.type !== 'address' || !/^[^\S\n]*:/.test(text.slice(d.end, d.end + 3))) return d;
    const m = /[.,;][^\S\n]+\p{L}[\p{L}\p{M}'’-]*(?:[^\S\n]+\p{L}[\p{L}\p{M}'’-]*)?$/u.exec(text.slice(d.start, d.end));
    if (!m || m.index === 0) return d;
    const end = d.start + m.index;
    return { ...d, end, text: text.slice(d.start, end) };
  });
}

/** Words that end a lower-case firm's name after "at": the sentence's own words. */
const FIRM_STOP: ReadonlySet<string> = new Set([
  ...STOP_WORDS,
  ...CHAT_WORDS,
  'now',
  'today',
  'tomorrow',
  'yesterday',
  'since',
  'until',
  'last',
  'next',
  'this',
  'starting',
  'from',
  'for',
  'in',
  'on',
  'with',
  'but',
  'so',
  'because',
  'and',
  'or',
]);
const FIRM_WORD = /^\p{Ll}[\p{Ll}\p{M}'’&.-]*$/u;
/** Lower-case words that name no firm after "at": the time, a place of every day, a determiner. */
const NOT_A_FIRM_START = /^(?:the|a|an|my|our|your|his|her|their|this|that|home|work|night|noon|least|most|all|once|first|last|times?)$/;

/**
 * The employer after a job, written in lower case ("just got hired as a Graphic designer at byrd group", "a nurse at
 * st james"): the words after "at" up to the clause's end, a partnership ("evoy and o'devenny") included, when one
 * of them is no common English word.
 */
function firmsAfterJobs(sorted: Detection[], text: string): Detection[] {
  if (!/[^\S\n]at[^\S\n]+\p{Ll}/u.test(text)) return sorted;
  const lex = lexicon();
  const added: Detection[] = [];
  for (const d of sorted) {
    if (d.type !== 'title') continue;
    const at = /^[^\S\n]+at[^\S\n]+/.exec(text.slice(d.end, d.end + 6));
    if (!at) continue;
    const start = d.end + at[0].length;
    const rest = text.slice(start, start + 80);
    const words = /^[^\s,;:!?()]+(?:(?:,?[^\S\n]+)[^\s,;:!?()]+){0,5}/u.exec(rest);
    if (!words) continue;
    const list = words[0].split(/(,?[^\S\n]+)/);
    let end = start;
    let taken = 0;
    let joinedByAnd = false;
    for (let k = 0; k < list.length; k += 2) {
      const w = list[k].replace(/[.]$/, (dot) => (/\.\p{Ll}/u.test(list[k]) ? dot : ''));
      const key = w.toLowerCase();
      const isAnd = (key === 'and' || key === '&' || key === 'y' || key === 'e') && taken > 0 && k + 2 < list.length;
      if (!isAnd && (!FIRM_WORD.test(w) || FIRM_STOP.has(key) || (taken === 0 && NOT_A_FIRM_START.test(key)))) break;
      if (isAnd) joinedByAnd = true;
      end = start + list.slice(0, k).join('').length + w.length;
      taken++;
      if (taken >= 5) break;
    }
    if (taken === 0) continue;
    const value = text.slice(start, end);
    // A comma inside the firm only in a partnership's list ("o'donohoe, evoy and o'devenny").
    if (value.includes(',') && !joinedByAnd) continue;
    // After "and", the firm's last name must close the clause, or the "and" was the sentence's.
    if (joinedByAnd && !/^\s*(?:$|[.!?;\n])/.test(text.slice(end, end + 2))) continue;
    const keys = value.split(/[,\s&-]+/).filter((w) => w && !['and', 'y', 'e'].includes(w));
    if (keys.every((w) => lex.common.has(fold(w.replace(/[.'’]+$/, ''))) && !lex.lastNames.has(fold(w)))) continue;
    if (sorted.some((o) => o.start < end && start < o.end)) continue;
    added.push({ type: 'organization', start, end, text: value, confidence: 0.75, evidence: ['context', 'firm_after_job'] });
  }
  return added.length ? [...sorted, ...added].sort(byStart) : sorted;
}

/** A given name beside people's names, in lower case: "Bianka Szuta, Michał Jurczuk, and bianka", "tom and Ann Lee". */
const AFTER_NAME = /^(?:,[^\S\n]*(?:and[^\S\n]+|&[^\S\n]+)?|[^\S\n]+(?:and|&|or)[^\S\n]+)(\p{Ll}[\p{Ll}\p{M}'’-]+)(?=[^\S\n]*(?:$|[.,;!?)\n]|[^\S\n]+(?:and|or)\b))/u;
/** Before a name only with "and": a word and a comma before one is more often a label or an apposition ("the claimant, Ind. Boutin"). */
const BEFORE_NAME = /(?:^|[^\p{L}\p{M}'’-])(?<!\b(?:the|a|an|my|our|your|his|her|their)[^\S\n]+)(\p{Ll}[\p{Ll}\p{M}'’-]+)[^\S\n]+(?:and|&|or)[^\S\n]+$/u;

function namesBesideNames(sorted: Detection[], text: string): Detection[] {
  if (!sorted.some((d) => d.type === 'name')) return sorted;
  const lex = lexicon();
  // A known given name that is no word; closing a list of names after a comma, also a word no list knows at all
  // ("Bianka Szuta, Michał Jurczuk, and bianka"), which elsewhere is as often a noun the lists lack ("a minecraft
  // gamer and grian", "Smith and environs").
  const given = (w: string, unlisted: boolean): boolean => {
    const k = fold(w);
    return (lex.firstNames.has(k) && !lex.common.has(k) && !CHAT_WORDS.has(k) && !STOP_WORDS.has(k)) || (unlisted && unlistedWord(k));
  };
  const added: Detection[] = [];
  const free = (start: number, end: number): boolean => ![...sorted, ...added].some((o) => o.start < end && start < o.end);
  for (const d of sorted) {
    // A lone lower-case word is no anchor: "davis, elliott and sheppard" is as often a firm as three people.
    if (d.type !== 'name' || !/\p{Lu}|\s/u.test(text.slice(d.start, d.end))) continue;
    const after = AFTER_NAME.exec(text.slice(d.end, d.end + 40));
    if (after && given(after[1], after[0].startsWith(','))) {
      const start = d.end + after[0].length - after[1].length;
      const end = start + after[1].length;
      if (free(start, end)) added.push({ type: 'name', start, end, text: after[1], confidence: 0.7, evidence: ['context', 'listed_with_names'] });
    }
    const before = BEFORE_NAME.exec(text.slice(Math.max(0, d.start - 40), d.start));
    if (before && given(before[1], false)) {
      const start = d.start - before[0].length + before[0].indexOf(before[1]);
      const end = start + before[1].length;
      if (free(start, end)) added.push({ type: 'name', start, end, text: before[1], confidence: 0.7, evidence: ['context', 'listed_with_names'] });
    }
  }
  return added.length ? [...sorted, ...added].sort(byStart) : sorted;
}

/** Degrees and suffixes after a name. */
const NAME_LETTERS = /^[^\S\n]+(?:PhD|MD|MBA|DDS|DVM|Esq\.?|Jr\.?|Sr\.?|\p{Lu}\p{L}{0,3}\.(?:\p{Lu}\p{L}{0,3}\.)*)(?=[\s,])/u;
/** The age that closes the bracket a name opens: "(Dylan van de Pavert, 21)". */
const AGE_CLOSING_BRACKET = /^,[^\S\n]*(\d{1,3})\)/;
/** The field after a name's in a record split by bars: "New member: Kimberly Adkins | 48 | 823 Russell Centers". */
const AGE_FIELD = /^[^\S\n]*\|[^\S\n]*(\d{1,3})(?=[^\S\n]*(?:\||\n|$))/;
/** A person's age in the bracket after the name, alone or after a nationality: "Megan van Bunschoten (69)", "(Bolivian, 90)". */
const AGE_IN_BRACKET = /^[^\S\n]*\((?:\p{Lu}[\p{L}\p{M}'’ -]*,[^\S\n]*)?(\d{1,3})\)/u;

/**
 * A number stated of a person whatever found the name (the rules, the model or the tagger): "Sra. da Cunha (88)",
 * "i think sherry is 87 or something", "Tammy Lee PhD is 37". The rules read ages after the names they find
 * themselves (recognizers/dates.ts); names with particles or in lower case are often the model's.
 */
function agesOfNames(sorted: Detection[], text: string): Detection[] {
  if (!/\d/.test(text)) return sorted;
  const added: Detection[] = [];
  for (const d of sorted) {
    if (d.type !== 'name') continue;
    // After the letters a name may carry ("Tammy Lee PhD", "Jose Klingelhöfer B.Eng.").
    const letters = NAME_LETTERS.exec(text.slice(d.end, d.end + 16))?.[0].length ?? 0;
    const after = text.slice(d.end + letters, d.end + letters + 40);
    const inBracket = /\(\s*$/.test(text.slice(Math.max(0, d.start - 2), d.start));
    const beside = AGE_BESIDE_NAME.exec(after);
    const m = AGE_IN_BRACKET.exec(after) ?? AGE_OF_NAME.exec(after) ?? beside ?? AGE_FIELD.exec(after) ?? (inBracket ? AGE_CLOSING_BRACKET.exec(after) : null);
    if (!m || Number.parseInt(m[1], 10) > 120) continue;
    const start = d.end + letters + m[0].lastIndexOf(m[1]);
    const end = start + m[1].length;
    if (NOT_AGE_AFTER.test(text.slice(end, end + 10)) || sorted.some((o) => o.start < end && start < o.end)) continue;
    // "R. de S. Brás, 96, 6531-353 Guimarães": a number a postcode follows is a house number.
    if (m === beside && /\d/.test(text.slice(end, end + 12))) continue;
    added.push({ type: 'age', start, end, text: m[1], confidence: 0.65, evidence: ['age_phrase', 'context'] });
  }
  return added.length ? [...sorted, ...added].sort(byStart) : sorted;
}

/**
 * A word in lower case that an age is stated of is a person's name when it is a given name or no word at all: "i
 * think venancio is 33 or something", "about me: victor, 29, Chilean". An age in apposition only where a clause starts.
 */
const LOWER_NAME_AGED =
  /(?<![\p{L}\p{M}'’-])(\p{Ll}[\p{Ll}\p{M}'’-]{2,})(?: (?:is|was|turned|turns)(?: now| only| just| already| about| like)? \d{1,3}(?=\s*(?:$|[.!?;]|,\s|\s(?:years?|yrs?|next|this|today|in|and|but|or|now|lol)\b))|, \d{1,2},)/gu;

function lowerNamesWithAges(sorted: Detection[], text: string): Detection[] {
  if (!/\p{Ll}[^\S\n](?:is|was|turn)|\p{Ll}, \d/u.test(text)) return sorted;
  const lex = lexicon();
  const added: Detection[] = [];
  for (const m of text.matchAll(LOWER_NAME_AGED)) {
    const word = m[1];
    const k = fold(word);
    if (STOP_WORDS.has(k) || CHAT_WORDS.has(k) || !(lex.firstNames.has(k) || (k.length >= 4 && unlistedWord(k)))) continue;
    // A thing has a determiner: "the lid is 3".
    if (/\b(?:the|a|an|my|your|his|her|our|their|this|that|its|each|every|per)[^\S\n]+$/i.test(text.slice(Math.max(0, m.index - 8), m.index))) continue;
    // In apposition, only after a clause's start: "about me: victor, 29," not "the seats, 12,".
    if (m[0].startsWith(`${word},`) && !/(?:^|[:;\n])[^\S\n]*$/.test(text.slice(Math.max(0, m.index - 3), m.index))) continue;
    const start = m.index;
    const end = start + word.length;
    if (sorted.some((o) => o.start < end && start < o.end && o.type !== 'location') || added.some((o) => o.start === start)) continue;
    added.push({ type: 'name', start, end, text: word, confidence: 0.66, evidence: ['context', 'age_stated'] });
  }
  if (!added.length) return sorted;
  // A place the model read in the same word ("georgia") gives way: an age is stated of people.
  return [...sorted.filter((o) => !added.some((a) => o.start < a.end && a.start < o.end)), ...added].sort(byStart);
}

/** A firm's legal form or family ending as people type it in lower case ("s.coop.", "ohg mbh", "e hijos", "group"). */
const LOWER_FIRM_END =
  /(?<![\p{L}\p{M}])(?:s\.\s?a\.(?:\s?de\s?c\.\s?v\.|\s?s\.|\s?[utd]\.)?|s\.\s?coop\.|s\.\s?com\.|s\.\s?l\.(?:\s?[ul]\.)?|s\.\s?r\.\s?l\.(?:\s?de\s?c\.\s?v\.)?|s\.\s?p\.\s?a\.|s\.\s?c\.|sp\.\s?k\.|sp\.\s?j\.|sp\.\s?z\s?o\.\s?o\.|s\/a|ltda\.?|lda\.?|e\.\s?v\.|e\.\s?k\.|ohg(?:\s?mbh)?|kgaa|kg|gmbh(?:\s?&\s?co\.\s?kg)?|ag|sarl|sas|bv|nv|spa|srl|inc\.?|ltd\.?|llc|plc|llp|sa|group|and sons|(?:e|y|&) (?:hijos|filhos|figli|asociados|associados)|et fils|i syn)(?![\p{L}\p{M}])/gu;
/** Words that introduce a firm before its name. */
const FIRM_INTRO = /(?:^|\n|\b(?:from|at|for|with|of|by|to|behalf of|re|approved|still at)[:]?[^\S\n]+)$/i;
/** A hyphenated pair of surnames after a word that introduces a firm ("from waters-coles", "on behalf of ballard-forbes"). */
const LOWER_PAIR_FIRM = /(?<=\b(?:[Ff]rom|[Aa]t|[Ff]or|[Ww]ith|[Oo]f|[Bb]y|[Rr]e|[Aa]pproved|[Tt]o)[:]?[^\S\n]+|\p{L}[^\S\n]\()\p{Ll}[\p{Ll}\p{M}'’]+-\p{Ll}[\p{Ll}\p{M}'’]+(?![\p{L}\p{M}-])/gu;

/**
 * Firms written in lower case, as chat and quick notes do: "from arce & asociados s.a.", "r u still at ruppert
 * jopich ohg mbh??", "jaramillo e hijos sent…", "on behalf of waters-coles". A legal form or family ending closes the
 * name, whose words run back to the word that introduces it (or the line's start); a hyphenated pair needs that word
 * and a surname the lists know. Lower-case readings of the same words by other readers give way.
 */
function lowerCaseFirms(sorted: Detection[], text: string): Detection[] {
  if (!/\p{Ll}/u.test(text)) return sorted;
  const lex = lexicon();
  const found: Detection[] = [];
  for (const m of text.matchAll(LOWER_FIRM_END)) {
    const end = m.index + m[0].length;
    // Back over up to five lower-case words, joined by spaces, "&", "y"/"e"/"and" or a comma in a list of partners.
    const before = text.slice(Math.max(0, m.index - 80), m.index);
    const words = /((?:\p{Ll}[\p{Ll}\p{M}'’.-]*(?:,?[^\S\n]+(?:(?:y|e|and|&)[^\S\n]+)?)){1,5})$/u.exec(before);
    if (!words) continue;
    let start = m.index - words[1].length;
    // The firm starts after the word that introduces it.
    const lead = /^(?:.*?\b(?:from|at|for|with|of|by|to|re|approved)[^\S\n]+)/u.exec(words[1]);
    if (lead) start += lead[0].length;
    if (start >= m.index || !FIRM_INTRO.test(text.slice(Math.max(0, start - 20), start))) continue;
    const value = text.slice(start, end);
    if (value.split(/[\s,&]+/).some((w) => STOP_WORDS.has(w) && !['y', 'e', 'and'].includes(w))) continue;
    found.push({ type: 'organization', start, end, text: value, confidence: 0.75, evidence: ['context', 'lower_firm'] });
  }
  for (const m of text.matchAll(LOWER_PAIR_FIRM)) {
    // A surname the lists know, or a word no list knows ("ballard-forbes"); never two common words ("long-term").
    const parts = m[0].split('-').map(fold);
    if (!parts.some((w) => lex.lastNames.has(w) || unlistedWord(w)) || parts.every((w) => lex.common.has(w))) continue;
    found.push({ type: 'organization', start: m.index, end: m.index + m[0].length, text: m[0], confidence: 0.75, evidence: ['context', 'lower_firm'] });
  }
  if (!found.length) return sorted;
  // What a reader made of some of the same lower-case words ("hijos sent", "rojas") gives way; a detection in capitals
  // or of another kind stays, and the firm with it does not.
  const kept = found.filter((f) => !sorted.some((o) => o.start < f.end && f.start < o.end && (!ENTITY_TYPES.has(o.type) || /\p{Lu}/u.test(o.text))));
  if (!kept.length) return sorted;
  return [...sorted.filter((o) => !kept.some((f) => o.start < f.end && f.start < o.end)), ...kept].sort(byStart);
}
